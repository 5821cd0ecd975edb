package dev.ragkit.langchain4j;

import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import dev.ragkit.error.LlmTimeoutException;
import dev.ragkit.error.LlmUnavailableException;
import dev.ragkit.error.ModelNotFoundException;
import dev.ragkit.error.RagException;

/** Turns what a LangChain4j model threw into RagKit's exception for what the caller should do next. */
final class Failures {

    private Failures() {
    }

    /**
     * @param e    what the LangChain4j component threw
     * @param what the failed operation and the component, e.g. {@code "chat with LangChain4j model OpenAiChatModel"}
     * @return the RagKit exception to throw, with {@code e} as its cause
     */
    static RagException translate(RuntimeException e, String what) {
        if (e instanceof RagException rag) {
            return rag;
        }
        String cause = e.getMessage() == null ? e.getClass().getName() : e.getClass().getSimpleName() + ": " + e.getMessage();
        if (e instanceof TimeoutException) {
            return new LlmTimeoutException(what + " timed out (" + cause + "); raise the timeout of the LangChain4j"
                    + " model or retry later", e);
        }
        if (e instanceof dev.langchain4j.exception.ModelNotFoundException) {
            return new ModelNotFoundException(what + " failed: the server does not know the model (" + cause
                    + "); check the model name configured on the LangChain4j model", e);
        }
        if (e instanceof AuthenticationException) {
            return new RagException(what + " was refused (" + cause + "); check the API key or credentials"
                    + " configured on the LangChain4j model", e);
        }
        if (e instanceof RetriableException || e instanceof UnresolvedModelServerException) {
            return new LlmUnavailableException(what + " failed (" + cause + "); the server may be down or"
                    + " overloaded, retry later", e);
        }
        return new RagException(what + " failed (" + cause + ")", e);
    }
}
