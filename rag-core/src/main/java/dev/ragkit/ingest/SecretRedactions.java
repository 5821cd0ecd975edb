package dev.ragkit.ingest;

import java.util.List;
import java.util.Objects;

/**
 * The secrets redacted in one document before it was chunked and embedded: on which lines, and of which kinds. It
 * never holds a secret, only where and what kind it was, so it may be logged, reported and audited.
 *
 * @param lines the 1-based lines of the file whose secrets were replaced, ascending (immutable)
 * @param kinds the kinds found, e.g. {@code github-token} or {@code password}, sorted, without duplicates
 *              (immutable)
 */
public record SecretRedactions(List<Integer> lines, List<String> kinds) {
    /** Nothing redacted. */
    public static final SecretRedactions NONE = new SecretRedactions(List.of(), List.of());

    /** Copies the lists. */
    public SecretRedactions {
        lines = List.copyOf(Objects.requireNonNull(lines, "lines"));
        kinds = List.copyOf(Objects.requireNonNull(kinds, "kinds"));
    }

    /** @return how many lines were redacted */
    public int count() {
        return lines.size();
    }

    /** @return whether nothing was redacted */
    public boolean isEmpty() {
        return lines.isEmpty();
    }
}
