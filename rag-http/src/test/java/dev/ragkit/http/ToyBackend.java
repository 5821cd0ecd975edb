package dev.ragkit.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.tokens.TokenCounter;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import okhttp3.HttpUrl;
import org.jspecify.annotations.Nullable;

/**
 * The smallest wire protocol on {@link ModelServerBackend}, for testing what the base owns: {@code POST /chat}
 * answers {@code {"text", "prompt", "reason"}}, or streams NDJSON lines {@code {"token"}}, then
 * {@code {"done":true, "prompt", "reason"}} (or {@code {"error"}}); {@code GET /models} lists
 * {@code {"models":[…]}}; {@code GET /version} gives {@code {"version"}} when the backend asks for one;
 * {@code POST /info} gives {@code {"window"}}.
 */
final class ToyBackend extends ModelServerBackend<ToyBackend.ToyHttp> {
    private final boolean asksVersion;
    private final boolean canFetch;
    final AtomicInteger fetched = new AtomicInteger();

    private ToyBackend(Builder b) {
        super(b, ToyHttp::new);
        this.asksVersion = b.asksVersion;
        this.canFetch = b.canFetch;
    }

    static Builder builder(String baseUrl) {
        return new Builder(baseUrl);
    }

    @Override
    public String name() {
        return "toy";
    }

    @Override
    protected String chatPath() {
        return "/chat";
    }

    @Override
    protected ObjectNode chatBody(ChatRequest request, boolean stream) {
        ObjectNode body = chatMessages(request).put("stream", stream);
        Long seed = seed(request);
        if (seed != null) {
            body.put("seed", seed);
        }
        return body;
    }

    @Override
    protected ChatResult reply(ChatRequest request, JsonNode reply, Duration elapsed) {
        if (!reply.hasNonNull("text")) {
            throw http.protocolError("the reply has no text", "", null);
        }
        return new ChatResult(reply.get("text").asText(), request.model(),
                finishReason(reply.path("reason").asText("")), tokens(reply, "prompt"), tokens(reply, "completion"),
                elapsed);
    }

    @Override
    protected LineStream.Reader streamReader(ChatRequest request) {
        return new LineStream.Reader() {
            @Override
            public @Nullable ChatResult read(String line, CharSequence partial, Consumer<String> emit) {
                JsonNode n;
                try {
                    n = http.readJson(line, "/chat (streamed)", partial.toString());
                } catch (IOException e) {
                    throw http.protocolError("a stream line is not JSON: '" + line + "'", partial.toString(), e);
                }
                if (n.hasNonNull("error")) {
                    throw http.streamedError(n.get("error").asText(), null, partial.toString());
                }
                if (n.hasNonNull("token")) {
                    emit.accept(n.get("token").asText());
                }
                return n.path("done").asBoolean(false) ? new ChatResult(partial.toString(), request.model(),
                        finishReason(n.path("reason").asText("")), tokens(n, "prompt"), null, Duration.ZERO) : null;
            }
        };
    }

    @Override
    protected ModelInfo fetchModelInfo(String model) {
        int window = http.post("/info", ModelHttp.MAPPER.createObjectNode().put("model", model), model)
                .path("window").asInt();
        return new ModelInfo(model, window, window / 4);
    }

    @Override
    public List<String> availableModels() {
        List<String> names = new ArrayList<>();
        http.get("/models").path("models").forEach(m -> names.add(m.asText()));
        return names;
    }

    @Override
    protected String missing(String model, List<String> available) {
        return "model '" + model + "' is not on " + http.server() + "; it has " + available;
    }

    @Override
    protected boolean fetchMissing(String model) {
        if (!canFetch) {
            return false;
        }
        fetched.incrementAndGet();
        return true;
    }

    @Override
    protected @Nullable String serverVersion() {
        return asksVersion ? http.get("/version").path("version").asText(null) : null;
    }

    /** The model {@code exact} has an exact counter: one token a character. */
    @Override
    protected Optional<TokenCounter> exactCounter(String model) {
        return model.equals("exact") ? Optional.of(new Words() {
            @Override
            public int count(String text) {
                return text.length();
            }
        }) : Optional.empty();
    }

    /** Counts words: the local counter calibration scales. */
    static class Words implements TokenCounter {
        @Override
        public int count(String text) {
            String t = text.strip();
            return t.isEmpty() ? 0 : t.split("\\s+").length;
        }

        @Override
        public int fittingPrefix(String text, int maxTokens) {
            return text.length();
        }

        @Override
        public String name() {
            return "words";
        }
    }

    /** The toy server's dialect. */
    static final class ToyHttp extends ModelHttp {
        ToyHttp(HttpSettings.Resolved settings) {
            super(settings);
        }

        @Override
        public String provider() {
            return "Toy";
        }

        @Override
        protected String server() {
            return "the toy server at " + base;
        }

        @Override
        public RagException statusError(int code, String body, @Nullable String model, HttpUrl url) {
            String error = errorText(body);
            if (code == 503) {
                return new LlmUnavailableException(server() + " is not ready (" + error + ")");
            }
            return new ModelServerException(provider(), code, error, server() + " answered HTTP " + code + ": "
                    + error, "check the toy server");
        }

        @Override
        protected String timeoutFix() {
            return "raise the toy's time limit";
        }

        @Override
        protected String connectFix() {
            return "start the toy server";
        }
    }

    /** The toy's builder: the shared settings, plus two switches for the hooks. */
    static final class Builder extends ModelServerBackend.Builder<Builder> {
        private boolean asksVersion;
        private boolean canFetch;

        Builder(String baseUrl) {
            super("http://localhost:1234", Duration.ofSeconds(2), Duration.ofMillis(1));
            baseLayer(URI.create(baseUrl), Duration.ofSeconds(5));
        }

        @Override
        protected Builder self() {
            return this;
        }

        Builder asksVersion() {
            this.asksVersion = true;
            return this;
        }

        Builder canFetch() {
            this.canFetch = true;
            return this;
        }

        ToyBackend build() {
            return new ToyBackend(this);
        }
    }
}
