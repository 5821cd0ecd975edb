package dev.ragkit.server;

import static dev.ragkit.server.ServerFixture.ACME_TOKEN;
import static dev.ragkit.server.ServerFixture.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.ragkit.generation.ExtractiveBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenAI-compatible routes driven by the official OpenAI Java library, as a chat front end would. */
final class OpenAiClientTest {
    @TempDir
    Path dir;
    private ServerFixture fixture;
    private OpenAIClient client;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir).startWithTokens(new ExtractiveBackend(), b -> { });
        client = OpenAIOkHttpClient.builder().baseUrl(fixture.base() + "/v1").apiKey(ACME_TOKEN).maxRetries(0)
                .build();
    }

    @AfterEach
    void stop() {
        client.close();
        fixture.close();
    }

    private static ChatCompletionCreateParams question(String text) {
        return ChatCompletionCreateParams.builder().model("ragkit").addUserMessage(text).build();
    }

    @Test
    void models_listRagkit() {
        assertThat(client.models().list().data()).extracting(m -> m.id()).containsExactly("ragkit");
    }

    @Test
    void chat_answersWithNumberedReferencesAndACitationsField() {
        ChatCompletion completion = client.chat().completions().create(question("How often do API keys rotate?"));
        String text = completion.choices().get(0).message().content().orElseThrow();
        assertThat(text).contains("ninety days").contains("[1]").contains("Sources:").contains("[1] keys.md")
                .doesNotContain("SourceId");
        assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        JsonValue citations = completion._allProperties().get("citations");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list = citations.convert(List.class);
        assertThat(list).isNotEmpty();
        assertThat(list.get(0)).containsEntry("path", "keys.md").containsKey("startLine");
        assertThat(((Number) list.get(0).get("number")).intValue()).isEqualTo(1);
        assertThat(completion._allProperties().get("action").convert(String.class)).isEqualTo("CITE");
    }

    @Test
    void chat_routedAnswer_saysWhoToAsk() {
        ChatCompletion completion = client.chat().completions().create(
                question("What does the canteen serve on Fridays?"));
        String text = completion.choices().get(0).message().content().orElseThrow();
        assertThat(text).contains("Routed: ask " + ADMIN);
        assertThat(completion._allProperties().get("action").convert(String.class)).isEqualTo("ROUTE");
    }

    @Test
    void chat_streaming_sendsTheSameAnswerInChunks() {
        String whole = client.chat().completions().create(question("How often do API keys rotate?")).choices()
                .get(0).message().content().orElseThrow();
        StringBuilder text = new StringBuilder();
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(
                question("How often do API keys rotate?"))) {
            stream.stream().forEach(chunk -> {
                chunks.add(chunk);
                chunk.choices().forEach(c -> c.delta().content().ifPresent(text::append));
            });
        }
        assertThat(chunks.size()).isGreaterThan(2);
        assertThat(text.toString()).isEqualTo(whole);
        ChatCompletionChunk last = chunks.get(chunks.size() - 1);
        assertThat(last.choices().get(0).finishReason()).contains(ChatCompletionChunk.Choice.FinishReason.STOP);
        assertThat(last._allProperties()).containsKey("citations");
    }

    @Test
    void chat_withAWrongKey_isUnauthorized() {
        OpenAIClient wrong = OpenAIOkHttpClient.builder().baseUrl(fixture.base() + "/v1")
                .apiKey("wrong-token-0123456789").maxRetries(0).build();
        try {
            assertThatThrownBy(() -> wrong.chat().completions().create(question("keys?")))
                    .isInstanceOf(UnauthorizedException.class);
        } finally {
            wrong.close();
        }
    }
}
