package dev.ragkit.langchain4j;

import java.util.List;
import java.util.Objects;

/** The input check of this module's embedders: a non-empty list of non-blank texts. */
final class EmbedderInputs {
    private EmbedderInputs() {
    }

    /**
     * @param texts the texts or queries
     * @param what  {@code "text"} or {@code "query"}, for the messages
     * @return {@code texts}
     * @throws IllegalArgumentException when the list is empty or a text is blank (models reject or misread those)
     */
    static List<String> require(List<String> texts, String what) {
        Objects.requireNonNull(texts, what + "s");
        if (texts.isEmpty()) {
            throw new IllegalArgumentException(what + "s must not be empty");
        }
        for (int i = 0; i < texts.size(); i++) {
            String text = Objects.requireNonNull(texts.get(i), what);
            if (text.isBlank()) {
                throw new IllegalArgumentException(what + " " + i + " of " + texts.size() + " is blank; embedding "
                        + "models reject blank texts, so leave it out");
            }
        }
        return texts;
    }
}
