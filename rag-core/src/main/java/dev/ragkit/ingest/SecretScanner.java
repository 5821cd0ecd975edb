package dev.ragkit.ingest;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds secrets in a document's text, whatever its format and name: a private key block
 * ({@code -----BEGIN … PRIVATE KEY-----}), or a text that is mostly credential-looking assignments
 * ({@code DB_PASSWORD=…}, {@code api_key: …}) — at least two such lines and at least half of the lines that say
 * anything. A document that only mentions a password among its prose is not one. Stateless and thread-safe.
 */
final class SecretScanner {
    private static final Pattern PRIVATE_KEY = Pattern.compile(
            "-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----");
    private static final Pattern CREDENTIAL = Pattern.compile("(?i)^\\s*(?:export\\s+|set\\s+)?[\"']?[a-z0-9_.-]*"
            + "(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)"
            + "[a-z0-9_.-]*[\"']?\\s*[:=]\\s*[\"']?[^\\s\"']{6,}");
    private static final Pattern COMMENT = Pattern.compile("^\\s*(?:#|//|;|--|<!--)");

    private SecretScanner() {
    }

    /**
     * @param lines a document's lines
     * @return what secret the text holds, for people, or empty
     */
    static Optional<String> find(List<String> lines) {
        int credentials = 0;
        int meaningful = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (PRIVATE_KEY.matcher(line).find()) {
                return Optional.of("a private key block at line " + (i + 1));
            }
            if (line.isBlank() || COMMENT.matcher(line).find()) {
                continue;
            }
            meaningful++;
            if (CREDENTIAL.matcher(line).find()) {
                credentials++;
            }
        }
        if (credentials >= 2 && credentials * 2 >= meaningful) {
            return Optional.of("credential-looking assignments on " + credentials + " of its " + meaningful
                    + " lines");
        }
        return Optional.empty();
    }
}
