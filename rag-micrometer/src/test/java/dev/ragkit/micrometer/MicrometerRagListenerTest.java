package dev.ragkit.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.generation.LlmBackend;
import dev.ragkit.generation.ModelInfo;
import dev.ragkit.generation.StreamHandler;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The observations and meters that one ask produces: cited, routed, without context, and failed. */
class MicrometerRagListenerTest {
    private static final String QUESTION = "How often do the API keys of Jane Doe rotate?";

    @TempDir
    Path root;
    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private InMemoryDocumentStore store;
    private Embedder embedder;

    @BeforeEach
    void index() throws IOException {
        observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        Files.writeString(root.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days. Run the rotate "
                + "command to replace a key early.\n");
        store = InMemoryDocumentStore.builder().build();
        embedder = new MeteredEmbedder(new HashedBagOfWordsEmbedder("word-hash-64", 64), meters);
        IndexReport report = Indexer.builder().store(new MeteredDocumentStore(store, meters, "in-memory"))
                .embedder(embedder).tenant("acme").listener(new MeteredIndexListener(
                        dev.ragkit.ingest.IndexListener.NONE, meters)).build().index(root);
        assertThat(report.filesIndexed()).isEqualTo(1);
    }

    private RagPipeline pipeline(LlmBackend backend, int threshold) {
        return RagPipeline.builder().store(new MeteredDocumentStore(store, meters, "in-memory")).embedder(embedder)
                .backend(backend).model(ExtractiveBackend.MODEL).selfRating(false).confidenceThreshold(threshold)
                .relevanceModel(RelevanceModel.fused())   // the question names Jane Doe, whom no document mentions
                .listener(new MicrometerRagListener(observations, meters, "support")).build();
    }

    @Test
    void meteredEmbedder_passesQueriesAndLimitsThroughToTheModel() {
        Embedder instructed = new HashedBagOfWordsEmbedder("instructed", 32) {
            @Override
            public float[][] embedQueries(java.util.List<String> queries) {
                return embed(queries.stream().map(q -> "query: " + q).toList());
            }

            @Override
            public int maxInputTokens() {
                return 7;
            }

            @Override
            public int inputTokens(String text) {
                return text.length();
            }
        };
        MeteredEmbedder metered = new MeteredEmbedder(instructed, meters);

        assertThat(metered.embedQueries(java.util.List.of("ferry"))[0])
                .containsExactly(instructed.embed(java.util.List.of("query: ferry"))[0]);
        assertThat(metered.maxInputTokens()).isEqualTo(7);
        assertThat(metered.inputTokens("abcd")).isEqualTo(4);
        assertThat(meters.get("ragkit.embedding.batch").tag("model", "instructed").timer().count()).isEqualTo(1);
    }

    @Test
    void aCitedAnswer_isOneRequestObservationWithItsStagesAndMeters() {
        RagResponse response = pipeline(new CountingBackend(), 0).ask(RagRequest.of(QUESTION, Scope.of("acme")));
        assertThat(response.citations()).isNotEmpty();

        assertThat(observations).hasNumberOfObservationsWithNameEqualTo(MicrometerRagListener.REQUEST, 1)
                .hasObservationWithNameEqualTo(MicrometerRagListener.REQUEST).that()
                .hasLowCardinalityKeyValue("outcome", "cited").hasLowCardinalityKeyValue("action", "cite")
                .hasLowCardinalityKeyValue("model", ExtractiveBackend.MODEL)
                .hasLowCardinalityKeyValue("pipeline", "support")
                .hasHighCardinalityKeyValue("request.id", response.requestId())
                .doesNotHaveHighCardinalityKeyValueWithKey("question").hasBeenStarted().hasBeenStopped();
        for (String stage : List.of("retrieve", "budget", "generate", "grounding", "audit")) {
            assertThat(meters.get(MicrometerRagListener.STAGE).tag("stage", stage).timer().count()).as(stage)
                    .isPositive();
        }
        assertThat(meters.get(MicrometerRagListener.REQUESTS).tag("outcome", "cited").counter().count())
                .isEqualTo(1);
        assertThat(meters.get(MicrometerRagListener.CONFIDENCE).summary().count()).isEqualTo(1);
        assertThat(meters.get(MicrometerRagListener.COMPLETION_TOKENS).summary().totalAmount()).isEqualTo(12);
        assertThat(meters.get(MicrometerRagListener.CONTEXT_TOKENS).summary().totalAmount())
                .isEqualTo(response.contextTokensUsed());
        assertThat(meters.get("ragkit.store.search").timer().count()).isPositive();
        assertThat(meters.get("ragkit.embedding.batch").timer().count()).isPositive();
        assertThat(meters.get("ragkit.index.files").tag("result", "indexed").counter().count()).isEqualTo(1);
        assertThat(meters.get("ragkit.index.progress").gauge().value()).isEqualTo(1.0);
        noMeterCarriesTheQuestion();
    }

