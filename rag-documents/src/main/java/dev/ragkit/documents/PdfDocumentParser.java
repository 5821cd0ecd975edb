package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.ingest.ContentSniffer;
import dev.ragkit.ingest.DocumentParser;
import dev.ragkit.ingest.DocumentPaths;
import dev.ragkit.ingest.DocumentSkippedException;
import dev.ragkit.ingest.DocumentSource;
import dev.ragkit.ingest.ParsedDocument;
import dev.ragkit.ingest.SkipReason;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.IOUtils;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDDocumentOutline;
import org.apache.pdfbox.pdmodel.interactive.documentnavigation.outline.PDOutlineItem;
import org.apache.pdfbox.text.PDFTextStripper;
import org.jspecify.annotations.Nullable;

/**
 * PDF documents, on Apache PDFBox 3: the text of each page in the order the page draws it, pages numbered from 1
 * and every line tagged with its page — so chunks never span a page and their line numbers count within it
 * ({@code handbook.pdf p. 12, lines 4–9} can be checked against page 12). The outline (bookmarks) gives the
 * sections, each page belonging to the last bookmark that starts on or before it; the title is the document
 * information's title, else the first short line of the first page with text, else the file name.
 *
 * <p>Encrypted PDFs open when their user password is empty (the common "no copy" protection); others are skipped
 * ({@link SkipReason#ENCRYPTED}). A PDF with no text on any page (a scan) is skipped ({@link SkipReason#NO_TEXT_LAYER}:
 * RagKit runs no OCR); pages without text in an otherwise textual PDF give no lines and are listed in the metadata
 * key {@value #PAGES_WITHOUT_TEXT}. The extracted text counts against the source's character limit page by page.
 * Up to 200 MiB per file. The {@link DocumentParser} with id {@code pdf}; stateless and thread-safe.
 */
public final class PdfDocumentParser implements DocumentParser {
    /** The metadata key listing the pages that have no text layer (comma-separated). */
    public static final String PAGES_WITHOUT_TEXT = "pages_without_text";
    private static final int MAX_TITLE = 120;
    private static final int IN_MEMORY_BYTES = 16 * 1024 * 1024;
    private static final int MAX_OUTLINE_ITEMS = 10_000;

    /** Creates the parser. */
    public PdfDocumentParser() {
        // nothing to configure
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
            List<String> pageLines = DocumentSource.lines(text);
            while (!pageLines.isEmpty() && pageLines.get(pageLines.size() - 1).isBlank()) {
                pageLines.remove(pageLines.size() - 1);
            }
            if (pageLines.stream().allMatch(String::isBlank)) {
                empty.add(page);
                continue;
            }
            for (String line : pageLines) {
                lines.add(line);
                pages.add(page);
                sections.add(section);
            }
        }
        if (lines.isEmpty()) {
            throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, pageCount == 0
                    ? "the PDF has no pages" : "none of its " + pageCount + " pages has text to extract (a scan?); "
                    + "run OCR on it first to index it", null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("pages", Integer.toString(pageCount));
        if (!empty.isEmpty()) {
            StringBuilder list = new StringBuilder();
            empty.forEach(p -> list.append(list.length() == 0 ? "" : ", ").append(p));
            metadata.put(PAGES_WITHOUT_TEXT, list.toString());
        }
        PDDocumentInformation info = pdf.getDocumentInformation();
        if (info.getAuthor() != null && !info.getAuthor().isBlank()) {
            metadata.put("author", info.getAuthor().strip());
        }
        return ParsedDocument.builder(source.path()).title(title(info, lines, source.path())).docType("pdf")
                .metadata(metadata).lines(lines).pages(pages).sections(sections).build();
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
