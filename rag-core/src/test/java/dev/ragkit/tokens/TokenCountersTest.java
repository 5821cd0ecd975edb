package dev.ragkit.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class TokenCountersTest {

    /**
     * Texts with their published {@code cl100k_base} token counts, from OpenAI's cookbook notebook "How to count
     * tokens with tiktoken" (examples "tiktoken is great!", "antidisestablishmentarianism", "2 + 2 = 4" and
     * "お誕生日おめでとう").
     */
    private static final Map<String, Integer> KNOWN_CL100K = Map.of(
            "tiktoken is great!", 6,
            "antidisestablishmentarianism", 6,
            "2 + 2 = 4", 7,
            "お誕生日おめでとう", 9,
            "", 0);

    @Test
    void jtokkit_knownTexts_countsExactly() {
        TokenCounter counter = TokenCounters.jtokkit();
        KNOWN_CL100K.forEach((text, expected) -> assertThat(counter.count(text)).as(text).isEqualTo(expected));
        assertThat(counter.name()).isEqualTo("jtokkit:cl100k_base");
    }

    @Test
    void jtokkit_specialTokenText_isCountedAsPlainText() {
        assertThat(TokenCounters.jtokkit().count("<|endoftext|>")).isGreaterThan(1);
    }

    @Test
    void jtokkit_namedEncoding_isUsedAndUnknownNameListsTheKnownOnes() {
        TokenCounter o200k = TokenCounters.jtokkit("o200k_base");
        assertThat(o200k.name()).isEqualTo("jtokkit:o200k_base");
        assertThat(o200k.count("hello world")).isEqualTo(2);
        assertThat(TokenCounters.jtokkit("CL100K_BASE")).isSameAs(TokenCounters.jtokkit());
        assertThatThrownBy(() -> TokenCounters.jtokkit("gpt5_base"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gpt5_base")
                .hasMessageContaining("cl100k_base");
    }

    @Test
    void estimate_roundsUpFourCodePointsPerToken() {
        TokenCounter estimate = TokenCounters.estimate();
        assertThat(estimate.count("")).isZero();
        assertThat(estimate.count("abc")).isEqualTo(1);
        assertThat(estimate.count("abcd")).isEqualTo(1);
        assertThat(estimate.count("abcde")).isEqualTo(2);
        assertThat(estimate.count("😀😀😀😀😀")).as("code points, not UTF-16 units").isEqualTo(2);
    }

    /**
     * The estimate's error against the exact count, by kind of text: what a user of the fallback can expect. It
     * over-counts English prose with long words and under-counts code and, by far, Japanese.
     */
    @Test
    void estimate_errorAgainstExactCount_byKindOfText() {
        TokenCounter exact = TokenCounters.jtokkit();
        TokenCounter estimate = TokenCounters.estimate();
        String prose = "The retriever embeds the question, searches the store within the caller's scope, drops"
                + " candidates below the minimum relevance, boosts documents the organisation marked important,"
                + " removes near duplicates and keeps the best chunks within the token budget.";
        String code = "for (int i = 0; i < n; i++) { s0 += q[i] * d[off + i]; } return (s0 + s1) + (s2 + s3);";
        String cjk = "東京の天気は晴れです。明日は雨が降るでしょう。傘を持って行ってください。";
        // measured: prose +45 %, code -51 %, Japanese -76 %
        assertThat(relativeError(estimate.count(prose), exact.count(prose))).isBetween(0.40, 0.50);
        assertThat(relativeError(estimate.count(code), exact.count(code))).isBetween(-0.55, -0.45);
        assertThat(relativeError(estimate.count(cjk), exact.count(cjk))).isBetween(-0.80, -0.70);
    }

    @Test
    void fittingPrefix_randomTexts_prefixFitsAndIsMaximalAtTokenGranularity() {
        Random random = new Random(11);
        String[] alphabet = {"word ", "a", ".", " ", "\n", "東京", "😀", "ü", "{", "x1", "  ", "ing"};
        for (TokenCounter counter : List.of(TokenCounters.jtokkit(), TokenCounters.estimate())) {
            for (int n = 0; n < 300; n++) {
                StringBuilder text = new StringBuilder();
                int parts = random.nextInt(80);
                for (int i = 0; i < parts; i++) {
                    text.append(alphabet[random.nextInt(alphabet.length)]);
                }
                String s = text.toString();
                int budget = random.nextInt(30);
                int length = counter.fittingPrefix(s, budget);
                assertThat(length).isBetween(0, s.length());
                assertThat(counter.count(s.substring(0, length))).as("%s %s", counter.name(), s).isLessThanOrEqualTo(budget);
                if (length > 0 && length < s.length()) {
                    assertThat(Character.isHighSurrogate(s.charAt(length - 1))).isFalse();
                }
                assertThat(length == s.length()).isEqualTo(counter.count(s) <= budget);
                if (length < s.length() && budget > 0) {
                    // adding the rest of the text would not fit, so the cut did not give away a whole budget
                    assertThat(counter.count(s)).isGreaterThan(budget);
                }
            }
        }
    }

    @Test
    void fittingPrefix_negativeBudget_isRejected() {
        assertThatThrownBy(() -> TokenCounters.jtokkit().fittingPrefix("x", -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cached_equalTexts_shareOneEntryAndDelegateOnce() {
        RecordingCounter recording = new RecordingCounter();
        TokenCounter cached = TokenCounters.cached(recording, 100);
        String a = "some text";
        String b = new String("some text".toCharArray()); // equal, not the same object
        assertThat(cached.count(a)).isEqualTo(cached.count(b)).isEqualTo(TokenCounters.jtokkit().count(a));
        assertThat(recording.calls.get()).isEqualTo(1);
        assertThat(cached.name()).isEqualTo("cached:recording");
    }

    @Test
    void cached_fittingPrefix_isCachedByTextAndBudget() {
        RecordingCounter recording = new RecordingCounter();
        TokenCounter cached = TokenCounters.cached(recording, 100);
        String text = "The rotate command prints the new key and revokes the old one after an hour.";
        int five = cached.fittingPrefix(text, 5);
        assertThat(cached.fittingPrefix(text, 5)).isEqualTo(five)
                .isEqualTo(TokenCounters.jtokkit().fittingPrefix(text, 5));
        assertThat(recording.prefixCalls.get()).isEqualTo(1);
        assertThat(cached.fittingPrefix(text, 6)).isGreaterThan(five);
        assertThat(recording.prefixCalls.get()).isEqualTo(2);
        assertThat(cached.count(text)).isEqualTo(TokenCounters.jtokkit().count(text));   // a count is not a prefix
    }

    @Test
    void cached_textLongerThanTheLimit_isCountedEveryTimeAndNotKept() {
        RecordingCounter recording = new RecordingCounter();
        TokenCounter cached = TokenCounters.cached(recording, 100);
        String longest = "a".repeat(TokenCounters.MAX_CACHED_CHARS);
        String tooLong = longest + "b";
        cached.count(longest);
        cached.count(longest);
        assertThat(recording.calls.get()).isEqualTo(1);
        assertThat(cached.count(tooLong)).isEqualTo(cached.count(tooLong)).isEqualTo(TokenCounters.jtokkit()
                .count(tooLong));
        assertThat(recording.calls.get()).isEqualTo(3);
    }

    @Test
    void cached_moreDistinctTextsThanItsBound_evictsAndRecomputes() {
        RecordingCounter recording = new RecordingCounter();
        TokenCounter cached = TokenCounters.cached(recording, 10);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 1000; i++) {
                cached.count("text number " + i);
            }
        }
        // a cache holding everything would have delegated 1,000 times
        assertThat(recording.calls.get()).isGreaterThan(1500);
        assertThatThrownBy(() -> TokenCounters.cached(recording, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cached_concurrentThreads_countEveryTextOnceAndAgreeWithTheDelegate() throws Exception {
        RecordingCounter recording = new RecordingCounter();
        TokenCounter cached = TokenCounters.cached(recording, 10_000);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            texts.add("paragraph " + i + " with some words in it");
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            results.add(pool.submit(() -> {
                start.await();
                for (int round = 0; round < 20; round++) {
                    for (String text : texts) {
                        if (cached.count(text) != TokenCounters.jtokkit().count(text)) {
                            return false;
                        }
                    }
                }
                return true;
            }));
        }
        start.countDown();
        for (Future<Boolean> result : results) {
            assertThat(result.get(60, TimeUnit.SECONDS)).isTrue();
        }
        pool.shutdown();
        assertThat(recording.calls.get()).isEqualTo(texts.size());
        assertThat(recording.perText.values()).allMatch(calls -> calls.get() == 1);
    }

    private static double relativeError(int estimate, int exact) {
        return (estimate - exact) / (double) exact;
    }

    /** Counts exactly with cl100k_base and records how often each text was counted. */
    private static final class RecordingCounter implements TokenCounter {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger prefixCalls = new AtomicInteger();
        final Map<String, AtomicInteger> perText = new ConcurrentHashMap<>();

        @Override
        public int count(String text) {
            calls.incrementAndGet();
            perText.computeIfAbsent(text, t -> new AtomicInteger()).incrementAndGet();
            return TokenCounters.jtokkit().count(text);
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            prefixCalls.incrementAndGet();
            return TokenCounters.jtokkit().fittingPrefix(text, maxTokens);
        }

        @Override
        public String name() {
            return "recording";
        }
    }
}
