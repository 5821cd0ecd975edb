package dev.ragkit.parse;

import java.util.Set;

/**
 * Turns one document's bytes into a {@link ParsedDocument}: its text lines, title, metadata, the section of each
 * line, its local links and, for formats with pages, the page of each line. A plugin contract: implementations are
 * thread-safe and stateless, have a public no-argument constructor, and are found through
 * {@link java.util.ServiceLoader} (list them in {@code META-INF/services/dev.ragkit.parse.DocumentParser}) by
 * {@link DocumentParsers}. RagKit's own: {@code markdown}, {@code text} and {@code code} in {@code rag-core};
 * {@code pdf}, {@code docx}, {@code html}, {@code email} and {@code epub} in {@code rag-documents}.
 *
 * <pre>{@code
 * public final class AsciiDocParser implements DocumentParser {
 *     public String id() { return "asciidoc"; }
 *     public Set<String> extensions() { return Set.of("adoc", "asciidoc"); }
 *     public ParsedDocument parse(DocumentSource source) {
 *         List<String> lines = DocumentSource.lines(source.text());
 *         return ParsedDocument.builder(source.path()).lines(lines).build();   // add sections, links, a title
 *     }
 * }
 * }</pre>
 *
 * <p>Failures are {@link dev.ragkit.error.IngestException}s naming the path (and the line where known): the indexer
 * reports that file as failed and goes on. A document the parser refuses on purpose — encrypted, without a text
 * layer, a format it does not support — throws {@link DocumentSkippedException} with the reason instead, and is
 * reported as skipped. Parsers check {@link DocumentSource#requireWithinLimit} as they extract text.
 */
public interface DocumentParser {

    /** @return a short, unique, lower-case id, e.g. {@code pdf} */
    String id();

    /** @return the file name extensions this parser reads, lower case without the dot, e.g. {@code pdf} */
    Set<String> extensions();

    /**
     * The kinds of content this parser reads, as {@link ContentSniffer} names them from a file's first bytes; a
     * file whose bytes say another kind than its extension goes to the parser of that kind.
     *
     * @return the kinds, e.g. {@link ContentSniffer.Kind#PDF}; empty by default (the extension decides)
     */
    default Set<ContentSniffer.Kind> kinds() {
        return Set.of();
    }

    /**
     * @return the largest file this parser is given by default, in bytes (a 200-page PDF is legitimate; a 200 MB
     *         markdown file is not); 10 MiB unless the parser says otherwise
     */
    default long maxBytes() {
        return 10L * 1024 * 1024;
    }

    /**
     * Parses one document.
     *
     * @param source its path and bytes
     * @return the parsed document, whose {@code path} is {@code source.path()}
     * @throws DocumentSkippedException   when the document is refused on purpose (with the reason)
     * @throws dev.ragkit.error.IngestException when it cannot be parsed
     */
    ParsedDocument parse(DocumentSource source);
}
