package dev.ragkit.parse;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Tells what a file is from its first bytes, so that a {@code .pdf} that is really an HTML page goes to the HTML
 * parser and a {@code .md} that is really binary is skipped with that reason instead of failing as broken UTF-8. Looks at magic
 * numbers and, for text, at the first 8 KiB. Hand-written rather than Apache Tika's detector: the handful of kinds
 * RagKit reads need a few comparisons, not tika-core's 800 KB and its configuration (see the design notes).
 * Stateless and thread-safe.
 */
public final class ContentSniffer {
    private static final int TEXT_PROBE = 8192;

    /** What a file's bytes say it is. */
    public enum Kind {
        /** A PDF document ({@code %PDF-}). */
        PDF,
        /** A Word document: an Office Open XML zip holding {@code word/}. */
        DOCX,
        /** A PowerPoint presentation: an Office Open XML zip holding {@code ppt/presentation.xml}. */
        PPTX,
        /** An Excel workbook: an Office Open XML zip holding {@code xl/workbook.xml}. */
        XLSX,
        /** Another Office Open XML document (a Visio drawing, say). */
        OFFICE_OTHER,
        /**
         * An OpenDocument file ({@code .odt}, {@code .ods}, {@code .odp}): a zip whose first entry is {@code mimetype}
         * holding {@code application/vnd.oasis.opendocument.…}.
         */
        OPENDOCUMENT,
        /** A legacy Office file (OLE2 compound document: {@code .doc}, {@code .xls}, {@code .ppt}). */
        OLE2,
        /** An EPUB e-book: a zip whose first entry, {@code mimetype}, reads {@code application/epub+zip}. */
        EPUB,
        /** Any other zip archive. */
        ZIP,
        /**
         * An HTML page ({@code <!doctype html}, {@code <html}, {@code <head} or {@code <body} first), in UTF-8 or an
         * 8-bit charset, or in UTF-16 with its byte order mark.
         */
        HTML,
        /**
         * Text: no NUL bytes, as far as the probe reads (whether it is valid UTF-8 is the parser's to say), or
         * text in UTF-16 with its byte order mark and no NUL character.
         */
        TEXT,
        /**
         * Anything else: an image, an executable, a file in another text encoding (such as UTF-16 without a byte
         * order mark).
         */
        BINARY
    }

    private ContentSniffer() {
    }

    /**
     * @param bytes the file's bytes (only the first few KiB are read)
     * @return what they are
     */
    public static Kind sniff(byte[] bytes) {
        if (startsWith(bytes, 0, "%PDF-")) {
            return Kind.PDF;
        }
        if (bytes.length >= 4 && bytes[0] == 'P' && bytes[1] == 'K' && bytes[2] == 3 && bytes[3] == 4) {
            return zipKind(bytes);
        }
        if (bytes.length >= 8 && (bytes[0] & 0xFF) == 0xD0 && (bytes[1] & 0xFF) == 0xCF && (bytes[2] & 0xFF) == 0x11
                && (bytes[3] & 0xFF) == 0xE0) {
            return Kind.OLE2;
        }
        Charset utf16 = DocumentSource.utf16(bytes);
        if (utf16 != null) {
            // UTF-16 text has a NUL byte in every ASCII character: read the probe as characters instead
            String start = new String(bytes, 2, Math.min(bytes.length, TEXT_PROBE) - 2, utf16);
            if (start.indexOf('\u0000') >= 0) {
                return Kind.BINARY;
            }
            return looksLikeHtml(start) ? Kind.HTML : Kind.TEXT;
        }
        if (!isText(bytes)) {
            return Kind.BINARY;
        }
        int bom = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        // ISO-8859-1 maps each byte to one character: the markup's ASCII reads the same in any charset
        int end = Math.min(bytes.length, TEXT_PROBE);
        return looksLikeHtml(new String(bytes, bom, end - bom, StandardCharsets.ISO_8859_1)) ? Kind.HTML : Kind.TEXT;
    }

    /**
     * Office Open XML documents are zips whose entry names (plain ASCII in the headers) start with word/ etc.;
     * OpenDocument files start with their stored mimetype entry.
     */
    private static Kind zipKind(byte[] bytes) {
        // EPUB's first entry is the stored (uncompressed) "mimetype": its content sits in the first 100 bytes
        if (startsWith(bytes, 30, "mimetype") && contains(Arrays.copyOf(bytes, Math.min(bytes.length, 100)),
                "application/epub+zip")) {
            return Kind.EPUB;
        }
        boolean contentTypes = contains(bytes, "[Content_Types].xml");
        if (contentTypes && contains(bytes, "word/")) {
            return Kind.DOCX;
        }
        if (contentTypes && contains(bytes, "ppt/presentation.xml")) {
            return Kind.PPTX;
        }
        if (contentTypes && contains(bytes, "xl/workbook.xml")) {
            return Kind.XLSX;
        }
        if (contentTypes) {
            return Kind.OFFICE_OTHER;
        }
        // OpenDocument: the first entry is "mimetype", stored, so its name and value are plain ASCII at the start
        if (startsWith(bytes, 30, "mimetype") && contains(Arrays.copyOf(bytes, Math.min(bytes.length, 256)),
                "application/vnd.oasis.opendocument.")) {
            return Kind.OPENDOCUMENT;
        }
        return Kind.ZIP;
    }

    /**
     * Text has no NUL byte in its first 8 KiB. Bytes that are not valid UTF-8 still count as text, so that the text
     * parsers fail them with the line of the first bad byte and the fix ("save it as UTF-8").
     */
    private static boolean isText(byte[] bytes) {
        int length = Math.min(bytes.length, TEXT_PROBE);
        for (int i = 0; i < length; i++) {
            if (bytes[i] == 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean looksLikeHtml(String text) {
        // An XML declaration or a comment may come first.
        String start = text.stripLeading();
        start = start.substring(0, Math.min(start.length(), 512)).toLowerCase(Locale.ROOT);
        if (start.startsWith("<?xml") || start.startsWith("<!--")) {
            int close = start.indexOf('>');
            start = close < 0 ? "" : start.substring(close + 1).stripLeading();
        }
        return start.startsWith("<!doctype html") || start.startsWith("<html") || start.startsWith("<head")
                || start.startsWith("<body");
    }

    private static boolean startsWith(byte[] bytes, int at, String ascii) {
        if (bytes.length < at + ascii.length()) {
            return false;
        }
        for (int i = 0; i < ascii.length(); i++) {
            if (bytes[at + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(byte[] bytes, String ascii) {
        outer:
        for (int i = 0; i + ascii.length() <= bytes.length; i++) {
            for (int j = 0; j < ascii.length(); j++) {
                if (bytes[i + j] != ascii.charAt(j)) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
