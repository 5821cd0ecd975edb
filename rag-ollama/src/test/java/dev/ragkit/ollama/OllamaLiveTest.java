package dev.ragkit.ollama;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.HealthStatus;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Against a real Ollama server: runs only when {@code OLLAMA_BASE_URL} is set and answers {@code GET /api/version};
 * skipped otherwise. The chat runs only when the default model {@code llama3.2} is pulled.
 */
final class OllamaLiveTest {
    private static final String MODEL = "llama3.2";

    private static @Nullable String skipReason;
    private static @Nullable OllamaBackend backend;

    @BeforeAll
    static void findServer() {
        String url = System.getenv("OLLAMA_BASE_URL");
        if (url == null || url.isBlank()) {
            skipReason = "OLLAMA_BASE_URL is not set: no live Ollama server to test";
        } else if (!answersVersion(url)) {
            skipReason = "OLLAMA_BASE_URL=" + url + " does not answer /api/version";
        } else {
            backend = OllamaBackend.builder().baseUrl(url).callTimeout(Duration.ofMinutes(5))
                    .readTimeout(Duration.ofMinutes(5)).build();
        }
    }

    /** Each test reports as skipped, rather than the class vanishing from the report. */
    @BeforeEach
    void requireServer() {
        assumeTrue(backend != null, skipReason);
    }

    @AfterAll
    static void close() {
        if (backend != null) {
            backend.close();
        }
    }

    private static OllamaBackend live() {
        return Objects.requireNonNull(backend, "backend");
    }

    private static boolean answersVersion(String url) {
        HttpUrl base = HttpUrl.parse(url.endsWith("/") ? url : url + "/");
        if (base == null) {
            return false;
        }
        OkHttpClient client = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(3)).build();
        try (Response response = client.newCall(new Request.Builder()
                .url(base.newBuilder().addPathSegments("api/version").build()).build()).execute()) {
            return response.isSuccessful();
        } catch (Exception e) {
            return false;
        } finally {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }

    @Test
    void health_liveServer_isReachableWithAVersion() {
        HealthStatus health = live().health(MODEL);

        assertThat(health.reachable()).as(health.detail()).isTrue();
        assertThat(health.version()).isNotBlank();
        assertThat(health.latency()).isPositive();
    }

    @Test
    void availableModels_liveServer_listsTaggedNames() {
        List<String> models = live().availableModels();

        assertThat(models).allSatisfy(name -> assertThat(name).isNotBlank());
        assertThat(live().isAvailable(MODEL)).isEqualTo(OllamaBackend.matches(models, MODEL));
    }

    @Test
    void chat_defaultModelPresent_answersAndReportsUsage() {
        assumeTrue(live().isAvailable(MODEL), MODEL + " is not pulled on the live server; run: ollama pull " + MODEL);

        ChatResult result = live().chat(new ChatRequest(MODEL,
                List.of(ChatMessage.user("Reply with the single word: pong")), 0.0, 16, 2048, 7L));

        assertThat(result.text()).isNotBlank();
        assertThat(result.promptTokens()).isNotNull().isPositive();
        assertThat(live().modelInfo(MODEL).contextWindow()).isPositive();
    }
}
