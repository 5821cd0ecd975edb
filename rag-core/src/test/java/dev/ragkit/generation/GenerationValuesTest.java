package dev.ragkit.generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Validation of the generation package's value records. */
final class GenerationValuesTest {

    private static final List<ChatMessage> ONE_MESSAGE = List.of(ChatMessage.user("hi"));

    private static final StoredDocument DOC = StoredDocument.builder().tenant("acme").path("a.md").build();
    private static final StoredDocument OTHER = StoredDocument.builder().tenant("acme").path("b.md").build();
    /** Chunk 2 of {@link #DOC}, lines 5-9. */
    private static final StoredChunk CHUNK = new StoredChunk(DOC.id(), 2, "five\nsix\nseven\neight\nnine", null, 5, 5,
            9, null, null);

    private static ContextBlock block(ContextBlock.Kind kind, StoredDocument document, int start, int end,
            String linkedFrom) {
        return new ContextBlock(kind, document, CHUNK, "text", start, end, 0.5, 0.5, 0.5, linkedFrom, false);
    }

    // ChatRequest

    @Test
    void chatRequest_of_usesTheDocumentedDefaults() {
        ChatRequest r = ChatRequest.of("llama3.2", ONE_MESSAGE);

        assertThat(r.temperature()).isEqualTo(0.1);
        assertThat(r.maxResponseTokens()).isEqualTo(1024);
        assertThat(r.contextWindow()).isEqualTo(8192);
        assertThat(r.seed()).isNull();
    }

