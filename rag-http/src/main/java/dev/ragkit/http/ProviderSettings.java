package dev.ragkit.http;

import dev.ragkit.internal.Settings;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Reads a backend provider's settings map (the {@code Map<String, String>} that
 * {@link dev.ragkit.generation.LlmBackendProvider#create} takes) with the same rules for every provider: unknown keys
 * are refused listing the known ones, and a bad value is reported under its key with what the key accepts.
 *
 * <p>For RagKit's own providers; not an API for applications.
 */
public final class ProviderSettings {
    /** The longest time limit, in seconds: a day. */
    public static final long MAX_SECONDS = Settings.MAX_TIMEOUT.toSeconds();

    private final String provider;
    private final Map<String, String> config;

    /**
     * @param provider the provider id, for messages
     * @param config   the settings
     * @param known    the keys the provider reads
     * @throws IllegalArgumentException on an unknown key
     */
    public ProviderSettings(String provider, Map<String, String> config, Set<String> known) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.config = Objects.requireNonNull(config, "config");
        for (String key : config.keySet()) {
            if (key == null || !known.contains(key)) {
                throw new IllegalArgumentException("unknown " + provider + " setting '" + key + "'; known settings: "
                        + new TreeSet<>(known));
            }
        }
    }

    /**
     * Hands a present setting to {@code setter}; a value the setter rejects is reported under the setting's key.
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
     */
    public long seconds(String key, String value) {
        return whole(key, value, 1, MAX_SECONDS, "a whole number of seconds from 1 to " + MAX_SECONDS + " (a day)");
    }

    /**
     * @param key  the key, for the message
     * @param value a whole number from {@code min} to {@code max}
     * @param min  the least
     * @param max  the most
     * @param rule what the key accepts, in words
     * @return the number
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
     */
    public boolean bool(String key, String value) {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException(provider + " setting '" + key + "' must be true or false, got '" + value
                    + "'");
        }
        return Boolean.parseBoolean(value);
    }
}
