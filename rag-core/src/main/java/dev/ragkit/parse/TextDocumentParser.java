package dev.ragkit.parse;

import dev.ragkit.internal.CodeLanguages;
import dev.ragkit.internal.Underlines;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Plain text as it is ({@code .txt}, {@code .text}, {@code .log}, {@code .csv}, {@code .tsv}, and files without an
 * extension whose bytes are text): lines unchanged, never read as markdown (a {@code # comment} line is text, not a
 * heading), no links. Its sections are the titles plain text underlines, as READMEs and FAQs write them: a line of
 * text after a blank line (or first in the file) over a line of {@code =}, {@code -} or {@code ~} at least three
 * long and at least half as long as the title. The first underline character met makes the top level, the next a
 * level under it, and so on, so that {@code Questions} / {@code ====} then {@code Why?} / {@code ----} gives the
 * section {@code Questions > Why?}; nothing else is a title. The title is the first line that says something when it
 * is short (at most 100 characters), else the file name: an editor's mode line ({@code -*- text -*-}, {@code vim: set
 * tw=72:}) or a line of punctuation only (a title's {@code ====} underline, a rule) is passed over. The {@link
 * DocumentParser} with id {@code text}. Stateless and thread-safe.
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
        return CodeLanguages.plainTextExtensions();
    }

    @Override
    public Set<ContentSniffer.Kind> kinds() {
        return Set.of(ContentSniffer.Kind.TEXT);
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        List<String> lines = DocumentSource.lines(source.text());
        ParsedDocument.Builder b = ParsedDocument.builder(source.path()).lines(lines).sections(sections(lines));
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

    /** The section of each line: the path of the underlined titles above it, {@code null} before the first. */
    private static List<@Nullable String> sections(List<String> lines) {
        List<@Nullable String> sections = new ArrayList<>(lines.size());
        List<Character> levels = new ArrayList<>();        // the underline character of each level, top first
        List<String> path = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            char underline = underlineOf(lines, i);
            if (underline != 0) {
                int level = levels.indexOf(underline);
                if (level < 0) {
                    level = levels.size();
                    levels.add(underline);
                }
                while (path.size() > level) {
                    path.remove(path.size() - 1);
                }
                path.add(lines.get(i).strip());
            }
            sections.add(path.isEmpty() ? null : String.join(" > ", path));
        }
        return sections;
    }

    /** The character underlining line {@code i} when it is a title after a blank line or none, else 0. */
    private static char underlineOf(List<String> lines, int i) {
        boolean alone = i == 0 || lines.get(i - 1).isBlank() || NO_TITLE.matcher(lines.get(i - 1).strip()).matches();
        return alone && i + 1 < lines.size() && !NO_TITLE.matcher(lines.get(i).strip()).matches()
                ? Underlines.of(lines.get(i), lines.get(i + 1)) : 0;
    }
}
