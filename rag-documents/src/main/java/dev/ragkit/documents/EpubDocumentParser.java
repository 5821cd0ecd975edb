package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.jspecify.annotations.Nullable;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * EPUB e-books (EPUB 2 and 3): {@code META-INF/container.xml} names the package document, whose spine lists the
 * chapters in reading order; each chapter's XHTML is read by the {@link HtmlDocumentParser} (so its headings open
 * sections, {@code book.epub > Arrival}), and a chapter's text before its first heading stands under the chapter's
 * title. The title is the package's {@code dc:title}; {@code dc:creator} and {@code dc:language} become the
 * metadata keys {@code author} and {@code language}.
 *
 * <p>Hostile books are refused with the reason: a zip that expands more than {@value #MAX_RATIO} times its packed
 * size or beyond {@value #MAX_EXPANDED_BYTES} bytes, or holds more than {@value #MAX_ENTRIES} entries (a zip bomb),
 * and a container or package document that declares a DTD (the way to entity-expansion and external-entity attacks:
 * the XML parser reads no DTD and resolves no external entity). DRM-protected books ({@code META-INF/encryption.xml}
 * listing the chapters) are skipped as {@link SkipReason#ENCRYPTED}. The extracted text counts against the source's
 * character limit. Up to 100 MiB per file. The {@link DocumentParser} with id {@code epub}; stateless and
 * thread-safe.
 */
public final class EpubDocumentParser implements DocumentParser {
    /** The most a book may expand, as a multiple of its packed size. */
    static final int MAX_RATIO = 100;
    /** The most a book may expand to, in bytes. */
    static final long MAX_EXPANDED_BYTES = 500L * 1024 * 1024;
    /** The most entries a book may hold. */
    static final int MAX_ENTRIES = 10_000;
    private static final int MAX_TITLE = 200;

    /** Creates the parser. */
    public EpubDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "epub";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("epub");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.EPUB);
    }

    @Override
    public long maxBytes() {
        return ParserMessages.MAX_BYTES;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        String path = source.path();
        try {
            return read(source, entries(source));
        } catch (IngestException e) {
            throw e;
        } catch (SAXException e) {
            throw new IngestException(path, 0, String.valueOf(e.getMessage()).contains("DOCTYPE")
                    ? "its package XML declares a DTD, which RagKit does not read (entity expansion and external "
                    + "entities are a way to attack a reader); save the book again with an EPUB editor to index it"
                    : "not a readable EPUB: its package XML is broken (" + ParserMessages.reason(e) + "); save the "
                    + "book again with an EPUB editor", e);
        } catch (IOException | ParserConfigurationException | RuntimeException e) {
            throw new IngestException(path, 0, "not a readable EPUB (" + ParserMessages.reason(e) + "); it may be "
                    + "truncated or damaged: save the book again with an EPUB editor", e);
        }
    }

    /** The entries of the zip, expanded under the zip-bomb limits. */
    private static Map<String, byte[]> entries(DocumentSource source) throws IOException {
        long limit = Math.min(MAX_EXPANDED_BYTES, Math.max(1024L * 1024, (long) MAX_RATIO * source.bytes().length));
        Map<String, byte[]> entries = new HashMap<>();
        long expanded = 0;
        byte[] buffer = new byte[16384];
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(source.bytes()))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                if (entries.size() >= MAX_ENTRIES) {
                    throw bomb(source.path(), String.format(Locale.ROOT, "it holds more than %,d entries",
                            MAX_ENTRIES));
                }
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                for (int n; (n = zip.read(buffer)) > 0; ) {
                    expanded += n;
                    if (expanded > limit) {
                        throw bomb(source.path(), String.format(Locale.ROOT, "it expands to more than %,d bytes "
                                + "(%,d times its packed size, at most %,d bytes)", limit, MAX_RATIO,
                                MAX_EXPANDED_BYTES));
                    }
                    out.write(buffer, 0, n);
                }
                if (!entry.isDirectory()) {
                    entries.put(entry.getName(), out.toByteArray());
                }
            }
        }
        if (entries.isEmpty()) {
            throw new IngestException(source.path(), 0, "not a readable EPUB: the zip holds no entries", null);
        }
        return entries;
    }

    private static IngestException bomb(String path, String what) {
        return new IngestException(path, 0, "the file looks like a zip bomb: " + what + " (the limit); if the book "
                + "is genuine, save it as PDF to index it", null);
    }

    private ParsedDocument read(DocumentSource source, Map<String, byte[]> entries)
            throws IOException, SAXException, ParserConfigurationException {
        String path = source.path();
        byte[] container = entries.get("META-INF/container.xml");
        if (container == null) {
            throw new IngestException(path, 0, "not a readable EPUB: it has no META-INF/container.xml; save the book "
                    + "again with an EPUB editor", null);
        }
        Element rootfile = first(xml(container).getDocumentElement(), "rootfile");
        String opfPath = rootfile == null ? "" : rootfile.getAttribute("full-path");
        byte[] opfBytes = entries.get(opfPath);
        if (opfBytes == null) {
            throw new IngestException(path, 0, "not a readable EPUB: its package document '" + opfPath + "' is "
                    + "missing; save the book again with an EPUB editor", null);
        }
        if (entries.containsKey("META-INF/encryption.xml")
                && new String(entries.get("META-INF/encryption.xml"), StandardCharsets.UTF_8).contains("CipherData")) {
            throw new DocumentSkippedException(path, SkipReason.ENCRYPTED, "the book is DRM-protected (its chapters "
                    + "are encrypted); index a copy without DRM", null);
        }
        Element pkg = xml(opfBytes).getDocumentElement();
        String base = opfPath.contains("/") ? opfPath.substring(0, opfPath.lastIndexOf('/') + 1) : "";
        Map<String, String> manifest = new HashMap<>();
        NodeList items = pkg.getElementsByTagNameNS("*", "item");
        for (int i = 0; i < items.getLength(); i++) {
            Element item = (Element) items.item(i);
            manifest.put(item.getAttribute("id"), item.getAttribute("href"));
        }
        DocumentParts out = new DocumentParts(source);
        HtmlDocumentParser html = new HtmlDocumentParser();
        String firstChapter = null;
        NodeList spine = pkg.getElementsByTagNameNS("*", "itemref");
        for (int i = 0; i < spine.getLength(); i++) {
            String href = manifest.get(((Element) spine.item(i)).getAttribute("idref"));
            byte[] chapter = href == null ? null : entries.get(resolve(base, href));
            if (chapter == null) {
                continue;                                    // a spine entry without its file: nothing to read
            }
            long left = Math.max(1, source.maxChars() - out.chars());
            ParsedDocument page = html.parse(new DocumentSource(path + "/" + resolve(base, href), chapter, left));
            String title = page.title();
            firstChapter = firstChapter == null && page.lines().stream().anyMatch(l -> !l.isBlank()) ? title
                    : firstChapter;
            for (int line = 1; line <= page.lines().size(); line++) {
                String section = page.section(line);
                out.line(page.line(line), section == null ? title : section);
            }
            out.blank(title);
        }
        if (!out.hasText()) {
            throw new DocumentSkippedException(path, SkipReason.NO_TEXT_LAYER, "the book has no text in its chapters "
                    + "(only images?)", null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        String author = text(pkg, "creator");
        if (!author.isEmpty()) {
            metadata.put("author", author);
        }
        String language = text(pkg, "language");
        if (!language.isEmpty()) {
            metadata.put("language", language);
        }
        String title = text(pkg, "title");
        if (title.isEmpty() || title.length() > MAX_TITLE) {
            title = firstChapter != null && firstChapter.length() <= MAX_TITLE ? firstChapter
                    : DocumentPaths.baseName(path);
        }
        return out.into(ParsedDocument.builder(path).title(title).docType("epub").metadata(metadata)).build();
    }

    /** An href of the package, relative to its folder and percent-encoded, as a zip entry name. */
    private static String resolve(String base, String href) {
        String name = href;
        int hash = name.indexOf('#');
        if (hash >= 0) {
            name = name.substring(0, hash);
        }
        try {
            name = URLDecoder.decode(name.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // not percent-encoded after all: take it as written
        }
        String joined = base + name;
        Deque<String> parts = new ArrayDeque<>();
        for (String part : joined.split("/")) {
            if (part.equals("..")) {
                parts.pollLast();
            } else if (!part.isEmpty() && !part.equals(".")) {
                parts.addLast(part);
            }
        }
        return String.join("/", parts);
    }

    /** Parses XML without reading any DTD or external entity: a document that declares a DTD is refused. */
    private static Document xml(byte[] bytes) throws IOException, SAXException, ParserConfigurationException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setXIncludeAware(false);
        factory.setExpandEntityReferences(false);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(new DefaultHandler());     // no "[Fatal Error]" lines on stderr
        return builder.parse(new ByteArrayInputStream(bytes));
    }

    private static @Nullable Element first(Element root, String localName) {
        NodeList found = root.getElementsByTagNameNS("*", localName);
        return found.getLength() == 0 ? null : (Element) found.item(0);
    }

    private static String text(Element root, String localName) {
        Element element = first(root, localName);
        return element == null ? "" : SectionedLines.oneLine(element.getTextContent());
    }
}
