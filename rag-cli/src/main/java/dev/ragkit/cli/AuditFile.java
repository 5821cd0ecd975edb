package dev.ragkit.cli;

import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.error.AuditException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The CLI's audit trail: {@code audit.jsonl} beside the index. A file that cannot be opened or written (a read-only
 * folder, a full disk) does not stop an answer: each record fails, the pipeline flags the answer
 * ({@code AUDIT_NOT_WRITTEN}) under its {@code LOG_AND_CONTINUE} policy, and the command says why, from here.
 */
final class AuditFile implements AutoCloseable {
    private final AuditSink sink;
    private final AuditSink closer;
    private volatile String lastFailure = "";
    private volatile Consumer<String> onFailure = why -> { };

    private AuditFile(AuditSink delegate) {
        this.sink = record -> {
            try {
                delegate.record(record);
            } catch (RuntimeException e) {
                lastFailure = String.valueOf(e.getMessage());
                onFailure.accept(lastFailure);
                throw e;
            }
        };
        this.closer = delegate;
    }

    /** Opens the file, or a sink whose every record fails with the reason the file could not be opened. */
    static AuditFile open(Path file) {
        try {
            return new AuditFile(AuditSink.jsonLines(file));
        } catch (AuditException e) {
            String why = String.valueOf(e.getMessage());
            return new AuditFile(new AuditSink() {
                @Override
                public void record(AuditRecord record) {
                    throw new AuditException(why);
                }
            });
        }
    }

    AuditSink sink() {
        return sink;
    }

    /**
     * @param action told why, each time a record cannot be written (for a long-running command such as {@code mcp},
     *               which has no one answer to flag)
     */
    void onFailure(Consumer<String> action) {
        this.onFailure = action;
    }

    /** @return why the last record could not be written, or an empty text */
    String lastFailure() {
        return lastFailure;
    }

    @Override
    public void close() {
        closer.close();
    }
}
