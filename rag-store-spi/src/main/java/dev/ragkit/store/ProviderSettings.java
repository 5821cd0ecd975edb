package dev.ragkit.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Reads a provider's settings map (the {@code Map<String, String>} that {@link StoreProvider#create}, an LLM backend
 * provider's or an embedder provider's {@code create} takes) with the same rules for every provider: unknown keys
 * are refused listing the known ones, and a bad value is reported under its key with what the key accepts.
 *
 * <pre>{@code
 * ProviderSettings settings = new ProviderSettings("my-store", config, Set.of("url", "dimension"));
 * settings.apply("dimension", v -> builder.dimension(settings.integer("dimension", v)));
 * }</pre>
 *
 * <p>It lives in the store SPI, which depends on the JDK only, so that every provider (the stores, the model-server
 * backends and embedders, and a plug-in's) can use it. Not thread-safe; use one per {@code create} call.
 */
public final class ProviderSettings {
    /** The longest time limit {@link #seconds} accepts, in seconds: a day. */
    public static final long MAX_SECONDS = 86_400;

    private final String provider;
    private final Map<String, String> config;

    /**
     * @param provider the provider's name for messages, e.g. {@code "lucene store"}: an unknown key reads
     *                 "unknown lucene store setting 'x'; known settings: [...]"
     * @param config   the settings
     * @param known    the keys the provider reads
     * @throws IllegalArgumentException on an unknown key
     */
    public ProviderSettings(String provider, Map<String, String> config, Set<String> known) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.config = Objects.requireNonNull(config, "config");
        Objects.requireNonNull(known, "known");
        for (String key : config.keySet()) {
            if (key == null || !known.contains(key)) {
                throw new IllegalArgumentException("unknown " + provider + " setting '" + key + "'; known settings: "
                        + new TreeSet<>(known));
            }
        }
    }

    /**
     * Hands a present setting to {@code setter}; a value the setter rejects is reported under the setting's key
     * (a message that already names the key in quotes is passed on as it is).
     *
     * @param key    the key
     * @param setter applies the value
     */
    public void apply(String key, Consumer<String> setter) {
        String value = config.get(key);
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            String message = String.valueOf(e.getMessage());
            throw message.contains("'" + key + "'") ? e
                    : new IllegalArgumentException(provider + " setting '" + key + "' has a bad value '" + value
                            + "': " + message, e);
        }
    }

    /**
     * @param key   the key, for the message
     * @param value a whole number of seconds from 1 to {@link #MAX_SECONDS} (a day)
     * @return the seconds
     * @throws IllegalArgumentException naming the key, otherwise
     */
    public long seconds(String key, String value) {
        return whole(key, value, 1, MAX_SECONDS, "a whole number of seconds from 1 to " + MAX_SECONDS + " (a day)");
    }

    /**
     * A whole number that fits an {@code int}; the range is left to the setter it is handed to (whose rejection
     * {@link #apply} reports under the key).
     *
     * @param key   the key, for the message
     * @param value a whole number
     * @return the number
     * @throws IllegalArgumentException naming the key, otherwise
     */
    public int integer(String key, String value) {
        return (int) whole(key, value, Integer.MIN_VALUE, Integer.MAX_VALUE, "a whole number");
    }

    /**
     * @param key   the key, for the message
     * @param value a whole number from {@code min} to {@code max}
     * @param min   the least
     * @param max   the most
     * @param rule  what the key accepts, in words
     * @return the number
     * @throws IllegalArgumentException naming the key and the rule, otherwise
     */
    public long whole(String key, String value, long min, long max, String rule) {
        try {
            long n = Long.parseLong(value.strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(provider + " setting '" + key + "' must be " + rule + ", got '" + value
                + "'");
    }

    /**
     * @param key   the key, for the message
     * @param value {@code true} or {@code false}, any case
     * @return the value
     * @throws IllegalArgumentException naming the key, otherwise
     */
    public boolean bool(String key, String value) {
        String v = value.strip();
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(provider + " setting '" + key + "' must be true or false, got '" + value
                    + "'");
        }
        return Boolean.parseBoolean(v);
    }

    /**
     * One of an enum's constants, written in lower case with dashes for underscores ({@code vector-api} for
     * {@code VECTOR_API}); any case, and underscores are read as dashes.
     *
     * @param key   the key, for the message
     * @param value the constant's name
     * @param type  the enum
     * @param <E>   the enum type
     * @return the constant
     * @throws IllegalArgumentException naming the key and listing the names, otherwise
     */
    public <E extends Enum<E>> E option(String key, String value, Class<E> type) {
        String wanted = value.strip().replace('_', '-');
        List<String> names = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            String name = constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
            if (name.equalsIgnoreCase(wanted)) {
                return constant;
            }
            names.add(name);
        }
        throw new IllegalArgumentException(provider + " setting '" + key + "' must be one of: "
                + String.join(", ", names) + "; got '" + value + "'");
    }
}
