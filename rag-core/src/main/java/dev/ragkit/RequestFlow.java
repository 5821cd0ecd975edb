package dev.ragkit;

import dev.ragkit.generation.ChatResult;
import org.jspecify.annotations.Nullable;

/**
 * The stages of a request as one chain, shared by {@link RagPipeline#ask} and the streamed {@code StreamCall}: each
 * takes the previous stage's result and returns its own — {@link Planner#plan} (asked → retrieved → budgeted) → the
 * model's answer (asked whole, or streamed: the only step that differs) → {@link Responder#respond} → the audit
 * record. Exactly one audit record per request: {@link #finish} or {@link #fail}, never both. Thread-safe.
 */
final class RequestFlow {
    private final Planner planner;
    private final Responder responder;
    private final AuditRecorder audit;

    RequestFlow(Planner planner, Responder responder, AuditRecorder audit) {
        this.planner = planner;
        this.responder = responder;
        this.audit = audit;
    }

    /** Model → retrieval → budget → prompt (or the empty-context plan). */
    Plan plan(Exchange x) {
        return planner.plan(x);
    }

    /** The model's answer, grounded into the response. */
    RagResponse respond(Exchange x, Plan plan, ChatResult result) {
        return responder.respond(x, plan, result);
    }

    /**
     * Audits the response; the listener hears of it. When the audit itself fails the request (policy
     * {@code FAIL_REQUEST}), the listener hears of that failure, and no second record is written.
     */
    RagResponse finish(Exchange x, Plan plan, RagResponse response) {
        RagResponse audited;
        try {
            audited = x.time("audit", () -> audit.answered(x, plan, response));
        } catch (RuntimeException | Error e) {
            x.events.failed(e);
            throw e;
        }
        x.events.responded(audited);
        return audited;
    }

    /** Audits a failure (before or after planning); the listener hears of it. */
    void fail(Exchange x, @Nullable Plan plan, Throwable error) {
        audit.failed(x, plan, error);
        x.events.failed(error);
    }
}
