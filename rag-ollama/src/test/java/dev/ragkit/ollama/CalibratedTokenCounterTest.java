package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.tokens.CalibratedTokenCounter;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

final class CalibratedTokenCounterTest {

    /** One token per {@code char}: makes every expected count a hand calculation. */
    static final TokenCounter PER_CHAR = new TokenCounter() {
        @Override
        public int count(String text) {
            return text.length();
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            return Math.min(text.length(), maxTokens);
        }

        @Override
        public String name() {
            return "per-char";
        }
    };

    @StartStop
    private final MockWebServer server = new MockWebServer();

    // ---------------------------------------------------------------------------------------------------------
    // The counter on its own

    @Test
    void ratio_beforeAnyObservation_isOne() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);

        assertThat(counter.ratio()).isEqualTo(1.0);
        assertThat(counter.observations()).isZero();
        assertThat(counter.count("0123456789")).isEqualTo(10);
    }

    @Test
    void observe_firstObservation_takesTheObservedRatio() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);

        assertThat(counter.observe(100, 130)).isTrue();

        assertThat(counter.ratio()).isCloseTo(1.3, within(1e-12));
        assertThat(counter.observations()).isEqualTo(1);
        assertThat(counter.count("x".repeat(100))).isEqualTo(130);
    }

    @Test
    void observe_laterObservations_moveTheRatioAFifthOfTheWay() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 130);

        counter.observe(100, 120);
        assertThat(counter.ratio()).isCloseTo(1.3 + 0.2 * (1.2 - 1.3), within(1e-12));

        counter.observe(200, 300);
        assertThat(counter.ratio()).isCloseTo(1.28 + 0.2 * (1.5 - 1.28), within(1e-12));
        assertThat(counter.observations()).isEqualTo(3);
    }

    @Test
    void observe_ratioBelowNinetyPercentOfCurrent_isIgnoredAsPartlyCached() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 120);

        assertThat(counter.observe(100, 100)).as("1.0 < 0.9 * 1.2: a reused prompt prefix").isFalse();
        assertThat(counter.observe(100, 60)).as("within [0.5, 2] but far below").isFalse();

        assertThat(counter.ratio()).isCloseTo(1.2, within(1e-12));
        assertThat(counter.observations()).isEqualTo(1);
        assertThat(counter.count("x".repeat(100))).as("no undercount").isEqualTo(120);
    }

    @Test
    void observe_ratioWithinTenPercentBelow_isUsed() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 120);

        assertThat(counter.observe(100, 109)).as("1.09 >= 0.9 * 1.2").isTrue();

        assertThat(counter.ratio()).isCloseTo(1.2 + 0.2 * (1.09 - 1.2), within(1e-12));
        assertThat(counter.observations()).isEqualTo(2);
    }

    @Test
    void observe_firstObservationLow_isUsed() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);

        assertThat(counter.observe(100, 60)).as("nothing learned yet to compare with").isTrue();

        assertThat(counter.ratio()).isCloseTo(0.6, within(1e-12));
    }

    @Test
    void observe_modelCountsFewerTokens_ratioDriftsDownThroughCloseObservations() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 120);
        assertThat(counter.observe(100, 100)).as("one jump down is ignored").isFalse();

        for (int i = 0; i < 60; i++) {
            counter.observe(100, 110);
        }
        for (int i = 0; i < 60; i++) {
            counter.observe(100, 100);
        }

        assertThat(counter.ratio()).as("the same drop in steps within 10 %").isCloseTo(1.0, within(1e-4));
    }

    @Test
    void observe_repeatedSameRatio_convergesOnIt() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 100);

        for (int i = 0; i < 60; i++) {
            counter.observe(100, 150);
        }

        assertThat(counter.ratio()).isCloseTo(1.5, within(1e-4));
    }

    @Test
    void observe_implausibleRatio_isIgnored() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 120);

        assertThat(counter.observe(100, 201)).as("above 2").isFalse();
        assertThat(counter.observe(100, 49)).as("below 0.5: a cached prompt prefix").isFalse();
        assertThat(counter.observe(0, 50)).as("nothing counted locally").isFalse();
        assertThat(counter.observe(50, 0)).as("nothing reported").isFalse();
        assertThat(counter.observe(-5, 10)).isFalse();

        assertThat(counter.ratio()).isCloseTo(1.2, within(1e-12));
        assertThat(counter.observations()).isEqualTo(1);
    }

    @Test
    void observe_ratioAtTheBounds_isUsed() {
        CalibratedTokenCounter low = new CalibratedTokenCounter(PER_CHAR, 0.0);
        CalibratedTokenCounter high = new CalibratedTokenCounter(PER_CHAR, 0.0);

        assertThat(low.observe(100, 50)).isTrue();
        assertThat(high.observe(100, 200)).isTrue();

        assertThat(low.ratio()).isEqualTo(0.5);
        assertThat(high.ratio()).isEqualTo(2.0);
    }

    @Test
    void count_withMargin_addsTheMarginAndRoundsUp() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.05);

        assertThat(counter.count("x".repeat(100))).as("ratio 1 before observations, plus 5 %").isEqualTo(105);
        assertThat(counter.count("x")).as("1.05 rounds up").isEqualTo(2);

        counter.observe(100, 120);
        assertThat(counter.count("x".repeat(100))).as("ceil(100 * 1.2 * 1.05) = 126").isEqualTo(126);
    }

    @Test
    void count_emptyText_isZero() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.5);
        counter.observe(10, 20);

        assertThat(counter.count("")).isZero();
    }

    @Test
    void constructor_marginOutOfRange_isRejected() {
        assertThatThrownBy(() -> new CalibratedTokenCounter(PER_CHAR, 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("margin");
        assertThatThrownBy(() -> new CalibratedTokenCounter(PER_CHAR, -0.01))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CalibratedTokenCounter(PER_CHAR, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CalibratedTokenCounter(null, 0.0))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("local");
    }

    @Test
    void fittingPrefix_scaledCounter_shrinksTheLocalBudget() {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        counter.observe(100, 200);
        String text = "x".repeat(50);

        assertThat(counter.fittingPrefix(text, 10)).as("each char costs 2 tokens").isEqualTo(5);
        assertThat(counter.fittingPrefix(text, 0)).isZero();
        assertThat(counter.fittingPrefix(text, 1000)).isEqualTo(50);
        assertThatThrownBy(() -> counter.fittingPrefix(text, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The contract the chunker relies on: the prefix {@code fittingPrefix} returns counts at most the budget, and one
     * more local token would not fit. Swept over ratios, margins and budgets, since the scaling is floating point.
     */
    @Test
    void fittingPrefix_anyRatioMarginAndBudget_isConsistentWithCount() {
        String text = "x".repeat(2100);
        String[] prefixes = new String[text.length() + 1];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = text.substring(0, i);
        }
        List<String> broken = new ArrayList<>();
        for (int reported = 50; reported <= 200; reported += 3) {
            for (int marginPercent = 0; marginPercent <= 10; marginPercent++) {
                CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, marginPercent / 100.0);
                counter.observe(100, reported);
                for (int max = 0; max <= 1000 && broken.size() < 5; max++) {
                    int prefix = counter.fittingPrefix(text, max);
                    int count = counter.count(prefixes[prefix]);
                    if (count > max || prefix < text.length() && counter.count(prefixes[prefix + 1]) <= max) {
                        broken.add("ratio " + reported / 100.0 + ", margin " + marginPercent + " %, budget " + max
                                + ": prefix " + prefix + " counts " + count);
                    }
                }
            }
        }

        assertThat(broken).isEmpty();
    }

    @Test
    void fittingPrefix_ratioHalfMarginEightPercent_staysWithinBudget() {
        // ceil(850 * 0.5 * 1.08) is 460 in floating point, one over the budget that produced 850
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.08);
        counter.observe(100, 50);
        String text = "x".repeat(900);

        int prefix = counter.fittingPrefix(text, 459);

        assertThat(counter.count(text.substring(0, prefix))).isLessThanOrEqualTo(459);
    }

    @Test
    void name_wrapsTheLocalName() {
        assertThat(new CalibratedTokenCounter(PER_CHAR, 0.0).name()).isEqualTo("calibrated:per-char");
    }

    @Test
    void observe_fromSeveralThreads_losesNoObservation() throws Exception {
        CalibratedTokenCounter counter = new CalibratedTokenCounter(PER_CHAR, 0.0);
        int threads = 8;
        int perThread = 2_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int reported = t % 2 == 0 ? 120 : 130; // within 10 % of each other: none ignored
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        counter.observe(100, reported);
                        counter.count("x".repeat(10));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(counter.observations()).isEqualTo(threads * perThread);
        assertThat(counter.ratio()).isBetween(1.2, 1.3);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Through the backend: every reported prompt count teaches the model's counter

    private OllamaBackend backend(double margin) {
        return OllamaBackend.builder().baseUrl(server.url("/").toString()).maxRetries(0)
                .calibration(PER_CHAR, margin).build();
    }

    private static MockResponse json(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body).build();
    }

    @Test
    void chat_replyReportsPromptCount_ratioMovesToReportedOverLocal() {
        try (OllamaBackend backend = backend(0.0)) {
            server.enqueue(json(Fixtures.read("chat.json"))); // prompt_eval_count 26
            // 8 + 12 local tokens plus the budget's 4 per message for the chat template = 28; the server reports 26
            ChatRequest request = ChatRequest.of("llama3.2",
                    List.of(ChatMessage.system("Be short"), ChatMessage.user("Why sky blue")));

            backend.chat(request);

            CalibratedTokenCounter counter = backend.tokenCounter("llama3.2");
            assertThat(counter.ratio()).isCloseTo(26.0 / 28, within(1e-12));
            assertThat(counter.observations()).isEqualTo(1);
            assertThat(backend.countTokens("llama3.2", "x".repeat(100))).hasValue(93);     // ceil(92.86)
            assertThat(backend.tokenCounterFor("llama3.2")).containsSame(counter);
            assertThat(backend.tokenCounter("LLAMA3.2:latest")).as("one counter per model").isSameAs(counter);
            assertThat(backend.tokenCounter("mistral").ratio()).as("other models unaffected").isEqualTo(1.0);
        }
    }

    @Test
    void countTokens_withMargin_usesRatioAndMargin() {
        try (OllamaBackend backend = backend(0.25)) {
            server.enqueue(json(Fixtures.read("chat.json")));
            backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user("x".repeat(20)))));

            // ratio 26 / (20 + 4) = 1.0833...; ceil(100 * 1.0833 * 1.25) = ceil(135.42) = 136
            assertThat(backend.countTokens("llama3.2", "y".repeat(100))).hasValue(136);
        }
    }

    @Test
    void countTokens_beforeAnyChat_isLocalCountWithMargin() {
        try (OllamaBackend backend = backend(0.25)) {
            assertThat(backend.countTokens("llama3.2", "y".repeat(100))).hasValue(125);
            assertThat(server.getRequestCount()).isZero();
        }
    }

    @Test
    void chat_replyWithoutPromptCount_leavesRatioAlone() {
        try (OllamaBackend backend = backend(0.0)) {
            server.enqueue(json("{\"model\":\"llama3.2\",\"message\":{\"role\":\"assistant\",\"content\":\"Hi\"},"
                    + "\"done\":true}"));

            backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user("x".repeat(20)))));

            assertThat(backend.tokenCounter("llama3.2").observations()).isZero();
            assertThat(backend.tokenCounter("llama3.2").ratio()).isEqualTo(1.0);
        }
    }

    @Test
    void chat_cachedPrefixReportsFewTokens_isIgnored() {
        try (OllamaBackend backend = backend(0.0)) {
            server.enqueue(json(Fixtures.read("chat.json"))); // 26 reported
            server.enqueue(json(Fixtures.read("chat.json")));

            backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user("x".repeat(20)))));
            backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user("x".repeat(500)))));

            assertThat(backend.tokenCounter("llama3.2").ratio()).isCloseTo(26.0 / 24, within(1e-12));
            assertThat(backend.tokenCounter("llama3.2").observations()).isEqualTo(1);
        }
    }

    @Test
    void chat_partlyCachedPromptReportsFewerTokens_isIgnored() {
        try (OllamaBackend backend = backend(0.0)) {
            server.enqueue(json(Fixtures.read("chat.json"))); // 26 reported
            server.enqueue(json(Fixtures.read("chat.json")));

            backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user("x".repeat(20)))));
            // 36 + 4 = 40 local tokens, 26 reported: 0.65 is plausible, but well below the learned 1.083
            backend.chat(ChatRequest.of("llama3.2", List.of(ChatMessage.user("x".repeat(36)))));

            assertThat(backend.tokenCounter("llama3.2").ratio()).isCloseTo(26.0 / 24, within(1e-12));
            assertThat(backend.tokenCounter("llama3.2").observations()).isEqualTo(1);
        }
    }
}
