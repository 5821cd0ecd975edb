package dev.ragkit.micrometer;

import dev.ragkit.RagListener;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.grounding.Action;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RagListener} that makes each request a Micrometer {@link Observation} named {@value #REQUEST}, and each of
 * its stages a child observation named {@value #STAGE} — with Micrometer's default meter handler they become timers
 * (latency histograms per stage), with Micrometer Tracing's handler spans (parent and children). Beside them it
 * records: {@value #REQUESTS} (counter by {@code action} and {@code outcome}: cited, routed, empty_context, failed),
 * {@value #CONFIDENCE} (the overall score, 0–100), {@value #PROMPT_TOKENS}, {@value #COMPLETION_TOKENS},
 * {@value #CONTEXT_TOKENS} and
 * {@value #CONTEXT_CHUNKS}.
 *
 * <p>Tags are low-cardinality only: {@code stage}, {@code model}, {@code action}, {@code outcome}, {@code error}
 * (the exception's simple class name) and the {@code pipeline} name given here. Request ids and source counts are
 * high-cardinality values: on spans, never on meters. The question text is recorded nowhere unless
 * {@link #recordQuestions(boolean)} turns it on (then only on the request span, as for the audit's query redaction).
 *
 * <pre>{@code
 * RagPipeline rag = RagPipeline.builder()...listener(new MicrometerRagListener(observations, meters, "support")).build();
 * }</pre>
 * Thread-safe.
 */
public final class MicrometerRagListener implements RagListener {
    /** The request observation's name. */
    public static final String REQUEST = "ragkit.request";
    /** The stage observations' name. */
    public static final String STAGE = "ragkit.stage";
    /** Requests by action and outcome. */
    public static final String REQUESTS = "ragkit.requests";
    /** The overall confidence of answered requests. */
    public static final String CONFIDENCE = "ragkit.confidence";
    /** Prompt tokens sent to the model. */
    public static final String PROMPT_TOKENS = "ragkit.tokens.prompt";
    /** Tokens the model generated. */
    public static final String COMPLETION_TOKENS = "ragkit.tokens.completion";
    /** Context tokens used in the prompt. */
    public static final String CONTEXT_TOKENS = "ragkit.context.tokens";
    /** Context chunks used in the prompt. */
    public static final String CONTEXT_CHUNKS = "ragkit.context.chunks";

    private final ObservationRegistry observations;
    private final MeterRegistry meters;
    private final String pipeline;
    private volatile boolean recordQuestions;

    /**
     * @param observations where observations go (with a meter handler and, for traces, a tracing handler)
     * @param meters       where the other meters go
     * @param pipeline     a low-cardinality name for this pipeline, e.g. {@code support}
     */
    public MicrometerRagListener(ObservationRegistry observations, MeterRegistry meters, String pipeline) {
        this.observations = Objects.requireNonNull(observations, "observations");
        this.meters = Objects.requireNonNull(meters, "meters");
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    }

    /**
     * @param record whether the request span carries the question text (off by default; questions can hold
     *               personal data)
     * @return this listener
     */
    public MicrometerRagListener recordQuestions(boolean record) {
        this.recordQuestions = record;
        return this;
    }

    @Override
    public Request requestStarted(RagRequest request) {
        Observation observation = Observation.createNotStarted(REQUEST, observations)
                .contextualName("ragkit ask").lowCardinalityKeyValue("pipeline", pipeline)
                .highCardinalityKeyValue("request.id", request.requestId());
        if (recordQuestions) {
            observation.highCardinalityKeyValue("question", request.query());
        }
        return new ObservedRequest(observation.start());
    }

    /** One request's observation. */
    private final class ObservedRequest implements Request {
        private final Observation observation;
        private volatile String model = "unknown";

        ObservedRequest(Observation observation) {
            this.observation = observation;
        }

        @Override
        public Stage stageStarted(String stage) {
            Observation child = Observation.createNotStarted(STAGE, observations).parentObservation(observation)
                    .contextualName("ragkit " + stage).lowCardinalityKeyValue("stage", stage)
                    .lowCardinalityKeyValue("pipeline", pipeline).start();
            return error -> {
                if (error != null) {
                    child.lowCardinalityKeyValue("error", error.getClass().getSimpleName()).error(error);
                }
                child.stop();
            };
        }

        @Override
        public void modelChosen(String chosen) {
            this.model = chosen;
            observation.lowCardinalityKeyValue("model", chosen);
        }

        @Override
        public void generated(ChatResult result) {
            if (result.completionTokens() != null) {
                summary(COMPLETION_TOKENS, "tokens", "tokens the model generated").record(result.completionTokens());
            }
        }

        @Override
        public void responded(RagResponse response) {
            String outcome = response.contextChunksUsed() == 0 && response.sources().isEmpty() ? "empty_context"
                    : response.action() == Action.CITE ? "cited" : "routed";
            String action = response.action().name().toLowerCase(Locale.ROOT);
            observation.lowCardinalityKeyValue("action", action).lowCardinalityKeyValue("outcome", outcome)
                    .lowCardinalityKeyValue("error", "none")
                    .highCardinalityKeyValue("sources", Integer.toString(response.sources().size()))
                    .highCardinalityKeyValue("citations", Integer.toString(response.citations().size()));
            count(action, outcome, "none");
            DistributionSummary.builder(CONFIDENCE).baseUnit("points").description("overall confidence, 0-100")
                    .tags("pipeline", pipeline, "action", action).publishPercentileHistogram()
                    .register(meters).record(response.confidence().overall());
            summary(PROMPT_TOKENS, "tokens", "prompt tokens sent to the model").record(response.promptTokens());
            summary(CONTEXT_TOKENS, "tokens", "context tokens in the prompt").record(response.contextTokensUsed());
            summary(CONTEXT_CHUNKS, "chunks", "context chunks in the prompt").record(response.contextChunksUsed());
            observation.stop();
        }

        @Override
        public void failed(Throwable error) {
            String type = error.getClass().getSimpleName();
            observation.lowCardinalityKeyValue("action", "none").lowCardinalityKeyValue("outcome", "failed")
                    .lowCardinalityKeyValue("error", type).error(error);
            count("none", "failed", type);
            observation.stop();
        }

        private void count(String action, String outcome, String error) {
            Counter.builder(REQUESTS).description("RagKit requests by action and outcome")
                    .tags("pipeline", pipeline, "model", model, "action", action, "outcome", outcome, "error", error)
                    .register(meters).increment();
        }

        private DistributionSummary summary(String name, String unit, String description) {
            return DistributionSummary.builder(name).baseUnit(unit).description(description)
                    .tags("pipeline", pipeline, "model", model).register(meters);
        }
    }

    @Override
    public String toString() {
        return "MicrometerRagListener[" + pipeline + "]";
    }

    static String tagOf(@Nullable String value) {
        return value == null || value.isBlank() ? "none" : value;
    }
}
