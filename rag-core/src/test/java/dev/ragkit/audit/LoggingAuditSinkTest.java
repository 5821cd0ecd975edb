package dev.ragkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

final class LoggingAuditSinkTest {

    /** Keeps the formatted messages of every enabled call. */
    private static final class RecordingLogger extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;

        final List<Level> levels = Collections.synchronizedList(new ArrayList<>());
        final List<String> messages = Collections.synchronizedList(new ArrayList<>());
        private final boolean infoEnabled;

        RecordingLogger(boolean infoEnabled) {
            this.name = LoggingAuditSink.LOGGER_NAME;
            this.infoEnabled = infoEnabled;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern,
                Object[] arguments, Throwable throwable) {
            levels.add(level);
            messages.add(MessageFormatter.basicArrayFormat(messagePattern, arguments));
        }

        @Override
        public boolean isTraceEnabled() {
            return infoEnabled;
        }

        @Override
        public boolean isDebugEnabled() {
            return infoEnabled;
        }

        @Override
        public boolean isInfoEnabled() {
            return infoEnabled;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }

    @Test
    void record_infoEnabled_logsTheSharedJsonLineAtInfo() {
        RecordingLogger logger = new RecordingLogger(true);
        AuditRecord record = AuditRecords.answered("req-1", "a {} brace and a \"quote\"");

        new LoggingAuditSink(logger).record(record);

        assertThat(logger.levels).containsExactly(Level.INFO);
        assertThat(logger.messages).containsExactly(AuditJson.toJsonLine(record));
        assertThat(logger.messages.get(0)).contains("\"requestId\":\"req-1\"").doesNotContain("\n");
    }

    @Test
    void record_infoDisabled_logsNothing() {
        RecordingLogger logger = new RecordingLogger(false);

        new LoggingAuditSink(logger).record(AuditRecords.answered("req-1", "q"));

        assertThat(logger.messages).isEmpty();
    }

    @Test
    void record_afterClose_throwsIllegalStateException() {
        RecordingLogger logger = new RecordingLogger(true);
        LoggingAuditSink sink = new LoggingAuditSink(logger);
        sink.close();

        assertThatThrownBy(() -> sink.record(AuditRecords.answered("req-1", "q")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(logger.messages).isEmpty();
    }

    @Test
    void logging_factory_usesTheDevRagkitAuditLogger() {
        AuditSink sink = AuditSink.logging();

        assertThat(sink).isInstanceOf(LoggingAuditSink.class);
        assertThat(LoggingAuditSink.LOGGER_NAME).isEqualTo("dev.ragkit.audit");
        assertThat(sink).hasToString("LoggingAuditSink[dev.ragkit.audit]");
    }
}
