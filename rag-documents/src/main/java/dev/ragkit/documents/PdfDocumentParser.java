package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.graphics.PDXObject;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.jspecify.annotations.Nullable;

/**
 * PDF documents, on Apache PDFBox 3: the text of each page in the order the page draws it, pages numbered from 1
 * and every line tagged with its page — so chunks never span a page and their line numbers count within it
 * ({@code handbook.pdf p. 12, lines 4–9} can be checked against page 12). The outline (bookmarks) gives the
 * sections, each page belonging to the last bookmark that starts on or before it; the title is the document
 * information's title, else the first short line of the first page with text, else the file name.
 *
 * <p>Scanned pages: when the {@code tesseract} executable is on the {@code PATH} (Debian's {@code tesseract-ocr}),
 * a page without a text layer that shows an image is rendered at {@value #OCR_DPI} dpi and recognised by it, in the
 * language of {@link Builder#ocrLanguage(String)} (default: the system property {@value #OCR_LANG_PROPERTY}, else the
 * environment variable {@value #OCR_LANG_ENV}, else {@code eng}), each page within {@link Builder#ocrTimeout} (default
 * one minute; the process is killed after it). Its lines are marked as OCR: their section ends in
 * {@value #OCR_MARK} ({@code scan.pdf p. 3}, section {@code Safety (OCR)}), and the metadata keys
 * {@value #OCR_PAGES} and {@code ocr_language} list the recognised pages and the language. A PDF that mixes text
 * pages and scanned pages gets both. Without Tesseract a scan is skipped as {@link SkipReason#NO_TEXT_LAYER} with
 * the hint to install it.
 *
 * <p>Encrypted PDFs open when their user password is empty (the common "no copy" protection); others are skipped
 * ({@link SkipReason#ENCRYPTED}). A PDF with no text on any page after OCR is skipped
 * ({@link SkipReason#NO_TEXT_LAYER}); pages without text in an otherwise textual PDF give no lines and are listed in
 * the metadata key {@value #PAGES_WITHOUT_TEXT}. The extracted text counts against the source's character limit page
 * by page. Up to 200 MiB per file. A page's running header or footer ({@link RunningLines}: a page number alone, a line
 * that heads or ends many pages, such as {@code Chapter 4: Function reference 10}) reads as a blank line, so it is
 * never glued to the page's first sentence and line numbers stay those of the page. The {@link DocumentParser} with
 * id {@code pdf}; immutable and thread-safe.
 */
public final class PdfDocumentParser implements DocumentParser {
    /** The metadata key listing the pages that have no text layer (comma-separated). */
    public static final String PAGES_WITHOUT_TEXT = "pages_without_text";
    /** The metadata key listing the pages whose text came from OCR (comma-separated). */
    public static final String OCR_PAGES = "ocr_pages";
    /** What the section of a line recognised by OCR ends with. */
    public static final String OCR_MARK = "(OCR)";
    /** The system property naming the OCR language(s), e.g. {@code deu+eng}. */
    public static final String OCR_LANG_PROPERTY = "ragkit.ocr.lang";
    /** The environment variable naming the OCR language(s) when the system property is not set. */
    public static final String OCR_LANG_ENV = "RAGKIT_OCR_LANG";
    /** The resolution scanned pages are rendered at for OCR. */
    static final int OCR_DPI = 300;
    /** The most pixels a page is rendered to for OCR (a poster-sized page is rendered at a lower resolution). */
    private static final double MAX_OCR_PIXELS = 60_000_000d;
    private static final Pattern LANGUAGE = Pattern.compile("[A-Za-z_]+(\\+[A-Za-z_]+)*");
    private static final int MAX_TITLE = 120;
    private static final int IN_MEMORY_BYTES = 16 * 1024 * 1024;
    private static final int MAX_OUTLINE_ITEMS = 10_000;

    private final TesseractOcr ocr;

