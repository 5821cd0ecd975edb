package dev.ragkit.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Bearer tokens as servers keep them: only a token's SHA-256 is held, and a presented token is compared with it in
 * constant time ({@link MessageDigest#isEqual}), so neither the time of a refusal nor a heap dump gives the token
 * away. Neither method ever logs or returns a token.
 */
public final class BearerTokens {
    /** The shortest token accepted. */
    public static final int MIN_CHARS = 16;

    private BearerTokens() {
    }

    /**
     * @param token a token
     * @return its SHA-256 digest, of its UTF-8 bytes
     */
    public static byte[] digest(String token) {
        Objects.requireNonNull(token, "token");
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /**
     * @param presented the token a request carries
     * @param expected  the digest of the token it must be ({@link #digest})
     * @return whether they match, compared in constant time over the digests
     */
    public static boolean matches(String presented, byte[] expected) {
        return MessageDigest.isEqual(digest(presented), expected);
    }

    /**
     * @param token a token read from a file or an option
     * @return the token stripped
     * @throws IllegalArgumentException when it is shorter than {@value #MIN_CHARS} characters or holds spaces (the
     *                                  message never shows it)
     */
    public static String checked(String token) {
        String value = Objects.requireNonNull(token, "token").strip();
        if (value.length() < MIN_CHARS || value.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("the bearer token must be at least " + MIN_CHARS
                    + " characters without spaces; make one with: openssl rand -hex 32");
        }
        return value;
    }

    /**
     * @param authorization the request's {@code Authorization} header, or {@code null}
     * @return the token of a {@code Bearer} header, or {@code null} when there is none
     */
    public static @Nullable String fromHeader(@Nullable String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).strip() : null;
    }
}
