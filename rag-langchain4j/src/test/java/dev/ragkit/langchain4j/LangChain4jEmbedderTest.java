package dev.ragkit.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.RagException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

final class LangChain4jEmbedderTest {

    /** A LangChain4j embedding model answering with a scripted function of the batch; records every batch. */
    static class FakeEmbeddingModel implements EmbeddingModel {
        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        private final String modelName;
        private final int dimension;
        private final Function<List<String>, List<Embedding>> answer;

        FakeEmbeddingModel(String modelName, int dimension, Function<List<String>, List<Embedding>> answer) {
            this.modelName = modelName;
            this.dimension = dimension;
            this.answer = answer;
        }

        /** Embeds text i as (length, i + 1, 0, ...). */
        static FakeEmbeddingModel counting(String modelName, int dimension) {
            return new FakeEmbeddingModel(modelName, dimension, texts -> {
                List<Embedding> out = new ArrayList<>();
                for (int i = 0; i < texts.size(); i++) {
                    float[] v = new float[dimension];
                    v[0] = texts.get(i).length();
                    v[1] = i + 1;
                    out.add(Embedding.from(v));
                }
                return out;
            });
        }

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            List<String> texts = segments.stream().map(TextSegment::text).toList();
            batches.add(texts);
            return Response.from(answer.apply(texts));
        }

        @Override
        public int dimension() {
            return dimension;
        }

        @Override
        public String modelName() {
            return modelName;
        }
    }

    @Test
    void embed_batch_returnsOneVectorPerTextInOrderInOneCall() {
        FakeEmbeddingModel model = FakeEmbeddingModel.counting("mini", 4);
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(model);

        float[][] vectors = embedder.embed(List.of("a", "bbb", "cc"));

        assertThat(vectors).hasNumberOfRows(3);
        assertThat(vectors[0]).containsExactly(1f, 1f, 0f, 0f);
        assertThat(vectors[1]).containsExactly(3f, 2f, 0f, 0f);
        assertThat(vectors[2]).containsExactly(2f, 3f, 0f, 0f);
        assertThat(model.batches).containsExactly(List.of("a", "bbb", "cc"));
    }

    @Test
    void of_modelReportingNameAndDimension_usesThem() {
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(FakeEmbeddingModel.counting("all-minilm-l6-v2", 384));

        assertThat(embedder.name()).isEqualTo("all-minilm-l6-v2");
        assertThat(embedder.dimension()).isEqualTo(384);
    }

    @Test
    void of_modelReportingUnknownName_isNamedAfterItsClass() {
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(FakeEmbeddingModel.counting("unknown", 4));

        assertThat(embedder.name()).isEqualTo("FakeEmbeddingModel");
    }

    @Test
    void of_givenNameAndDimension_neverAsksTheModel() {
        EmbeddingModel model = new FakeEmbeddingModel("x", 4, texts -> List.of()) {
            @Override
            public int dimension() {
                throw new AssertionError("dimension() must not be called");
            }
        };

        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(model, "custom", 8);

        assertThat(embedder.name()).isEqualTo("custom");
        assertThat(embedder.dimension()).isEqualTo(8);
    }

    @Test
    void embed_modelReturnsFewerVectors_throwsRagExceptionNamingModelAndCounts() {
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(new FakeEmbeddingModel("short", 2,
                texts -> List.of(Embedding.from(new float[] {1f, 0f}))));

        assertThatThrownBy(() -> embedder.embed(List.of("a", "b")))
                .isInstanceOf(RagException.class).hasMessageContaining("'short'").hasMessageContaining("1 embeddings for 2");
    }

    @Test
    void embed_vectorOfWrongDimension_throwsRagExceptionNamingDimensions() {
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(new FakeEmbeddingModel("wide", 2,
                texts -> List.of(Embedding.from(new float[] {1f, 0f, 0f}))));

        assertThatThrownBy(() -> embedder.embed(List.of("a")))
                .isInstanceOf(RagException.class).hasMessageContaining("dimension 3").hasMessageContaining("dimension 2");
    }

    @Test
    void embed_nonFiniteOrZeroVector_throwsRagException() {
        LangChain4jEmbedder nan = LangChain4jEmbedder.of(new FakeEmbeddingModel("nan", 2,
                texts -> List.of(Embedding.from(new float[] {Float.NaN, 1f}))));
        LangChain4jEmbedder zero = LangChain4jEmbedder.of(new FakeEmbeddingModel("zero", 2,
                texts -> List.of(Embedding.from(new float[] {0f, 0f}))));

        assertThatThrownBy(() -> nan.embed(List.of("a"))).isInstanceOf(RagException.class).hasMessageContaining("non-finite");
        assertThatThrownBy(() -> zero.embed(List.of("a"))).isInstanceOf(RagException.class).hasMessageContaining("all-zero");
    }

    @Test
    void embed_modelTimesOut_throwsLlmTimeoutException() {
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(new FakeEmbeddingModel("slow", 2, texts -> {
            throw new TimeoutException("read timed out");
        }));

        assertThatThrownBy(() -> embedder.embed(List.of("a")))
                .isInstanceOf(LlmTimeoutException.class).hasMessageContaining("'slow'").hasMessageContaining("read timed out")
                .hasCauseInstanceOf(TimeoutException.class);
    }

    @Test
    void embed_serverError_throwsRetriableLlmUnavailableException() {
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(new FakeEmbeddingModel("down", 2, texts -> {
            throw new InternalServerException("503 from server");
        }));

        assertThatThrownBy(() -> embedder.embed(List.of("a")))
                .isInstanceOfSatisfying(LlmUnavailableException.class, e -> assertThat(e.isRetriable()).isTrue())
                .hasMessageContaining("503 from server");
    }

    @Test
    void embed_blankText_throwsIllegalArgumentNamingItsPosition() {
        FakeEmbeddingModel model = FakeEmbeddingModel.counting("mini", 4);
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(model);

        assertThatThrownBy(() -> embedder.embed(List.of("a", "  ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("text 1 of 2 is blank");
        assertThat(model.batches).isEmpty();
    }

    @Test
    void embed_returnedVectors_areCopiesTheModelCannotChange() {
        float[] shared = {1f, 2f};
        LangChain4jEmbedder embedder = LangChain4jEmbedder.of(new FakeEmbeddingModel("shared", 2,
                texts -> List.of(new Embedding(shared))));

        float[][] vectors = embedder.embed(List.of("a"));
        shared[0] = 99f;

        assertThat(vectors[0]).containsExactly(1f, 2f);
    }
}
