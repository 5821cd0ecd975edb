package dev.ragkit;

import dev.ragkit.generation.ChatResult;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.retrieval.RetrievedContext;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link RagListener} whose exceptions (in any event of a request or a stage) are logged and ignored, so a listener
 * can never fail a request.
 */
final class SafeListener implements RagListener {
    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);
    private final RagListener delegate;

    SafeListener(RagListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public Request requestStarted(RagRequest request) {
        Request r = call(() -> delegate.requestStarted(request), Request.NONE);
        return new SafeRequest(r == null ? Request.NONE : r);
    }

    private final class SafeRequest implements Request {
        private final Request events;

        SafeRequest(Request events) {
            this.events = events;
        }

        @Override
        public Stage stageStarted(String stage) {
            Stage s = call(() -> events.stageStarted(stage), Stage.NONE);
            Stage started = s == null ? Stage.NONE : s;
            return (@Nullable Throwable error) -> run(() -> started.stopped(error));
        }

        @Override
        public void modelChosen(String model) {
            run(() -> events.modelChosen(model));
        }

        @Override
        public void retrieved(RetrievedContext context) {
            run(() -> events.retrieved(context));
        }

        @Override
        public void promptBuilt(Prompt prompt) {
            run(() -> events.promptBuilt(prompt));
        }

        @Override
        public void generated(ChatResult result) {
            run(() -> events.generated(result));
        }

        @Override
        public void responded(RagResponse response) {
            run(() -> events.responded(response));
        }

        @Override
        public void failed(Throwable error) {
            run(() -> events.failed(error));
        }
    }

    private void run(Runnable event) {
        call(() -> {
            event.run();
            return null;
        }, null);
    }

    private <T> @Nullable T call(Supplier<T> event, @Nullable T otherwise) {
        try {
            return event.get();
        } catch (RuntimeException e) {
            LOG.warn("RagListener {} threw; ignored", delegate.getClass().getName(), e);
            return otherwise;
        }
    }
}
