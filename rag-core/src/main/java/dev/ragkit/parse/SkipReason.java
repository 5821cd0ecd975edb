package dev.ragkit.parse;

/**
 * Why the indexer ({@code dev.ragkit.ingest.Indexer}) left a file or folder alone. Most are decided from the name and
 * the file attributes, before anything is opened; {@link #ENCRYPTED}, {@link #NO_TEXT_LAYER}, {@link #SECRET_CONTENT} and a format found
 * {@link #UNSUPPORTED_TYPE} by its bytes are decided by reading the file, which is then not stored.
 */
public enum SkipReason {
    /** The name marks a file that may hold secrets: {@code .env*}, {@code *.pem}, {@code *.key}. */
    SECRET("may hold secrets (.env*, *.pem, *.key)"),
    /** The name starts with {@code .}; a hidden folder is not entered. */
    HIDDEN("hidden (name starts with '.')"),
    /** The file is larger than the indexer's {@code maxFileBytes}. */
    TOO_LARGE("larger than the size limit"),
    /** A symbolic link whose target lies outside the indexed root. */
    SYMLINK_OUTSIDE_ROOT("symbolic link leading outside the root"),
    /** A symbolic link to a folder that contains it, which would be walked forever. */
    SYMLINK_LOOP("symbolic link to one of its own parent folders"),
    /** A symbolic link that cannot be resolved: its target is missing, or links point at each other. */
    BROKEN_SYMLINK("symbolic link that cannot be resolved"),
    /** A matching name that is not a regular file (a pipe, socket or device), which could block a read. */
    NOT_REGULAR_FILE("not a regular file"),
    /** No parser reads the file's type (by its extension, or by its bytes). */
    UNSUPPORTED_TYPE("no parser reads this type"),
    /** Left out by the include and exclude globs. */
    EXCLUDED("excluded by the include/exclude globs"),
    /** An encrypted document whose password is not empty. */
    ENCRYPTED("encrypted"),
    /**
     * A scanned document with no text to extract: OCR did not run (no Tesseract installed) or found no text; the
     * detail says which, and how to enable OCR.
     */
    NO_TEXT_LAYER("no text layer (a scan: OCR not installed or it found no text)"),
    /**
     * The text is mostly secrets (tokens, credential assignments, a private key block), so there is nothing to index
     * once they are redacted; or, with secret redaction off, it holds a private key block.
     */
    SECRET_CONTENT("mostly secrets (or a private key block, with redaction off)");

    private final String description;

    SkipReason(String description) {
        this.description = description;
    }

    /**
     * @return a short explanation for people, e.g. {@code hidden (name starts with '.')}
     */
    public String description() {
        return description;
    }
}
