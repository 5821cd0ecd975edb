package dev.ragkit.parse;

import dev.ragkit.internal.CodeLanguages;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Document paths and the links between documents, the same for every {@link DocumentParser}: paths are relative to
 * the document root with {@code /} separators, and a link is resolved against its document's folder and normalised,
 * never leaving the root. Stateless and thread-safe, apart from a {@link Links} collector, which serves one document.
 */
public final class DocumentPaths {
    private static final Pattern URL_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern WINDOWS_DRIVE = Pattern.compile("^[A-Za-z]:");

    private DocumentPaths() {
    }

    /**
     * Normalises a root-relative document path: {@code ./} and {@code a/../} parts are removed.
     *
     * @param path the path
     * @return the normalised path
     * @throws IllegalArgumentException when the path is blank, absolute, holds {@code \}, names the root itself or
     *                                  climbs above it; the message says which
     */
    public static String normalise(String path) {
        Objects.requireNonNull(path, "path");
        if (path.isBlank()) {
            throw new IllegalArgumentException("path must not be blank");
        }
        if (path.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("path '" + path + "' contains '\\'; use '/' as the separator");
        }
        if (path.startsWith("/") || WINDOWS_DRIVE.matcher(path).find()) {
            throw new IllegalArgumentException(
                    "path '" + path + "' is absolute; pass it relative to the document root");
        }
        List<String> segments = new ArrayList<>();
        if (!resolveSegments(segments, path)) {
            throw new IllegalArgumentException("path '" + path + "' climbs above the document root");
        }
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("path '" + path + "' names the document root, not a file");
        }
        return String.join("/", segments);
    }

    /**
     * @param path a document path
     * @return its file name without the extension, e.g. {@code install} for {@code guides/install.md}
     */
    public static String baseName(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    /**
     * @param path a document path
     * @return its extension in lower case without the dot, or an empty text when it has none; a file named
     *         {@code mbox} in a folder named {@code *.mbox} (how Apple Mail exports a mailbox: {@code Inbox.mbox/mbox})
     *         has the extension {@code mbox}
     */
    public static String extension(String path) {
        return CodeLanguages.extension(path);
    }

    /**
     * Applies the segments of {@code path} to {@code segments}: empty and {@code .} segments are skipped and
     * {@code ..} removes the last one.
     *
     * @return false when a {@code ..} has nothing left to remove
     */
    private static boolean resolveSegments(List<String> segments, String path) {
        int start = 0;
        int length = path.length();
        while (start <= length) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = length;
            }
            String segment = path.substring(start, end);
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    return false;
                }
                segments.remove(segments.size() - 1);
            } else if (!segment.isEmpty() && !segment.equals(".")) {
                segments.add(segment);
            }
            start = end + 1;
        }
        return true;
    }

    /** Decodes %XX escapes as UTF-8; returns the text unchanged when it has none or they are not valid UTF-8. */
    static String percentDecode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            int high;
            int low;
            if (bytes[i] == '%' && i + 2 < bytes.length
                    && (high = Character.digit(bytes[i + 1], 16)) >= 0
                    && (low = Character.digit(bytes[i + 2], 16)) >= 0) {
                out.write(high * 16 + low);
                i += 2;
            } else {
                out.write(bytes[i]);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return text;
        }
    }

    /**
     * Collects the local links of one document, in order of first appearance and without duplicates.
     *
     * <p>Ignored: empty destinations, pure {@code #anchor} links, anything with a URL scheme ({@code https:},
     * {@code mailto:}, …) or starting with {@code //}. From a local link the {@code #fragment} and {@code ?query}
     * are cut, the rest is percent-decoded (as UTF-8; left as it is if that is not valid), then resolved against the
     * linking document's folder (or against the root when it starts with {@code /}) and normalised. A link that
     * would climb above the root is dropped and counted; a link to the document itself or to the root folder is
     * left out without being counted. The target need not exist: the indexer counts the links that point nowhere.
     */
    public static final class Links {
        private final String documentPath;
        private final List<String> folder;
        private final Set<String> links = new LinkedHashSet<>();
        private int dropped;

        /** @param documentPath the normalised path of the linking document */
        public Links(String documentPath) {
            this.documentPath = Objects.requireNonNull(documentPath, "documentPath");
            int slash = documentPath.lastIndexOf('/');
            this.folder = slash < 0 ? List.of() : List.of(documentPath.substring(0, slash).split("/"));
        }

        /**
         * Adds a link as written in the document.
         *
         * @param destination the link's destination, e.g. {@code ../install.md#linux}
         */
        public void add(String destination) {
            Objects.requireNonNull(destination, "destination");
            String target = destination.strip();
            if (target.isEmpty() || target.startsWith("#") || target.startsWith("//")
                    || URL_SCHEME.matcher(target).find()) {
                return;
            }
            int cut = target.indexOf('#');
            if (cut >= 0) {
                target = target.substring(0, cut);
            }
            cut = target.indexOf('?');
            if (cut >= 0) {
                target = target.substring(0, cut);
            }
            if (target.isEmpty()) {
                return; // "?query" alone: this document
            }
            target = percentDecode(target);
            List<String> segments = new ArrayList<>(target.startsWith("/") ? List.of() : folder);
            if (!resolveSegments(segments, target)) {
                dropped++;
                return;
            }
            if (segments.isEmpty()) {
                return; // the root folder, not a document
            }
            String resolved = String.join("/", segments);
            if (!resolved.equals(documentPath)) {
                links.add(resolved);
            }
        }

        /** @return the root-relative paths of the local documents linked, in order of first appearance */
        public List<String> links() {
            return new ArrayList<>(links);
        }

        /** @return how many links were dropped because they would leave the root */
        public int dropped() {
            return dropped;
        }
    }
}
