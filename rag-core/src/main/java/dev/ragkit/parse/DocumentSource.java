package dev.ragkit.parse;

import dev.ragkit.error.IngestException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One document's bytes as a {@link DocumentParser} receives them, wherever they came from (a file, a database, an
 * upload), with the helpers every text parser needs: strict decoding (UTF-8, or UTF-16 with its byte order mark)
 * and line splitting.
 *
 * <p>The byte array is not copied: the caller hands it over and must not change it while parsing.
 *
 * @param path     the document's path relative to its root, normalised ({@link DocumentPaths#normalise})
 * @param bytes    the document's bytes
 * @param maxChars the most characters of text a parser may extract; a document with more fails (a limit against
 *                 hostile files that expand, such as zip bombs)
 */
public record DocumentSource(String path, byte[] bytes, long maxChars) {

    /** The default limit on extracted characters: 20 million (about 5 million tokens). */
    public static final long DEFAULT_MAX_CHARS = 20_000_000L;

    /**
     * Validates the arguments and normalises the path.
     *
     * @throws IllegalArgumentException when the path is not a root-relative path, or {@code maxChars < 1}
     */
    public DocumentSource {
        path = DocumentPaths.normalise(path);
        Objects.requireNonNull(bytes, "bytes");
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be at least 1, got " + maxChars);
        }
    }

    /**
     * @param path  the document's root-relative path
     * @param bytes its bytes (not copied)
     * @return a source with the default character limit
     */
    public static DocumentSource of(String path, byte[] bytes) {
        return new DocumentSource(path, bytes, DEFAULT_MAX_CHARS);
    }

    /**
     * The bytes as text: strict UTF-8, or strict UTF-16 when the bytes start with its byte order mark
     * ({@code FE FF} big-endian, {@code FF FE} little-endian); a leading byte order mark is removed.
     *
     * @return the text
     * @throws IngestException when the bytes are not valid in their encoding or hold a NUL (a binary file), naming
     *                         the line of the first bad byte, or when the text is longer than {@link #maxChars()}
     */
    public String text() {
        Charset utf16 = utf16(bytes);
        if (utf16 == null) {
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == 0) {
                    throw new IngestException(path, lineAtByte(i), "the file contains a NUL byte (offset " + i
                            + "), so it is binary, not text; exclude it or fix the include globs", null);
                }
            }
        }
        Charset charset = utf16 == null ? StandardCharsets.UTF_8 : utf16;
        CharsetDecoder decoder = charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, utf16 == null ? 0 : 2, bytes.length - (utf16 == null ? 0 : 2));
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int offset = in.position();
            out.flip();
            int line = utf16 == null ? lineAtByte(offset) : lineOf(out, out.length());
            throw new IngestException(path, line, "the file is not valid " + charset.name() + " (byte offset "
                    + offset + "); save it as UTF-8", null);
        }
        out.flip();
        String text = out.toString();
        if (utf16 != null && text.indexOf('\u0000') >= 0) {
            int at = text.indexOf('\u0000');
            throw new IngestException(path, lineOf(text, at), "the file contains a NUL character (character "
                    + at + "), so it is binary, not text; exclude it or fix the include globs", null);
        }
        text = !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
        requireWithinLimit(text.length());
        return text;
    }

    /**
     * The charset a UTF-16 byte order mark names.
     *
     * @param bytes a document's bytes
     * @return {@code UTF-16BE} for {@code FE FF}, {@code UTF-16LE} for {@code FF FE}, else {@code null}
     */
    static @Nullable Charset utf16(byte[] bytes) {
        if (bytes.length < 2) {
            return null;
        }
        int first = bytes[0] & 0xFF;
        int second = bytes[1] & 0xFF;
        if (first == 0xFE && second == 0xFF) {
            return StandardCharsets.UTF_16BE;
        }
        return first == 0xFF && second == 0xFE ? StandardCharsets.UTF_16LE : null;
    }

    /** The 1-based line of a character offset. */
    private static int lineOf(CharSequence text, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                line++;
            }
        }
        return line;
    }

    /**
     * Fails when a parser has extracted more than {@link #maxChars()} characters; parsers call it as they go.
     *
     * @param extracted the characters extracted so far
     * @throws IngestException when over the limit
     */
    public void requireWithinLimit(long extracted) {
        if (extracted > maxChars) {
            throw new IngestException(path, 0, "more than " + maxChars + " characters of text were extracted; the "
                    + "file is too large to index (or expands like a zip bomb); raise the limit to index it", null);
        }
    }

    /**
     * Splits text into lines at {@code \n}, {@code \r\n} and {@code \r}; terminators are not kept, and one at the
     * very end does not start another line ({@code "a\n"} is one line, {@code "a\n\n"} two, the empty text none).
     *
     * @param text the text
     * @return its lines
     */
    public static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                lines.add(text.substring(start, i));
                if (c == '\r' && i + 1 < length && text.charAt(i + 1) == '\n') {
                    i++;
                }
                start = i + 1;
            }
        }
        if (start < length) {
            lines.add(text.substring(start));
        }
        return lines;
    }

    /** The 1-based line of a byte offset. */
    int lineAtByte(int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < bytes.length; i++) {
            if (bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 >= bytes.length || bytes[i + 1] != '\n'))) {
                line++;
            }
        }
        return line;
    }
}
