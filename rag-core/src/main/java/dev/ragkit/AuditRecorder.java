package dev.ragkit;

import dev.ragkit.audit.AuditOperation;
import dev.ragkit.audit.AuditOutcome;
import dev.ragkit.audit.AuditRecord;
import dev.ragkit.audit.AuditTrail;
import dev.ragkit.audit.QueryRedaction;
import dev.ragkit.grounding.Action;
import dev.ragkit.prompt.Prompt;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.jspecify.annotations.Nullable;

/**
 * Writes the one audit record of each request, whatever its outcome, under the pipeline's failure policy (through
 * an {@link AuditTrail}), with the question redacted as configured. Thread-safe.
 */
final class AuditRecorder {
    private final AuditTrail trail;
    private final QueryRedaction redaction;

    AuditRecorder(AuditTrail trail, QueryRedaction redaction) {
        this.trail = trail;
        this.redaction = redaction;
    }

    /**
     * Audits an answered request.
     *
     * @return the response, flagged {@link ResponseFlag#AUDIT_NOT_WRITTEN} when the record could not be written
     * @throws dev.ragkit.error.AuditException under {@code FAIL_REQUEST} when the sink fails
     */
    RagResponse answered(Exchange x, Plan plan, RagResponse response) {
        AuditOutcome outcome;
        if (plan.isFixed() || plan.withoutContext()) {
            outcome = response.action() == Action.DECLINE ? AuditOutcome.DECLINED : AuditOutcome.EMPTY_CONTEXT;
        } else {
            outcome = response.action() == Action.CITE ? AuditOutcome.ANSWERED : AuditOutcome.ROUTED;
        }
        String problem = trail.write(record(x, plan, response.modelUsed(), outcome, response.action().name(),
                response.confidence().overall(), null, reason(response)), null);
        return problem == null ? response : ResponseBuilder.withFlag(response, ResponseFlag.AUDIT_NOT_WRITTEN);
    }

    /** Why the documents did not answer: the route's reason, or for a decline the confidence's explanation. */
    private static @Nullable String reason(RagResponse response) {
        if (response.routeTo() != null) {
            return response.routeTo().reason();
        }
        return response.action() == Action.DECLINE ? response.confidence().explanation() : null;
    }

    /**
     * Audits a failed or cancelled request; never hides {@code error}. The caller writes one record per request: this
     * or {@link #answered}, never both.
     *
     * @param plan the plan, when the failure came after planning; else {@code null}
     */
    void failed(Exchange x, @Nullable Plan plan, Throwable error) {
        boolean cancelled = error instanceof CancellationException;
        trail.write(record(x, plan, plan != null ? plan.asked().model() : x.requestedModel,
                cancelled ? AuditOutcome.CANCELLED : AuditOutcome.ERROR, null, null,
                cancelled ? null : error.getClass().getName(), null), error);
    }

    private AuditRecord record(Exchange x, @Nullable Plan plan, String model, AuditOutcome outcome,
            @Nullable String action, @Nullable Integer confidence, @Nullable String errorType,
            @Nullable String reason) {
        Prompt p = plan == null ? null : plan.prompt();
        RagRequest request = x.request;
        return AuditRecord.builder(AuditOperation.ASK).timestamp(x.timestamp).requestId(request.requestId())
                .tenant(request.scope().tenant()).query(request.query(), redaction)
                .sourceIds(p == null ? List.of() : p.sourceIds()).contextTokens(p == null ? 0 : p.contextTokens())
                .model(model).action(action).confidence(confidence).latencyMillis(x.elapsed().toMillis())
                .outcome(outcome, errorType).retrievalQuery(plan == null ? null : plan.asked().retrievalQuery(),
                        redaction).reason(reason).build();
    }
}