    @Test
    void aRoutedAnswer_andAnEmptyContext_areCountedApart() {
        pipeline(new ExtractiveBackend(), 100).ask(RagRequest.of(QUESTION, Scope.of("acme")));
        pipeline(new ExtractiveBackend(), 0).ask(RagRequest.of(QUESTION, Scope.of("nobody")));

        assertThat(observations).hasNumberOfObservationsWithNameEqualTo(MicrometerRagListener.REQUEST, 2);
        assertThat(meters.get(MicrometerRagListener.REQUESTS).tags("outcome", "routed", "action", "route").counter()
                .count()).isEqualTo(1);
        assertThat(meters.get(MicrometerRagListener.REQUESTS).tag("outcome", "empty_context").counter().count())
                .isEqualTo(1);
        noMeterCarriesTheQuestion();
    }

    @Test
    void aFailedRequest_recordsTheErrorTypeOnTheRequestAndTheStage() {
        RagPipeline failing = pipeline(new DownBackend(), 0);

        assertThatThrownBy(() -> failing.ask(RagRequest.of(QUESTION, Scope.of("acme"))))
                .isInstanceOf(LlmUnavailableException.class);

        assertThat(observations).hasObservationWithNameEqualTo(MicrometerRagListener.REQUEST).that()
                .hasLowCardinalityKeyValue("outcome", "failed")
                .hasLowCardinalityKeyValue("error", "LlmUnavailableException").hasError();
        assertThat(meters.get(MicrometerRagListener.STAGE).tags("stage", "generate", "error",
                "LlmUnavailableException").timer().count()).isEqualTo(1);
        assertThat(meters.get(MicrometerRagListener.REQUESTS).tag("outcome", "failed").counter().count())
                .isEqualTo(1);
    }

    @Test
    void questionsAreRecordedOnlyWhenAskedFor() {
        RagPipeline optedIn = RagPipeline.builder().store(store).embedder(embedder).backend(new ExtractiveBackend())
                .model(ExtractiveBackend.MODEL).selfRating(false)
                .listener(new MicrometerRagListener(observations, meters, "support").recordQuestions(true)).build();

        optedIn.ask(RagRequest.of(QUESTION, Scope.of("acme")));

        assertThat(observations).hasObservationWithNameEqualTo(MicrometerRagListener.REQUEST).that()
                .hasHighCardinalityKeyValue("question", QUESTION);
        noMeterCarriesTheQuestion();                       // high-cardinality values never become meter tags
    }

    @Test
    void withATracingHandler_theStagesAreChildSpansOfTheRequestSpan() {
        SimpleTracer tracer = new SimpleTracer();
        ObservationRegistry traced = ObservationRegistry.create();
        traced.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
        RagPipeline pipeline = RagPipeline.builder().store(store).embedder(embedder).backend(new ExtractiveBackend())
                .model(ExtractiveBackend.MODEL).selfRating(false).confidenceThreshold(0)
                .relevanceModel(RelevanceModel.fused())
                .listener(new MicrometerRagListener(traced, meters, "support")).build();

        pipeline.ask(RagRequest.of(QUESTION, Scope.of("acme")));

        List<SimpleSpan> spans = List.copyOf(tracer.getSpans());
        SimpleSpan request = spans.stream().filter(s -> s.getName().equals("ragkit ask")).findFirst().orElseThrow();
        List<SimpleSpan> stages = spans.stream().filter(s -> s.getName().startsWith("ragkit ")
                && !s.getName().equals("ragkit ask")).toList();
        assertThat(stages).extracting(SimpleSpan::getName).contains("ragkit retrieve", "ragkit generate",
                "ragkit audit");
        assertThat(stages).allSatisfy(stage -> assertThat(stage.getParentId()).isEqualTo(request.getSpanId()));
        assertThat(request.getTags()).containsEntry("outcome", "cited").doesNotContainKey("question");
    }

    private void noMeterCarriesTheQuestion() {
        for (Meter meter : meters.getMeters()) {
            for (Tag tag : meter.getId().getTags()) {
                assertThat(tag.getValue()).as(meter.getId().toString()).doesNotContain("Jane").doesNotContain("rotate");
            }
        }
    }

    /** The extractive backend, reporting 12 generated tokens as a model server would. */
    private static final class CountingBackend implements LlmBackend {
        private final ExtractiveBackend quotes = new ExtractiveBackend();

        @Override
        public String name() {
            return quotes.name();
        }

        @Override
        public ChatResult chat(ChatRequest request) {
            ChatResult r = quotes.chat(request);
            return new ChatResult(r.text(), r.model(), r.finishReason(), 120, 12, r.duration());
        }

        @Override
        public Cancellable stream(ChatRequest request, StreamHandler handler) {
            return quotes.stream(request, handler);
        }

        @Override
        public ModelInfo modelInfo(String model) {
            return quotes.modelInfo(model);
        }

        @Override
        public HealthStatus health(String model) {
            return quotes.health(model);
        }
    }

    /** A backend whose server is down. */
    private static final class DownBackend implements LlmBackend {
        @Override
        public String name() {
            return "down";
        }

        @Override
        public ChatResult chat(ChatRequest request) {
            throw new LlmUnavailableException("cannot connect to the model server");
        }

        @Override
        public Cancellable stream(ChatRequest request, StreamHandler handler) {
            throw new LlmUnavailableException("cannot connect to the model server");
        }

        @Override
        public ModelInfo modelInfo(String model) {
            return new ModelInfo(model, 8192, 1024);
        }

        @Override
        public HealthStatus health(String model) {
            return new HealthStatus(false, false, Duration.ZERO, null, "down");
        }
    }
}
