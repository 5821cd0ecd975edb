package dev.ragkit.generation;

import java.util.Locale;
import java.util.Objects;

/**
 * One message of a conversation.
 *
 * @param role    who speaks
 * @param content what is said; may be empty, never null
 */
public record ChatMessage(Role role, String content) {

    /** Who speaks in a {@link ChatMessage}. */
    public enum Role {
        /** Instructions to the model. */
        SYSTEM,
        /** The person asking. */
        USER,
        /** The model. */
        ASSISTANT;

        /** @return the lower-case name used on the wire by most chat APIs ({@code system}, {@code user}, ...) */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Validates the arguments. */
    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    /** @param content the instructions @return a system message */
    public static ChatMessage system(String content) {
        return new ChatMessage(Role.SYSTEM, content);
    }

    /** @param content the text @return a user message */
    public static ChatMessage user(String content) {
        return new ChatMessage(Role.USER, content);
    }

    /** @param content the text @return an assistant message */
    public static ChatMessage assistant(String content) {
        return new ChatMessage(Role.ASSISTANT, content);
    }
}
