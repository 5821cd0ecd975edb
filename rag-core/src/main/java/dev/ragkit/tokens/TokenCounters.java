package dev.ragkit.tokens;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingResult;
import com.knuddels.jtokkit.api.EncodingType;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The {@link TokenCounter}s RagKit ships.
 *
 * <ul>
 *   <li>{@link #jtokkit()}: exact counts with OpenAI's {@code cl100k_base} byte-pair encoding (jtokkit);
 *       {@link #jtokkit(String)} picks another encoding ({@code o200k_base}, {@code p50k_base}, …);</li>
 *   <li>{@link #estimate()}: the specifications' fallback of four characters per token, rounded up;</li>
 *   <li>{@link #cached(TokenCounter, long)}: a bounded cache around any counter.</li>
 * </ul>
 * Every counter returned is thread-safe.
 */
public final class TokenCounters {
    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    private static final TokenCounter CL100K = new JtokkitCounter(REGISTRY.getEncoding(EncodingType.CL100K_BASE));

    private TokenCounters() {
    }

    /**
     * Exact counts with {@code cl100k_base}, the encoding of GPT-3.5/4 and a close proxy for other modern
     * tokenizers. The encoding's tables are loaded once, on first use.
     *
     * @return the shared counter
     */
    public static TokenCounter jtokkit() {
        return CL100K;
    }

    /**
     * Exact counts with a named jtokkit encoding.
     *
     * @param encodingName e.g. {@code cl100k_base} or {@code o200k_base}
     * @return the counter
     * @throws IllegalArgumentException when jtokkit has no encoding of that name; the message lists those it has
     */
    public static TokenCounter jtokkit(String encodingName) {
        Objects.requireNonNull(encodingName, "encodingName");
        String name = encodingName.strip().toLowerCase(Locale.ROOT);
        if (name.equals(EncodingType.CL100K_BASE.getName())) {
            return CL100K;
        }
        return new JtokkitCounter(REGISTRY.getEncoding(name).orElseThrow(() -> new IllegalArgumentException(
                "unknown token encoding '" + encodingName + "'; use one of: " + Arrays.stream(EncodingType.values())
                        .map(EncodingType::getName).collect(Collectors.joining(", ")))));
    }

    /**
     * One token per four characters (Unicode code points), rounded up, so that a short text is never counted
     * as free. The specifications' fallback when no tokenizer is known. Against {@code cl100k_base} it
     * over-counts English prose (+45 % on the sample in {@code TokenCountersTest}) and under-counts code (−51 %)
     * and Japanese (−76 %): use an exact counter wherever a budget matters.
     *
     * @return the shared estimate
     */
    public static TokenCounter estimate() {
        return CharEstimate.INSTANCE;
    }

    /**
     * A bounded cache around {@code counter}: equal texts share one entry; least recently used entries are
     * evicted first; {@link TokenCounter#fittingPrefix} answers are cached too, by text and budget. Texts longer
     * than {@value #MAX_CACHED_CHARS} characters (whole prompts, whole documents) are counted without caching:
     * they rarely repeat, and keeping them would hold megabytes per entry.
     *
     * @param counter    the counter to cache
     * @param maxEntries the most texts kept, at least 1
     * @return the caching counter
     */
    public static TokenCounter cached(TokenCounter counter, long maxEntries) {
        Objects.requireNonNull(counter, "counter");
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, got " + maxEntries);
        }
        return new CachedCounter(counter, maxEntries);
    }

    /** jtokkit, with exact prefix cutting. */
    private static final class JtokkitCounter implements TokenCounter {
        private final Encoding encoding;

        JtokkitCounter(Encoding encoding) {
            this.encoding = encoding;
        }

        @Override
        public int count(String text) {
            return encoding.countTokensOrdinary(text);
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            requireBudget(maxTokens);
            if (maxTokens == 0 || text.isEmpty()) {
                return 0;
            }
            EncodingResult result = encoding.encodeOrdinary(text, maxTokens);
            if (!result.isTruncated()) {
                return text.length();
            }
            // jtokkit drops trailing tokens that would end inside a character, so the decoded tokens are normally
            // a prefix of the text; if not, search for the longest prefix that fits.
            String decoded = encoding.decode(result.getTokens());
            int length = text.startsWith(decoded) ? decoded.length() : longestFitting(text, maxTokens);
            length = avoidSplitSurrogate(text, length);
            // Re-tokenising a prefix can in rare cases give more tokens than the prefix of the tokens: shrink.
            while (length > 0 && count(text.substring(0, length)) > maxTokens) {
                length = avoidSplitSurrogate(text, length - 1);
            }
            return length;
        }

        private int longestFitting(String text, int maxTokens) {
            int lo = 0;
            int hi = text.length();
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (count(text.substring(0, mid)) <= maxTokens) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            return lo;
        }

        @Override
        public String name() {
            return "jtokkit:" + encoding.getName();
        }
    }

    /** Four code points per token, rounded up. */
    private static final class CharEstimate implements TokenCounter {
        static final CharEstimate INSTANCE = new CharEstimate();
        static final int CHARS_PER_TOKEN = 4;

        @Override
        public int count(String text) {
            int codePoints = text.codePointCount(0, text.length());
            return (codePoints + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            requireBudget(maxTokens);
            long codePoints = (long) maxTokens * CHARS_PER_TOKEN;
            if (codePoints >= text.length()) {
                return text.length();
            }
            return text.offsetByCodePoints(0, (int) Math.min(codePoints, text.codePointCount(0, text.length())));
        }

        @Override
        public String name() {
            return "estimate:4-chars";
        }
    }

    /** The longest text {@link #cached} keeps: comfortably more than a formatted 500-token chunk. */
    public static final int MAX_CACHED_CHARS = 16_384;

    /** A Caffeine cache keyed by the text itself (and by text and budget for prefixes). */
    private static final class CachedCounter implements TokenCounter {
        private final TokenCounter delegate;
        private final Cache<Object, Integer> cache;     // String → count, PrefixKey → fitting prefix

        CachedCounter(TokenCounter delegate, long maxEntries) {
            this.delegate = delegate;
            // Maintenance runs on the calling thread: no hidden thread pool.
            this.cache = Caffeine.newBuilder().maximumSize(maxEntries).executor(Runnable::run).build();
        }

        @Override
        public int count(String text) {
            Objects.requireNonNull(text, "text");
            return text.length() > MAX_CACHED_CHARS ? delegate.count(text)
                    : cache.get(text, k -> delegate.count(text));
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            Objects.requireNonNull(text, "text");
            return text.length() > MAX_CACHED_CHARS ? delegate.fittingPrefix(text, maxTokens)
                    : cache.get(new PrefixKey(text, maxTokens), k -> delegate.fittingPrefix(text, maxTokens));
        }

        @Override
        public String name() {
            return "cached:" + delegate.name();
        }
    }

    /** A cached {@link TokenCounter#fittingPrefix} question. */
    private record PrefixKey(String text, int maxTokens) {
    }

    private static void requireBudget(int maxTokens) {
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must not be negative, got " + maxTokens);
        }
    }

    private static int avoidSplitSurrogate(String text, int length) {
        if (length > 0 && length < text.length() && Character.isHighSurrogate(text.charAt(length - 1))) {
            return length - 1;
        }
        return length;
    }
}
