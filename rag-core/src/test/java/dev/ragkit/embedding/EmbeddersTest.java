package dev.ragkit.embedding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.RagException;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Embedders by name through ServiceLoader; {@link ToyEmbedderProvider} is registered in the test resources. */
final class EmbeddersTest {

    @Test
    void load_registeredName_createsThatEmbedderWithItsSettings() {
        Embedder embedder = Embedders.load("toy-bow", Map.of("dimension", "12"));

        assertThat(embedder.name()).isEqualTo("toy-bow");
        assertThat(embedder.dimension()).isEqualTo(12);
        assertThat(embedder.embed(List.of("a text"))[0]).hasSize(12);
    }

    @Test
    void load_familyName_goesToTheProviderOfThatPrefix() {
        Embedder embedder = Embedders.load("toy:anything-at-all");

        assertThat(embedder.name()).isEqualTo("toy:anything-at-all");
    }

    @Test
    void load_unknownName_listsTheNamesFoundAndHowOllamaModelsAreNamed() {
        assertThatThrownBy(() -> Embedders.load("bge-large"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no embedder named 'bge-large'")
                .hasMessageContaining("toy-bow")
                .hasMessageContaining("toy:<model>")
                .hasMessageContaining("ollama:<model>");
        assertThatThrownBy(() -> Embedders.load("toy:")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void available_listsEveryNameWithItsProvider() {
        assertThat(Embedders.available()).containsKeys("toy-bow", "toy:");
    }

    @Test
    void byName_twoProvidersServingOneName_failNamingBoth() {
        assertThatThrownBy(() -> Embedders.byName(List.of(new ToyEmbedderProvider(), new ToyEmbedderProvider())))
                .isInstanceOf(RagException.class)
                .hasMessageContaining("two embedder providers serve 'toy-bow'");
    }

    @Test
    void embedQueries_byDefault_embedsLikeDocuments() {
        Embedder plain = Embedders.load("toy-bow");

        assertThat(plain.embedQueries(List.of("where is the ferry"))[0])
                .containsExactly(plain.embed(List.of("where is the ferry"))[0]);
        assertThat(plain.maxInputTokens()).isZero();
        assertThat(plain.inputTokens("three little words")).isEqualTo(-1);
    }

    /** A test provider: {@code toy-bow} (setting {@code dimension}) and the family {@code toy:}. */
    public static final class ToyEmbedderProvider implements EmbedderProvider {
        @Override
        public List<String> names() {
            return List.of("toy-bow", "toy:");
        }

        @Override
        public Embedder create(String name, Map<String, String> config) {
            int dimension = Integer.parseInt(config.getOrDefault("dimension", "8"));
            return new HashedBagOfWordsEmbedder(name, dimension);
        }
    }
}
