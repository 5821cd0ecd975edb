package dev.ragkit;

import dev.ragkit.prompt.Prompt;
import dev.ragkit.retrieval.RetrievedContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link RagListener} whose exceptions are logged and ignored, so an observer can never fail a request. */
final class SafeListener implements RagListener {
    private static final Logger LOG = LoggerFactory.getLogger(SafeListener.class);
    private final RagListener delegate;

    SafeListener(RagListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public void requestStarted(RagRequest request) {
        run(() -> delegate.requestStarted(request));
    }

    @Override
    public void retrieved(RagRequest request, RetrievedContext context) {
        run(() -> delegate.retrieved(request, context));
    }

    @Override
    public void promptBuilt(RagRequest request, Prompt prompt) {
        run(() -> delegate.promptBuilt(request, prompt));
    }

    @Override
    public void responded(RagRequest request, RagResponse response) {
        run(() -> delegate.responded(request, response));
    }

    @Override
    public void failed(RagRequest request, Throwable error) {
        run(() -> delegate.failed(request, error));
    }

    private void run(Runnable event) {
        try {
            event.run();
        } catch (RuntimeException e) {
            LOG.warn("RagListener {} threw; ignored", delegate.getClass().getName(), e);
        }
    }
}
