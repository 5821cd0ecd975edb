package dev.ragkit.parse;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Plain text as it is ({@code .txt}, {@code .text}, {@code .log}, {@code .csv}, {@code .tsv}, and files without an
 * extension whose bytes are text): lines unchanged, never read as markdown (a {@code # comment} line is text, not a
 * heading), no sections, no links. The title is the first line that says something when it is short (at most 100
 * characters), else the file name: an editor's mode line ({@code -*- text -*-}, {@code vim: set tw=72:}) or a line of
 * punctuation only (a title's {@code ====} underline, a rule) is passed over. The {@link DocumentParser} with id
 * {@code text}. Stateless and thread-safe.
 */
public final class TextDocumentParser implements DocumentParser {
    private static final int MAX_TITLE = 100;
    /** A line that is no title: an Emacs or vim mode line, or punctuation only. */
    private static final Pattern NO_TITLE = Pattern.compile("-\\*-.*-\\*-|(?:vim?|ex):.*|[\\p{Punct}\\s]+");

    /** Creates the parser. */
    public TextDocumentParser() {
        // nothing to configure
    }

    @Override
    public String id() {
        return "text";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("txt", "text", "log", "csv", "tsv", "");
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.TEXT);
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        List<String> lines = DocumentSource.lines(source.text());
        ParsedDocument.Builder b = ParsedDocument.builder(source.path()).lines(lines);
        for (String line : lines) {
            String t = line.strip();
            if (!t.isEmpty() && !NO_TITLE.matcher(t).matches()) {
                if (t.length() <= MAX_TITLE) {
                    b.title(t);
                }
                break;
            }
        }
        return b.build();
    }
}
