package dev.ragkit;

import dev.ragkit.generation.ChatResult;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.retrieval.RetrievedContext;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@link RagListener#all}: every event to each listener, in order. */
record AllListeners(List<RagListener> listeners) implements RagListener {

    @Override
    public Request requestStarted(RagRequest request) {
        List<Request> requests = new ArrayList<>(listeners.size());
        for (RagListener l : listeners) {
            requests.add(l.requestStarted(request));
        }
        return new AllRequests(requests);
    }

    /** One request's events to each listener's {@link Request}. */
    private record AllRequests(List<Request> requests) implements Request {
        @Override
        public Stage stageStarted(String stage) {
            List<Stage> stages = new ArrayList<>(requests.size());
            requests.forEach(r -> stages.add(r.stageStarted(stage)));
            return (@Nullable Throwable error) -> stages.forEach(s -> s.stopped(error));
        }

        @Override
        public void modelChosen(String model) {
            requests.forEach(r -> r.modelChosen(model));
        }

        @Override
        public void retrieved(RetrievedContext context) {
            requests.forEach(r -> r.retrieved(context));
        }

        @Override
        public void promptBuilt(Prompt prompt) {
            requests.forEach(r -> r.promptBuilt(prompt));
        }

        @Override
        public void generated(ChatResult result) {
            requests.forEach(r -> r.generated(result));
        }

        @Override
        public void responded(RagResponse response) {
            requests.forEach(r -> r.responded(response));
        }

        @Override
        public void failed(Throwable error) {
            requests.forEach(r -> r.failed(error));
        }
    }
}
