package dev.ragkit.internal;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The checks and environment reading that every configuration class of RagKit shares ({@code RagConfig}, the
 * backends' configurations): one wording for rejected values, one way to read a variable, one upper bound for time
 * limits. Not API.
 */
public final class Settings {

    /** The longest time limit any RagKit setting accepts: a day. */
    public static final Duration MAX_TIMEOUT = Duration.ofDays(1);
    /** The rule of a whole-seconds time limit variable, such as {@code RAG_TIMEOUT_SECONDS}. */
    public static final String TIMEOUT_SECONDS_RULE = "a whole number of seconds from 1 to "
            + MAX_TIMEOUT.toSeconds() + " (a day)";
    /** The environment variable of every backend's time limit for one model call. */
    public static final String RAG_TIMEOUT_SECONDS = "RAG_TIMEOUT_SECONDS";

    private Settings() {
    }

    /**
     * Sets one variable through {@code setter}, turning any rejection into a message that names the variable.
     * Missing and blank variables are skipped; values are trimmed.
     *
     * @param env    the variables
     * @param name   the variable's name
     * @param rule   what it accepts, e.g. "a whole number, at least 1"
     * @param setter applies the trimmed value; throws {@link IllegalArgumentException} to reject it
     * @throws IllegalArgumentException naming the variable, the value and the rule
     */
    public static void read(Map<String, String> env, String name, String rule, Consumer<String> setter) {
        String raw = env.get(name);
        if (raw == null || raw.isBlank()) {
            return;
        }
        try {
            setter.accept(raw.strip());
        } catch (IllegalArgumentException e) {
            // NumberFormatException is an IllegalArgumentException too.
            throw new IllegalArgumentException(name + " must be " + rule + ", got '" + raw + "'", e);
        }
    }

    /**
     * @param text a plain decimal number
     * @return its value; unlike {@link Double#parseDouble} rejects NaN, Infinity, hex and 'd'/'f' suffixes
     * @throws NumberFormatException when it is not a plain number
     */
    public static double parseNumber(String text) {
        return new BigDecimal(text).doubleValue();
    }

    /**
     * @param text whole seconds, from 1 to a day
     * @return the duration
     * @throws IllegalArgumentException when out of range or not a number
     */
    public static Duration parseSeconds(String text) {
        long seconds = Long.parseLong(text);
        if (seconds < 1 || seconds > MAX_TIMEOUT.toSeconds()) {
            throw new IllegalArgumentException("seconds out of range: " + seconds);
        }
        return Duration.ofSeconds(seconds);
    }

    /**
     * @param text an http or https URL with a host
     * @param name the setting's name, for the message
     * @return the URI
     * @throws IllegalArgumentException when it is not such a URL
     */
    public static URI httpUrl(String text, String name) {
        Objects.requireNonNull(text, name);
        URI url;
        try {
            url = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(name + " must be an http or https URL with a host, got '" + text
                    + "'", e);
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null || url.getHost().isEmpty()) {
            throw new IllegalArgumentException(name + " must be an http or https URL with a host, got '" + text
                    + "'");
        }
        return url;
    }

    /**
     * @param timeout a time limit
     * @param name    the setting's name, for the message
     * @return {@code timeout} when it is positive and at most {@link #MAX_TIMEOUT}
     * @throws IllegalArgumentException otherwise
     */
    public static Duration timeout(Duration timeout, String name) {
        // compareTo, not toMillis(): toMillis() overflows for huge durations
        if (Objects.requireNonNull(timeout, name).isNegative() || timeout.isZero()
                || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException(name + " must be a positive duration of at most a day, got " + timeout);
        }
        return timeout;
    }

    /**
     * @param value a number
     * @param min   the least it may be
     * @param name  the setting's name, for the message
     * @return {@code value} when it is at least {@code min}
     * @throws IllegalArgumentException otherwise
     */
    public static int atLeast(int value, int min, String name) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be a whole number, at least " + min + ", got " + value);
        }
        return value;
    }

    /**
     * @param explicit the value set on a builder, or {@code null}
     * @param base     the value of the configuration below it
     * @param <T>      the type
     * @return {@code explicit} when set, else {@code base}: explicit settings win over a {@code config(...)} base,
     *         whatever the order of the calls
     */
    public static <T> T layered(@Nullable T explicit, T base) {
        return explicit != null ? explicit : base;
    }
}
