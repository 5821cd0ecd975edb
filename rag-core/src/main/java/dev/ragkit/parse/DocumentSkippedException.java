package dev.ragkit.parse;

import dev.ragkit.error.IngestException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A document left out on purpose, with the reason — encrypted, without a text layer, a format that is not
 * supported, secrets in its text. The indexer reports it as skipped, not failed, and goes on.
 */
public class DocumentSkippedException extends IngestException {
    private static final long serialVersionUID = 1L;

    private final SkipReason reason;
    private final String detail;

    /**
     * @param path   the document's path
     * @param reason why it is left out
     * @param detail what exactly, for people (the fix where there is one)
     * @param cause  the underlying failure, or {@code null}
     */
    public DocumentSkippedException(String path, SkipReason reason, String detail, @Nullable Throwable cause) {
        super(path, 0, Objects.requireNonNull(reason, "reason").description() + ": "
                + Objects.requireNonNull(detail, "detail"), cause);
        this.reason = reason;
        this.detail = detail;
    }

    /** @return why the document is left out */
    public SkipReason reason() {
        return reason;
    }

    /** @return what exactly */
    public String detail() {
        return detail;
    }
}