    /** Creates the parser with the default settings: OCR when tesseract is installed, in the default language. */
    public PdfDocumentParser() {
        this(builder());
    }

    private PdfDocumentParser(Builder builder) {
        this.ocr = new TesseractOcr(builder.ocr ? TesseractOcr.onPath() : null, builder.ocrLanguage,
                builder.ocrTimeout);
    }

    /** @return a builder with the default settings */
    public static Builder builder() {
        return new Builder();
    }

    /** @return whether scanned pages will be recognised (OCR is on and tesseract was found) */
    public boolean ocrAvailable() {
        return ocr.available();
    }

    /** Settings of a {@link PdfDocumentParser}; not thread-safe. */
    public static final class Builder {
        private boolean ocr = true;
        private String ocrLanguage = defaultLanguage();
        private Duration ocrTimeout = Duration.ofMinutes(1);

        private Builder() {
        }

        private static String defaultLanguage() {
            String property = System.getProperty(OCR_LANG_PROPERTY);
            String env = System.getenv(OCR_LANG_ENV);
            String language = property != null && !property.isBlank() ? property : env;
            return language != null && LANGUAGE.matcher(language.strip()).matches() ? language.strip() : "eng";
        }

        /** @param enabled whether to recognise scanned pages when tesseract is installed (default true) @return this builder */
        public Builder ocr(boolean enabled) {
            this.ocr = enabled;
            return this;
        }

        /**
         * @param language tesseract's language code(s), e.g. {@code eng}, {@code deu} or {@code deu+eng} (the
         *                 {@code tesseract-ocr-<code>} package must be installed)
         * @return this builder
         * @throws IllegalArgumentException when it is not a language code list
         */
        public Builder ocrLanguage(String language) {
            Objects.requireNonNull(language, "language");
            if (!LANGUAGE.matcher(language).matches()) {
                throw new IllegalArgumentException("OCR language must be tesseract language codes joined by '+', "
                        + "e.g. eng or deu+eng, got '" + language + "'");
            }
            this.ocrLanguage = language;
            return this;
        }

