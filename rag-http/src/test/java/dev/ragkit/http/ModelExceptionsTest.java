package dev.ragkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.error.RagException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** {@link ModelServerException} and {@link ModelProtocolException}: the provider named once, the parts kept. */
final class ModelExceptionsTest {

    @Test
    void serverException_keepsItsPartsAndSaysWhatToDoAfterWhatHappened() {
        ModelServerException e = new ModelServerException("Ollama", 500, "out of memory",
                "Ollama at http://localhost:11434/ answered HTTP 500: out of memory", "use a smaller model");

        assertThat(e).hasMessage("Ollama at http://localhost:11434/ answered HTTP 500: out of memory; use a smaller "
                + "model").isInstanceOf(RagException.class);
        assertThat(e.provider()).isEqualTo("Ollama");
        assertThat(e.status()).isEqualTo(500);
        assertThat(e.serverError()).isEqualTo("out of memory");
        assertThat(e.fix()).isEqualTo("use a smaller model");
        assertThat(e.code()).isNull();
        assertThat(e.partialText()).isEmpty();
        assertThat(e.isRetriable()).as("the request or the set-up must change first").isFalse();
    }

    @Test
    void aMessageThatDoesNotNameTheProvider_isPrefixedWithIt_onceOnly() {
        ModelServerException unnamed = new ModelServerException("OpenAI-compatible server", 404, "code", "nope",
                "no API endpoint at http://x/chat", "check the base URL", "partial");
        ModelServerException named = new ModelServerException("Ollama", 404, "nope", "ollama at x said nope", "");

        assertThat(unnamed).hasMessage("OpenAI-compatible server: no API endpoint at http://x/chat; check the base "
                + "URL");
        assertThat(unnamed.code()).isEqualTo("code");
        assertThat(unnamed.partialText()).isEqualTo("partial");
        assertThat(named).as("named in any case; no fix, no separator").hasMessage("ollama at x said nope");
    }

    @Test
    void protocolException_namesTheProviderAndKeepsThePartialTextAndCause() {
        IOException cause = new IOException("parse");
        ModelProtocolException unnamed = new ModelProtocolException("Ollama", "a stream line is not JSON", "The",
                cause);
        ModelProtocolException named = new ModelProtocolException("Ollama", "Ollama at x closed the stream", "", null);

        assertThat(unnamed).hasMessage("Ollama: a stream line is not JSON").hasCause(cause)
                .isInstanceOf(RagException.class);
        assertThat(unnamed.partialText()).isEqualTo("The");
        assertThat(unnamed.provider()).isEqualTo("Ollama");
        assertThat(unnamed.isRetriable()).isFalse();
        assertThat(named).hasMessage("Ollama at x closed the stream");
    }
}
