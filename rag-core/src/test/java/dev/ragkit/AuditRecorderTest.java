package dev.ragkit;

import static dev.ragkit.PipelineFixtures.KEYS;
import static dev.ragkit.PipelineFixtures.block;
import static dev.ragkit.PipelineFixtures.document;
import static dev.ragkit.PipelineFixtures.exchange;
import static dev.ragkit.PipelineFixtures.prompt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.audit.AuditFailurePolicy;
import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditSink;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.error.AuditException;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.Routing;
import dev.ragkit.prompt.Prompt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

final class AuditRecorderTest {
    private static final String QUESTION = "How often do API keys rotate?";
    private final List<AuditRecord> records = new ArrayList<>();
    private final AuditSink sink = records::add;

    private static final Asked ASKED = new Asked("llama3.2", null);

    private static Plan plan(Prompt p) {
        return Plan.grounded(ASKED, p, new ChatRequest("llama3.2", List.of(ChatMessage.user(QUESTION)), 0.1, 10, 100,
                null));
    }

    private static RagResponse cited(Exchange x, Prompt p) {
        return ResponseBuilder.of(x, ASKED).prompt(p).answer("ok")
                .confidence(new ConfidenceScore(88, 0.9, 0.9, 80, "x")).routing(new Routing(Action.CITE, null))
                .build();
    }

    @Test
    void answered_citedAnswer_writesOneAskRecordWithItsSourcesAndAHashedQuery() {
        Exchange x = exchange(QUESTION);
        Prompt p = prompt(QUESTION, List.of(block(document("docs/keys.md", "eng"), KEYS, 0.9)));

        RagResponse r = new AuditRecorder(new AuditTrail(sink, AuditFailurePolicy.LOG_AND_CONTINUE),
                QueryRedaction.HASH).answered(x, plan(p), cited(x, p));

        assertThat(r.flags()).doesNotContain(ResponseFlag.AUDIT_NOT_WRITTEN);
        assertThat(records).singleElement().satisfies(rec -> {
            assertThat(rec.operation()).isEqualTo(AuditOperation.ASK);
            assertThat(rec.outcome()).isEqualTo(AuditOutcome.ANSWERED);
            assertThat(rec.query()).isNull();
            assertThat(rec.querySha256()).isEqualTo(AuditRecord.sha256(QUESTION));
            assertThat(rec.sourceIds()).isEqualTo(p.sourceIds());
            assertThat(rec.confidence()).isEqualTo(88);
            assertThat(rec.action()).isEqualTo("CITE");
        });
    }

    @Test
    void answered_redactionNone_keepsTheQuestion() {
        Exchange x = exchange(QUESTION);

        new AuditRecorder(new AuditTrail(sink, AuditFailurePolicy.LOG_AND_CONTINUE), QueryRedaction.NONE)
                .answered(x, plan(prompt(QUESTION, List.of(block(document("a.md"), KEYS, 0.5)))), cited(x, prompt(QUESTION, List.of(block(document("a.md"), KEYS, 0.5)))));

        assertThat(records.get(0).query()).isEqualTo(QUESTION);
    }

    @Test
    void answered_failingSinkUnderLogAndContinue_answersAndSaysTheRecordIsMissing() {
        Exchange x = exchange(QUESTION);
        AuditSink broken = rec -> {
            throw new AuditException("No space left on device");
        };

        RagResponse r = new AuditRecorder(new AuditTrail(broken, AuditFailurePolicy.LOG_AND_CONTINUE),
                QueryRedaction.HASH).answered(x, plan(prompt(QUESTION, List.of(block(document("a.md"), KEYS,
                0.5)))), cited(x, prompt(QUESTION, List.of(block(document("a.md"), KEYS,
                0.5)))));

        assertThat(r.flags()).contains(ResponseFlag.AUDIT_NOT_WRITTEN);
        assertThat(r.answer()).isEqualTo("ok");
    }

