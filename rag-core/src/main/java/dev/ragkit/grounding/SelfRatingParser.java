package dev.ragkit.grounding;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads the model's 0–100 self-rating from its reply, strictly: a reply that does not give one clear whole number
 * yields {@code null}, never a guess.
 *
 * <ol>
 *   <li>Reasoning is removed: every {@code <think>…</think>} block (any letter case), then everything up to a
 *       leftover {@code </think>} (templates that open the block in the prompt), then everything from an unclosed
 *       {@code <think>} on (a reply cut off mid-thought).</li>
 *   <li>A denominator of 100 written as {@code /100} or {@code out of 100} is dropped, so {@code 85/100} is 85.</li>
 *   <li>The numbers left are collected; digits glued to letters (as in {@code qwen3}) are part of a word, not a
 *       number. The reply is accepted only when at least one number is left, every number is the same whole
 *       number, and that number is 0–100. Text around it is allowed: {@code 85}, {@code 85%}, {@code 85.},
 *       {@code Score: 85}, {@code Rating: 85/100} all give 85.</li>
 *   <li>Rejected: two different numbers, a negative sign, a decimal or thousands separator ({@code 85.5},
 *       {@code 85,5}: the prompt asks for a whole number, and rounding would invent precision), more than 100,
 *       no number at all.</li>
 * </ol>
 * Never throws. Thread-safe.
 */
final class SelfRatingParser {

    private static final Pattern THINK_BLOCK = Pattern.compile("(?is)<think>.*?</think>");
    private static final Pattern CLOSE_THINK = Pattern.compile("(?i)</think>");
    private static final Pattern OPEN_THINK = Pattern.compile("(?i)<think>");
    private static final Pattern OUT_OF_100 =
            Pattern.compile("(?i)\\s*(?:/|\\bout\\s+of)\\s*100(?![0-9]|[.,][0-9])");
    /** Group 1: sign; group 2: digits; group 3: a decimal or grouping tail. */
    private static final Pattern NUMBER =
            Pattern.compile("(?<![A-Za-z0-9])([-+\u2212]?)([0-9]+)((?:[.,][0-9]+)*)");

    private SelfRatingParser() {
    }

    static @Nullable Integer parse(@Nullable String reply) {
        if (reply == null) {
            return null;
        }
        try {
            String text = THINK_BLOCK.matcher(reply).replaceAll(" ");
            Matcher close = CLOSE_THINK.matcher(text);
            int afterLastClose = -1;
            while (close.find()) {
                afterLastClose = close.end();
            }
            if (afterLastClose >= 0) {
                text = text.substring(afterLastClose);
            }
            Matcher open = OPEN_THINK.matcher(text);
            if (open.find()) {
                text = text.substring(0, open.start());
            }
            text = OUT_OF_100.matcher(text.strip()).replaceAll(" ");

            Integer value = null;
            Matcher number = NUMBER.matcher(text);
            while (number.find()) {
                String sign = number.group(1);
                if (sign.equals("-") || sign.equals("\u2212") || !number.group(3).isEmpty()) {
                    return null;
                }
                String digits = stripLeadingZeros(number.group(2));
                if (digits.length() > 3) {
                    return null;
                }
                int parsed = Integer.parseInt(digits);
                if (parsed > 100 || (value != null && value != parsed)) {
                    return null;
                }
                value = parsed;
            }
            return value;
        } catch (RuntimeException e) {
            // Defensive: a malformed reply must never fail the request.
            return null;
        }
    }

    private static String stripLeadingZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