        /**
         * @param timeout the longest OCR of one page may take before its process is killed (default one minute)
         * @return this builder
         * @throws IllegalArgumentException when not positive
         */
        public Builder ocrTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("OCR timeout must be positive, got " + timeout);
            }
            this.ocrTimeout = timeout;
            return this;
        }

        /** @return the parser */
        public PdfDocumentParser build() {
            return new PdfDocumentParser(this);
        }
    }

    @Override
    public String id() {
        return "pdf";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("pdf");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.PDF);
    }

    @Override
    public long maxBytes() {
        return 200L * 1024 * 1024;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        String path = source.path();
        // A large PDF keeps its decoded streams in temporary files, not on the heap, so it cannot take the indexing
        // JVM with it; a small one (the file is in memory already) stays in memory, which is faster.
        try (PDDocument pdf = Loader.loadPDF(source.bytes(), "", null, null,
                source.bytes().length > IN_MEMORY_BYTES ? IOUtils.createTempFileOnlyStreamCache()
                        : IOUtils.createMemoryOnlyStreamCache())) {
            return read(source, pdf);
        } catch (InvalidPasswordException e) {
            throw new DocumentSkippedException(path, SkipReason.ENCRYPTED, "it needs a password to open; save an "
                    + "unprotected copy to index it", e);
        } catch (IOException e) {
            throw new IngestException(path, 0, "not a readable PDF (" + ParserMessages.reason(e) + "); it may be truncated or "
                    + "damaged: open it in a PDF reader and save it again", e);
        } catch (IngestException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IngestException(path, 0, "the PDF could not be read (" + ParserMessages.reason(e) + "); it may be "
                    + "damaged: open it in a PDF reader and save it again", e);
        }
    }

    private ParsedDocument read(DocumentSource source, PDDocument pdf) throws IOException {
        int pageCount = pdf.getNumberOfPages();
        Map<Integer, String> sectionStarts = outline(pdf);
        PDFTextStripper stripper = new PDFTextStripper();
        stripper.setLineSeparator("\n");
        List<String> lines = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        List<@Nullable String> sections = new ArrayList<>();
        List<Integer> empty = new ArrayList<>();
        List<Integer> recognised = new ArrayList<>();
        List<Integer> scanned = new ArrayList<>();
        List<Integer> unrecognised = new ArrayList<>();
        String section = null;
        long chars = 0;
        for (int page = 1; page <= pageCount; page++) {
            if (Thread.currentThread().isInterrupted()) {
                throw new IngestException(source.path(), 0, "interrupted at page " + page, null);
            }
            stripper.setStartPage(page);
            stripper.setEndPage(page);
            String text = stripper.getText(pdf);
            chars += text.length();
            source.requireWithinLimit(chars);
            section = sectionStarts.getOrDefault(page, section);
            String pageSection = section;
            List<String> pageLines = trimmed(text);
            if (pageLines.stream().allMatch(String::isBlank) && hasImage(pdf.getPage(page - 1))) {
                if (ocr.available()) {
                    pageLines = trimmed(recognise(pdf, page, source.path()));
                    chars += pageLines.stream().mapToLong(line -> line.length() + 1).sum();
                    source.requireWithinLimit(chars);
                    pageSection = section == null ? OCR_MARK : section + " " + OCR_MARK;
                    if (pageLines.stream().anyMatch(line -> !line.isBlank())) {
                        recognised.add(page);
                    } else {
                        unrecognised.add(page);
                    }
                } else {
                    scanned.add(page);
                }
            }
            if (pageLines.stream().allMatch(String::isBlank)) {
                empty.add(page);
                continue;
            }
            for (String line : pageLines) {
                lines.add(line);
                pages.add(page);
                sections.add(pageSection);
            }
        }
        PDDocumentInformation info = pdf.getDocumentInformation();
        String title = title(info, lines, source.path());         // a running header is often the title
        RunningLines.blank(lines, pages);
        if (lines.isEmpty()) {
            throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, pageCount == 0
                    ? "the PDF has no pages" : "none of its " + pageCount + " pages has text to extract (a scan?); "
                    + (!scanned.isEmpty() ? TesseractOcr.INSTALL_HINT + ", or run OCR on it first, to index it"
                    : ocr.available() ? "OCR (tesseract, language " + ocr.language() + ") found no text either"
                    : "run OCR on it first to index it"), null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("pages", Integer.toString(pageCount));
        if (!empty.isEmpty()) {
            metadata.put(PAGES_WITHOUT_TEXT, join(empty));
        }
        if (!recognised.isEmpty()) {
            metadata.put(OCR_PAGES, join(recognised));
            metadata.put("ocr_language", ocr.language());
        }
        if (info.getAuthor() != null && !info.getAuthor().isBlank()) {
            metadata.put("author", info.getAuthor().strip());
        }
        ParsedDocument.Builder builder = ParsedDocument.builder(source.path()).title(title).docType("pdf")
                .metadata(metadata).lines(lines).pages(pages).sections(sections);
        if (!recognised.isEmpty()) {
            builder.warning(pagesNamed(recognised) + " read by OCR (tesseract, language " + ocr.language()
                    + "): the text is recognised, not extracted, and may hold errors");
        }
        if (!unrecognised.isEmpty()) {
            builder.warning(pagesNamed(unrecognised) + " scanned, and OCR found no text on " + (unrecognised.size() == 1
                    ? "it" : "them") + ": not indexed");
        }
        if (!scanned.isEmpty()) {
            builder.warning(pagesNamed(scanned) + " scanned (no text layer) and not read: " + TesseractOcr.INSTALL_HINT);
        }
        return builder.build();
    }

    private static List<String> trimmed(String text) {
        List<String> lines = DocumentSource.lines(text);
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    /** @return {@code page 3} or {@code pages 2, 5} */
    private static String pagesNamed(List<Integer> pages) {
        return (pages.size() == 1 ? "page " : "pages ") + join(pages);
    }

    private static String join(List<Integer> pages) {
        StringBuilder list = new StringBuilder();
        pages.forEach(p -> list.append(list.length() == 0 ? "" : ", ").append(p));
        return list.toString();
    }

    /** Whether the page draws an image (directly or in a form it draws): a scan, as opposed to an empty page. */
    private static boolean hasImage(PDPage page) throws IOException {
        PDResources resources = page.getResources();
        if (resources == null) {
            return false;
        }
        for (COSName name : resources.getXObjectNames()) {
            PDXObject object = resources.getXObject(name);
            if (object instanceof PDImageXObject) {
                return true;
            }
            if (object instanceof PDFormXObject && ((PDFormXObject) object).getResources() != null) {
                for (COSName inner : ((PDFormXObject) object).getResources().getXObjectNames()) {
                    if (((PDFormXObject) object).getResources().isImageXObject(inner)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Renders the page (at {@value #OCR_DPI} dpi, less for a huge page) and recognises its text. */
    private String recognise(PDDocument pdf, int page, String path) throws IOException {
        PDRectangle box = pdf.getPage(page - 1).getCropBox();
        double squareInches = Math.max(1, box.getWidth() / 72d * box.getHeight() / 72d);
        float dpi = (float) Math.min(OCR_DPI, Math.sqrt(MAX_OCR_PIXELS / squareInches));
        BufferedImage image = new PDFRenderer(pdf).renderImageWithDPI(page - 1, dpi, ImageType.GRAY);
        return ocr.recognise(image, path, page);
    }

    /** The page where each bookmark starts, mapped to its title path ({@code Part I > Leave}). */
    private static Map<Integer, String> outline(PDDocument pdf) throws IOException {
        Map<Integer, String> starts = new HashMap<>();
        PDDocumentOutline outline = pdf.getDocumentCatalog().getDocumentOutline();
        if (outline == null) {
            return starts;
        }
        int[] budget = {MAX_OUTLINE_ITEMS};
        walk(pdf, outline.getFirstChild(), "", starts, budget, 0);
        return starts;
    }

    private static void walk(PDDocument pdf, @Nullable PDOutlineItem item, String parent, Map<Integer, String> starts,
            int[] budget, int depth) throws IOException {
        for (PDOutlineItem current = item; current != null && budget[0]-- > 0 && depth < 16;
                current = current.getNextSibling()) {
            String title = current.getTitle() == null ? "" : current.getTitle().strip().replaceAll("\\s+", " ");
            String path = title.isEmpty() ? parent : parent.isEmpty() ? title : parent + " > " + title;
            PDPage page;
            try {
                page = current.findDestinationPage(pdf);
            } catch (IOException | RuntimeException e) {
                page = null;                           // a broken bookmark: its pages keep the section before
            }
            if (page != null && !path.isEmpty()) {
                int number = pdf.getPages().indexOf(page) + 1;
                if (number > 0) {
                    starts.merge(number, path, (first, later) -> later.length() > first.length() ? later : first);
                }
            }
            walk(pdf, current.getFirstChild(), path, starts, budget, depth + 1);
        }
    }

    private static String title(PDDocumentInformation info, List<String> lines, String path) {
        String title = info.getTitle();
        if (title != null && !title.isBlank() && title.strip().length() <= MAX_TITLE) {
            return title.strip();
        }
        for (String line : lines) {
            String stripped = line.strip();
            if (!stripped.isEmpty()) {
                return stripped.length() <= MAX_TITLE ? stripped : DocumentPaths.baseName(path);
            }
        }
        return DocumentPaths.baseName(path);
    }
}
