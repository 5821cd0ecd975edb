package dev.ragkit.documents;

import java.util.regex.Pattern;

/**
 * Turns a parser library's exception into the reason a person reads in an index report: its message without the
 * Java class names that PDFBox, POI and XMLBeans put into it ({@code org.apache.xmlbeans.XmlException: error: …}
 * becomes {@code error: …}), or the exception's simple name when it has no message.
 */
final class ParserMessages {
    /**
     * The largest file the binary-format parsers (PDF, Office, OpenDocument, e-mail, EPUB) are given by default:
     * 100 MiB, ten times the text parsers' {@link dev.ragkit.parse.DocumentParser#maxBytes()} default, because these
     * formats carry images and packing the text does not.
     */
    static final long MAX_BYTES = 100L * 1024 * 1024;

    /** A fully qualified exception name heading a message, as {@code Throwable.toString()} writes it. */
    private static final Pattern LEADING_EXCEPTION = Pattern.compile("^(?:[a-z_][\\w$]*\\.)+[A-Z][\\w$]*: ");
    /** A fully qualified class name anywhere: its package is noise to a reader. */
    private static final Pattern QUALIFIED_NAME = Pattern.compile("\\b(?:[a-z_][\\w$]*\\.)+([A-Z][\\w$]*)");

    private ParserMessages() {
    }

    /**
     * @param e what the parser threw
     * @return its message for people: no leading exception names, classes named without their packages; the
     *         exception's simple name when there is no message
     */
    static String reason(Throwable e) {
        String message = e.getMessage() == null ? "" : e.getMessage().strip();
        String previous;
        do {
            previous = message;
            message = LEADING_EXCEPTION.matcher(message).replaceFirst("");
        } while (!message.equals(previous));
        message = QUALIFIED_NAME.matcher(message).replaceAll("$1");
        return message.isEmpty() ? e.getClass().getSimpleName() : message;
    }
}