    @Test
    void answered_failingSinkUnderFailRequest_failsTheRequestWithTheFix() {
        Exchange x = exchange(QUESTION);
        AuditSink broken = rec -> {
            throw new AuditException("No space left on device");
        };
        Prompt p = prompt(QUESTION, List.of(block(document("a.md"), KEYS, 0.5)));
        RagResponse response = cited(x, p);

        assertThatThrownBy(() -> new AuditRecorder(new AuditTrail(broken, AuditFailurePolicy.FAIL_REQUEST),
                QueryRedaction.HASH).answered(x, plan(p), response))
                .isInstanceOf(AuditException.class)
                .hasMessageContaining("No space left on device")
                .hasMessageContaining("LOG_AND_CONTINUE");
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void answered_jsonLinesFileOnAFullDisk_isFlagged() {
        // /dev/full accepts the open and fails every write with "No space left on device", like a full disk
        Exchange x = exchange(QUESTION);
        try (AuditSink full = AuditSink.jsonLines(Path.of("/dev/full"))) {
            RagResponse r = new AuditRecorder(new AuditTrail(full, AuditFailurePolicy.LOG_AND_CONTINUE),
                    QueryRedaction.HASH).answered(x, plan(prompt(QUESTION, List.of(block(document("a.md"), KEYS,
                    0.5)))), cited(x, prompt(QUESTION, List.of(block(document("a.md"), KEYS,
                    0.5)))));

            assertThat(r.flags()).contains(ResponseFlag.AUDIT_NOT_WRITTEN);
        }
        assertThat(Files.exists(Path.of("/dev/full"))).isTrue();
    }

    @Test
    void failed_error_writesAnErrorRecordNamingItsType() {
        Exchange x = exchange(QUESTION);

        new AuditRecorder(new AuditTrail(sink, AuditFailurePolicy.LOG_AND_CONTINUE), QueryRedaction.HASH)
                .failed(x, null, new LlmTimeoutException("slow"));

        assertThat(records).singleElement().satisfies(rec -> {
            assertThat(rec.outcome()).isEqualTo(AuditOutcome.ERROR);
            assertThat(rec.errorType()).isEqualTo(LlmTimeoutException.class.getName());
            assertThat(rec.sourceIds()).isEmpty();
        });
    }

    @Test
    void failed_cancellation_isRecordedAsCancelled() {
        new AuditRecorder(new AuditTrail(sink, AuditFailurePolicy.LOG_AND_CONTINUE), QueryRedaction.HASH)
                .failed(exchange(QUESTION), null, new CancellationException());

        assertThat(records.get(0).outcome()).isEqualTo(AuditOutcome.CANCELLED);
        assertThat(records.get(0).errorType()).isNull();
    }

    @Test
    void failed_afterPlanning_recordsThePromptsSourcesAndTheRewrittenQuestion() {
        Exchange x = exchange(QUESTION);
        Prompt p = prompt(QUESTION, List.of(block(document("a.md"), KEYS, 0.5)));
        Plan planned = Plan.grounded(new Asked("llama3.2", "how often do keys rotate"), p,
                new ChatRequest("llama3.2", List.of(ChatMessage.user(QUESTION)), 0.1, 10, 100, null));

        new AuditRecorder(new AuditTrail(sink, AuditFailurePolicy.LOG_AND_CONTINUE), QueryRedaction.NONE)
                .failed(x, planned, new IllegalStateException("the model server went away"));

        assertThat(records).singleElement().satisfies(rec -> {
            assertThat(rec.outcome()).isEqualTo(AuditOutcome.ERROR);
            assertThat(rec.sourceIds()).isEqualTo(p.sourceIds());
            assertThat(rec.retrievalQuery()).isEqualTo("how often do keys rotate");
        });
    }

    @Test
    void failed_sinkFailsUnderFailRequest_keepsTheOriginalErrorWithTheAuditFailureSuppressed() {
        AuditSink broken = rec -> {
            throw new AuditException("disk full");
        };
        LlmTimeoutException error = new LlmTimeoutException("slow");

        new AuditRecorder(new AuditTrail(broken, AuditFailurePolicy.FAIL_REQUEST), QueryRedaction.HASH)
                .failed(exchange(QUESTION), null, error);

        assertThat(error.getSuppressed()).singleElement().isInstanceOf(AuditException.class);
    }
}
