package dev.ragkit.benchmarks;

import com.knuddels.jtokkit.api.Encoding;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import java.util.Objects;

/**
 * LangChain4j's {@link TokenCountEstimator} on a jtokkit encoding, so that LangChain4j's splitters count tokens
 * exactly as RagKit's {@code TokenCounters.jtokkit()} does ({@code Encoding.countTokensOrdinary}, special tokens as
 * plain text). {@link ChunkingBenchmark} gives it to {@code DocumentSplitters.recursive(500, 50, estimator)}.
 *
 * <p>Texts are all the splitters ask for. Messages are counted by their text alone (system, user with a single
 * text, AI); other kinds of message are rejected, since no benchmark needs them.
 */
final class JtokkitTokenCountEstimator implements TokenCountEstimator {
    private final Encoding encoding;

    /**
     * @param encoding the encoding, e.g. {@code cl100k_base}
     */
    JtokkitTokenCountEstimator(Encoding encoding) {
        this.encoding = Objects.requireNonNull(encoding, "encoding");
    }

    @Override
    public int estimateTokenCountInText(String text) {
        return encoding.countTokensOrdinary(text);
    }

    @Override
    public int estimateTokenCountInMessage(ChatMessage message) {
        if (message instanceof SystemMessage system) {
            return estimateTokenCountInText(system.text());
        }
        if (message instanceof UserMessage user && user.hasSingleText()) {
            return estimateTokenCountInText(user.singleText());
        }
        if (message instanceof AiMessage ai) {
            return ai.text() == null ? 0 : estimateTokenCountInText(ai.text());
        }
        throw new UnsupportedOperationException("only text messages are counted, got " + message.type());
    }

    @Override
    public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
        int total = 0;
        for (ChatMessage message : messages) {
            total += estimateTokenCountInMessage(message);
        }
        return total;
    }
}
