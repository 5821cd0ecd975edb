package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.SkipReason;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.apache.poi.poifs.filesystem.DirectoryNode;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.jspecify.annotations.Nullable;

/**
 * What an OLE2 compound file (the container of Office 97–2003 files) holds, told by the streams at its root: a Word
 * document, an Excel workbook, a PowerPoint presentation — or an Office Open XML file encrypted with a password,
 * which Office also wraps in OLE2. Lets each legacy parser refuse a file that is another format with the fix.
 */
final class LegacyOffice {
    /** What a compound file holds. */
    enum Content {
        /** A Word 97–2003 document ({@code WordDocument} stream). */
        WORD(".doc", "a Word 97-2003 document"),
        /** An Excel 97–2003 workbook ({@code Workbook} or, older, {@code Book}). */
        EXCEL(".xls", "an Excel 97-2003 workbook"),
        /** A PowerPoint 97–2003 presentation ({@code PowerPoint Document}). */
        POWERPOINT(".ppt", "a PowerPoint 97-2003 presentation"),
        /** An Office Open XML file protected with a password ({@code EncryptionInfo}, {@code EncryptedPackage}). */
        ENCRYPTED("", "an encrypted Office document"),
        /** Anything else: an Outlook message, a Visio drawing, a Works file. */
        OTHER("", "other Office 97-2003 data");

        private final String extension;
        private final String description;

        Content(String extension, String description) {
            this.extension = extension;
            this.description = description;
        }
    }

    private LegacyOffice() {
    }

    /**
     * @param bytes a file's bytes
     * @return whether they start with the OLE2 signature
     */
    static boolean isOle2(byte[] bytes) {
        return bytes.length >= 8 && (bytes[0] & 0xFF) == 0xD0 && (bytes[1] & 0xFF) == 0xCF
                && (bytes[2] & 0xFF) == 0x11 && (bytes[3] & 0xFF) == 0xE0;
    }

    /**
     * @param bytes an OLE2 file's bytes
     * @return the compound file, read into memory
     * @throws IOException when it is not a readable compound file
     */
    static POIFSFileSystem open(byte[] bytes) throws IOException {
        return new POIFSFileSystem(new ByteArrayInputStream(bytes));
    }

    /**
     * @param fs a compound file
     * @return what it holds
     */
    static Content content(POIFSFileSystem fs) {
        DirectoryNode root = fs.getRoot();
        if (root.hasEntryCaseInsensitive("EncryptionInfo") || root.hasEntryCaseInsensitive("EncryptedPackage")) {
            return Content.ENCRYPTED;
        }
        if (root.hasEntryCaseInsensitive("WordDocument")) {
            return Content.WORD;
        }
        if (root.hasEntryCaseInsensitive("Workbook") || root.hasEntryCaseInsensitive("Book")) {
            return Content.EXCEL;
        }
        return root.hasEntryCaseInsensitive("PowerPoint Document") ? Content.POWERPOINT : Content.OTHER;
    }

    /**
     * Fails unless the compound file holds what the parser reads.
     *
     * @param path     the document's path
     * @param fs       the compound file
     * @param expected what the parser reads
     * @param what     what the parser reads, for people ("a Word document")
     * @throws DocumentSkippedException when it is encrypted
     * @throws IngestException          when it holds another format, naming the extension it should have
     */
    static void require(String path, POIFSFileSystem fs, Content expected, String what) {
        Content found = content(fs);
        if (found == expected) {
            return;
        }
        if (found == Content.ENCRYPTED) {
            throw encrypted(path, null);
        }
        if (found == Content.OTHER) {
            throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "an Office 97-2003 file that is "
                    + "not a Word document, a workbook or a presentation", null);
        }
        throw new IngestException(path, 0, "not " + what + ": the file holds " + found.description
                + "; rename it to " + found.extension + " to index it", null);
    }

    /**
     * @param path  the document's path
     * @param cause POI's report, or {@code null}
     * @return the skip of a password-protected Office file
     */
    static DocumentSkippedException encrypted(String path, @Nullable Throwable cause) {
        return new DocumentSkippedException(path, SkipReason.ENCRYPTED, "an Office document protected with a "
                + "password; save an unprotected copy to index it", cause);
    }
}
