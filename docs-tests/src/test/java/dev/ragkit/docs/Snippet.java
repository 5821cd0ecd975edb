package dev.ragkit.docs;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One {@code ```java} block of a markdown page, with the marker written right before it (if any).
 *
 * @param file      the page, as reported in failures (e.g. {@code docs/getting-started.md})
 * @param fenceLine the 1-based line of the opening fence; the code starts on the next line
 * @param lines     the code lines, with the block's common indentation removed
 * @param marker    what the {@code <!-- snippet: ... -->} comment before the fence says
 */
record Snippet(String file, int fenceLine, List<String> lines, Marker marker) {

    Snippet {
        lines = List.copyOf(lines);
    }

    /**
     * @param index 0-based index into {@link #lines()}
     * @return the 1-based line of the page that holds that code line
     */
    int pageLine(int index) {
        return fenceLine + 1 + index;
    }

    /** @return {@code file:fenceLine}, how failures name this snippet */
    String where() {
        return file + ":" + fenceLine;
    }

    /**
     * How a snippet is compiled.
     */
    enum Kind {
        /** A whole source file ({@code package} or {@code import} lines, then types): compiled as it is. */
        UNIT,
        /** Type, method or field declarations: compiled inside a class that has the standard imports. */
        MEMBERS,
        /** Statements: compiled as the body of a method, inside a class that has the standard imports. */
        STATEMENTS
    }

    /**
     * What a {@code <!-- snippet: key=value ... -->} comment says; every field is optional.
     *
     * @param line       the comment's 1-based line, or 0 when there is none
     * @param id         a name for this snippet, unique in its page, that a later snippet may continue
     * @param continues  the id of an earlier snippet of the same page whose code runs before this one
     * @param given      declarations the snippet assumes (e.g. {@code DocumentStore store}): parameters of the
     *                   wrapping method, or fields of the wrapping class
     * @param kind       how to compile it, when the automatic choice is wrong
     * @param skipReason why this block is not compiled; {@code null} for a compiled block
     */
    record Marker(int line, @Nullable String id, @Nullable String continues, List<String> given,
                  @Nullable Kind kind, @Nullable String skipReason) {

        static final Marker NONE = new Marker(0, null, null, List.of(), null, null);

        Marker {
            given = List.copyOf(given);
        }
    }
}