    @Test
    void chatRequest_blankModel_isRejected() {
        assertThatThrownBy(() -> ChatRequest.of(" ", ONE_MESSAGE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("model");
        assertThatThrownBy(() -> ChatRequest.of(null, ONE_MESSAGE)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void chatRequest_noMessages_isRejected() {
        assertThatThrownBy(() -> ChatRequest.of("m", List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("message");
        assertThatThrownBy(() -> ChatRequest.of("m", null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void chatRequest_messages_areCopied() {
        List<ChatMessage> messages = new ArrayList<>(ONE_MESSAGE);
        ChatRequest r = ChatRequest.of("m", messages);

        messages.add(ChatMessage.user("later"));

        assertThat(r.messages()).containsExactly(ChatMessage.user("hi"));
    }

    @Test
    void chatRequest_temperatureOutsideZeroToTwoOrNaN_isRejected() {
        for (double t : new double[] {-0.01, 2.01, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new ChatRequest("m", ONE_MESSAGE, t, 10, 100, null)).as("temperature %s", t)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("temperature");
        }
        assertThat(new ChatRequest("m", ONE_MESSAGE, 0, 10, 100, null).temperature()).isZero();
        assertThat(new ChatRequest("m", ONE_MESSAGE, 2, 10, 100, 7L).temperature()).isEqualTo(2);
    }

    @Test
    void chatRequest_maxResponseTokensOrContextWindowBelowOne_isRejected() {
        assertThatThrownBy(() -> new ChatRequest("m", ONE_MESSAGE, 0.1, 0, 100, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxResponseTokens");
        assertThatThrownBy(() -> new ChatRequest("m", ONE_MESSAGE, 0.1, 10, 0, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contextWindow");
        assertThat(new ChatRequest("m", ONE_MESSAGE, 0.1, 1, 1, null).maxResponseTokens()).isEqualTo(1);
    }

    // ChatResult, ChatMessage

    @Test
    void chatResult_negativeTokenCounts_areRejected() {
        assertThatThrownBy(() -> new ChatResult("a", "m", FinishReason.STOP, -1, 3, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
        assertThatThrownBy(() -> new ChatResult("a", "m", FinishReason.STOP, 3, -1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        ChatResult unreported = new ChatResult("a", "m", FinishReason.LENGTH, null, null, Duration.ofMillis(5));
        assertThat(unreported.promptTokens()).isNull();
        assertThat(new ChatResult("a", "m", FinishReason.STOP, 0, 0, Duration.ZERO).completionTokens()).isZero();
    }

    @Test
    void chatResult_nullFields_areRejected() {
        assertThatThrownBy(() -> new ChatResult(null, "m", FinishReason.STOP, null, null, Duration.ZERO))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ChatResult("a", "m", null, null, null, Duration.ZERO))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ChatResult("a", "m", FinishReason.STOP, null, null, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void chatMessage_factories_setTheRoleAndWireName() {
        assertThat(ChatMessage.system("s").role()).isEqualTo(ChatMessage.Role.SYSTEM);
        assertThat(ChatMessage.user("u").role()).isEqualTo(ChatMessage.Role.USER);
        assertThat(ChatMessage.assistant("a").role().wireName()).isEqualTo("assistant");
        assertThat(ChatMessage.user("").content()).isEmpty();
        assertThatThrownBy(() -> ChatMessage.user(null)).isInstanceOf(NullPointerException.class);
    }

    // ModelInfo, HealthStatus

    @Test
    void modelInfo_limitsBelowOne_areRejected() {
        assertThatThrownBy(() -> new ModelInfo("m", 0, 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("contextWindow");
        assertThatThrownBy(() -> new ModelInfo("m", 10, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ModelInfo(null, 10, 10)).isInstanceOf(NullPointerException.class);
        assertThat(new ModelInfo("m", 1, 1).contextWindow()).isEqualTo(1);
    }

    @Test
    void healthStatus_modelAvailableOnUnreachableBackend_isRejected() {
        assertThatThrownBy(() -> new HealthStatus(false, true, Duration.ZERO, null, "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unreachable");
    }

    @Test
    void healthStatus_healthy_onlyWhenReachableWithTheModel() {
        assertThat(new HealthStatus(true, true, Duration.ZERO, "0.5.1", "ok").healthy()).isTrue();
        assertThat(new HealthStatus(true, false, Duration.ZERO, null, "run: ollama pull m").healthy()).isFalse();
        assertThat(new HealthStatus(false, false, Duration.ZERO, null, "start ollama").healthy()).isFalse();
        assertThatThrownBy(() -> new HealthStatus(true, true, null, null, "ok"))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new HealthStatus(true, true, Duration.ZERO, null, null))
                .isInstanceOf(NullPointerException.class);
    }

    // ContextBlock

    @Test
    void contextBlock_chunkOfAnotherDocument_isRejected() {
        assertThatThrownBy(() -> block(ContextBlock.Kind.RELEVANT, OTHER, 5, 9, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(CHUNK.sourceId()).hasMessageContaining(OTHER.id());
    }

    @Test
    void contextBlock_linesOutsideTheChunkOrReversed_areRejected() {
        assertThatThrownBy(() -> block(ContextBlock.Kind.RELEVANT, DOC, 4, 9, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("4-9");
        assertThatThrownBy(() -> block(ContextBlock.Kind.RELEVANT, DOC, 5, 10, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> block(ContextBlock.Kind.RELEVANT, DOC, 8, 7, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(block(ContextBlock.Kind.RELEVANT, DOC, 6, 6, null).startLine()).isEqualTo(6);
    }

    @Test
    void contextBlock_linkedFrom_requiredForLinkedAndOnlyForLinked() {
        assertThatThrownBy(() -> block(ContextBlock.Kind.LINKED, DOC, 5, 9, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linkedFrom");
        assertThatThrownBy(() -> block(ContextBlock.Kind.RELEVANT, DOC, 5, 9, "start.md"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> block(ContextBlock.Kind.CRITICAL, DOC, 5, 9, "start.md"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(block(ContextBlock.Kind.LINKED, DOC, 5, 9, "start.md").linkedFrom()).isEqualTo("start.md");
    }

    @Test
    void contextBlock_truncate_keepsTheStartAndScoresAndMarksTheCut() {
        ContextBlock whole = block(ContextBlock.Kind.LINKED, DOC, 5, 9, "start.md");

        ContextBlock cut = whole.truncate("five\nsix", 6);

        assertThat(cut.truncated()).isTrue();
        assertThat(whole.truncated()).isFalse();
        assertThat(cut.text()).isEqualTo("five\nsix");
        assertThat(cut.startLine()).isEqualTo(5);
        assertThat(cut.endLine()).isEqualTo(6);
        assertThat(cut.sourceId()).isEqualTo(whole.sourceId()).isEqualTo(DOC.id() + ":2");
        assertThat(cut.linkedFrom()).isEqualTo("start.md");
        assertThat(cut.boosted()).isEqualTo(whole.boosted());
    }

    @Test
    void contextBlock_matchScore_isTheCalibratedRelevanceNotTheRawCosine() {
        ContextBlock vector = new ContextBlock(ContextBlock.Kind.RELEVANT, DOC, CHUNK, "t", 5, 9, 0.8, 0.6, 0.7, null,
                false);
        ContextBlock keywordOnly = new ContextBlock(ContextBlock.Kind.RELEVANT, DOC, CHUNK, "t", 5, 9, Double.NaN,
                0.6, 0.7, null, false);

        assertThat(vector.matchScore()).isEqualTo(0.6);
        assertThat(keywordOnly.matchScore()).isEqualTo(0.6);
    }

    // Prompt

    @Test
    void prompt_truncatedAndSourceIds_followTheKeptBlocks() {
        ContextBlock whole = block(ContextBlock.Kind.RELEVANT, DOC, 5, 9, null);
        StoredChunk other = new StoredChunk(DOC.id(), 3, "ten", null, 1, 10, 10, null, null);
        ContextBlock cut = new ContextBlock(ContextBlock.Kind.RELEVANT, DOC, other, "ten", 10, 10, 0.4, 0.4, 0.4,
                null, false).truncate("ten", 10);

        Prompt p = new Prompt(ONE_MESSAGE, List.of(whole, cut), List.of(), List.of(), 0, 1, 0, 2, 3, 6, 8192, 1024);

        assertThat(p.sourceIds()).containsExactly(DOC.id() + ":2", DOC.id() + ":3");
        assertThat(p.truncated()).containsExactly(cut);
    }
}
