package dev.ragkit.onnx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The extractive backend with a real model beside the question's words: it quotes the sentence that answers though
 * the sentence shares no word with the question, which the words alone never quote.
 */
final class ExtractiveQuotesWithModelTest {

    private static final String CLIMATE = """
            Lakeport has a continental climate with four distinct seasons.
            Summers are warm, with July afternoons near 27 degrees.
            The coldest month is January, when nights fall to minus 11 degrees on average.
            Rain is most frequent in late spring.""";

    private static ChatRequest prompt(String question) {
        StoredDocument d = StoredDocument.builder().tenant("t").path("lakeport.md").title("Lakeport")
                .charCount(CLIMATE.length()).build();
        StoredChunk c = new StoredChunk(d.id(), 0, CLIMATE, null, 60, 1, 4, "Climate", null);
        ContextBlock block = new ContextBlock(ContextBlock.Kind.RELEVANT, d, c, CLIMATE, 1, 4, 0.8, 0.8, 0.8, null,
                false);
        return ChatRequest.of(ExtractiveBackend.MODEL, PromptBuilder.standard().messages(List.of(block), List.of(),
                question));
    }

    @Test
    void chat_withMiniLmOrBge_quotesTheColdestMonthForAQuestionAboutWinter() {
        ChatRequest asked = prompt("How cold does it get in winter in Lakeport?");

        String wordsAlone = new ExtractiveBackend(2).chat(asked).text();

        assertThat(wordsAlone).contains("continental climate").doesNotContain("minus 11");
        for (String name : List.of("all-minilm-l6-v2-q", "bge-small-en-v1.5-q")) {
            Embedder model = Embedders.load(name);
            String withModel = new ExtractiveBackend(2, model).chat(asked).text();
            assertThat(withModel).as(name).contains("The coldest month is January, when nights fall to minus 11");
        }
    }
}
