package dev.ragkit.generation;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A provider registered for the tests in {@code META-INF/services}: its backend echoes the last message, so
 * {@link LlmBackendsTest} can check that discovery finds it and hands it the settings.
 */
public final class EchoLlmBackendProvider implements LlmBackendProvider {

    /** The id this provider is found under. */
    public static final String ID = "test-echo";

    private static final Set<String> KNOWN_KEYS = Set.of("prefix");

    /** Used by {@link java.util.ServiceLoader}. */
    public EchoLlmBackendProvider() {
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public LlmBackend create(Map<String, String> config) {
        for (String key : config.keySet()) {
            if (!KNOWN_KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown setting '" + key + "'; known: " + KNOWN_KEYS);
            }
        }
        return new EchoBackend(config.getOrDefault("prefix", ""), new TreeMap<>(config));
    }

    /** Answers with the prefix and the last message's content. */
    static final class EchoBackend implements LlmBackend {
        private final String prefix;
        final Map<String, String> config;

        EchoBackend(String prefix, Map<String, String> config) {
            this.prefix = prefix;
            this.config = config;
        }

        @Override
        public String name() {
            return ID;
        }

        @Override
        public ChatResult chat(ChatRequest request) {
            String last = request.messages().get(request.messages().size() - 1).content();
            return new ChatResult(prefix + last, request.model(), FinishReason.STOP, null, null, Duration.ZERO);
        }

        @Override
        public Cancellable stream(ChatRequest request, StreamHandler handler) {
            ChatResult result = chat(request);
            handler.onToken(result.text());
            handler.onComplete(result);
            return new Cancellable() {
                @Override
                public void cancel() {
                }

                @Override
                public boolean isCancelled() {
                    return false;
                }
            };
        }

        @Override
        public ModelInfo modelInfo(String model) {
            return new ModelInfo(model, 4096, 512);
        }

        @Override
        public HealthStatus health(String model) {
            return new HealthStatus(true, true, Duration.ZERO, null, "echo is always up");
        }
    }
}
