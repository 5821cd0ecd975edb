package dev.ragkit.ollama;

import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;
import dev.ragkit.http.HttpSettings;
import dev.ragkit.http.ModelHttp;
import dev.ragkit.http.ModelServerException;
import java.util.Locale;
import okhttp3.HttpUrl;
import org.jspecify.annotations.Nullable;

/**
 * {@link ModelHttp} with Ollama's dialect, shared by the backend and the embedder: a 404 naming a model is a
 * missing model (pull it), 429/502/503 mean "not ready", 408 and 504 a proxy's time limit (not retried), and the
 * fixes name Ollama's own commands and RagKit's Ollama settings.
 */
final class OllamaHttp extends ModelHttp {

    /** An example base URL, for the message of a bad one. */
    static final String EXAMPLE_URL = "http://localhost:11434";

    OllamaHttp(HttpSettings.Resolved settings) {
        super(settings);
    }

    @Override
    public String provider() {
        return "Ollama";
    }

    @Override
    protected String server() {
        return "Ollama at " + base;
    }

    @Override
    protected String timeoutFix() {
        return "raise RAG_TIMEOUT_SECONDS or the OllamaBackend builder's timeouts, or use a smaller model";
    }

    @Override
    protected String connectFix() {
        return "is Ollama running at " + base + "? Start it with: ollama serve";
    }

    @Override
    public RagException statusError(int code, String body, @Nullable String model, HttpUrl url) {
        String error = errorText(body);
        String lower = error.toLowerCase(Locale.ROOT);
        // "model 'x' not found" (and older servers' "model \"x\" not found, try pulling it first"); a bare
        // "404 page not found" is a wrong path (base URL), not a missing model
        if (code == 404 && model != null && lower.contains("not found") && lower.contains("model")) {
            return new ModelNotFoundException("model '" + model + "' is not on the Ollama server at " + base + " ("
                    + error + "); run: ollama pull " + model);
        }
        if (code == 429 || code == 502 || code == 503) {
            return new LlmUnavailableException("Ollama at " + base + " is not ready (HTTP " + code + ": " + error
                    + "); is Ollama running and not overloaded? Try again shortly");
        }
        if (code == 408 || code == 504) {
            // a proxy (or the server) in front of Ollama gave up waiting; not retried: a retry would wait as long again
            // (OkHttp itself repeats a request once after a 408, which the server by definition did not process)
            return new LlmTimeoutException("Ollama at " + base + " answered HTTP " + code + " ("
                    + (code == 504 ? "gateway timeout" : "request timeout") + ": " + error + "): a proxy or server in"
                    + " front of Ollama stopped waiting for the answer; raise that proxy's or server's time limit"
                    + " (e.g. its read or proxy timeout), or use a smaller model");
        }
        String fix = code == 404 ? "check that the base URL is the Ollama server itself, e.g. "
                + "http://localhost:11434 (not an OpenAI-style .../v1 path)" : "check the Ollama server's log";
        return new ModelServerException(provider(), code, error, "Ollama at " + base + " answered HTTP " + code + ": "
                + error, fix);
    }
}
