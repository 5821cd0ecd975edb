package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** The CLI's index: one in-memory store snapshot holding any number of tenants and folders. */
final class IndexFile {
    /** How every snapshot file starts. */
    private static final byte[] SIGNATURE = "RAGKSNAP".getBytes(StandardCharsets.US_ASCII);

    private IndexFile() {
    }

    /**
     * @return the snapshot's store, or a new empty one when the file does not exist yet
     * @throws RagException when the path is a folder or a file that is not an index (left as it is), or the
     *                      index cannot be written there
     */
    static InMemoryDocumentStore openOrCreate(Path file, @Nullable String chosen) {
        if (Files.exists(file)) {
            InMemoryDocumentStore store = load(file);
            if (store.embedder() != null) {
                return store;               // checked against the chosen one by the caller
            }
            // A snapshot from before embedders were recorded: made by the CLI's only model then, or the chosen one.
            store.close();
            return load(file, InMemoryDocumentStore.builder()
                    .embedder(chosen != null ? chosen : CliIndex.LEGACY_EMBEDDER));
        }
        requireWritableFolder(file);
        return InMemoryDocumentStore.builder().embedder(chosen != null ? chosen : Embedders.DEFAULT).build();
    }

    /**
     * @return the snapshot's store
     * @throws RagException when there is no index yet, saying how to make one, or the path is not an index
     */
    static InMemoryDocumentStore openExisting(Path file) {
        if (!Files.exists(file)) {
            throw new RagException("no index at " + file + "; create one with: ragkit index <folder>"
                    + " (or point to it with --index)");
        }
        return load(file);
    }

    private static InMemoryDocumentStore load(Path file) {
        return load(file, InMemoryDocumentStore.builder());
    }

    private static InMemoryDocumentStore load(Path file, InMemoryDocumentStore.Builder builder) {
        if (Files.isDirectory(file)) {
            throw new RagException("--index " + file + " is a folder, not an index file; give the index file's path"
                    + " (default " + CliIndex.SNAPSHOT_DEFAULT + ")");
        }
        if (!hasSignature(file)) {
            throw new RagException(file + " is not a RagKit index (it was not written by ragkit index); check "
                    + "--index. The file was left as it is");
        }
        try {
            return builder.load(file);
        } catch (RuntimeException e) {
            throw new RagException("the index " + file + " cannot be read (" + e.getMessage() + "). It was left as "
                    + "it is: restore it from a backup, or move it away and index the folders again", e);
        }
    }

    /** @return whether the file starts like a snapshot RagKit wrote */
    static boolean isSnapshot(Path file) {
        return hasSignature(file);
    }

    private static boolean hasSignature(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return Arrays.equals(in.readNBytes(SIGNATURE.length), SIGNATURE);
        } catch (IOException e) {
            throw new RagException("cannot read the index " + file + " (" + e + "); check its permissions", e);
        }
    }

    /** Fails before any work when the index could not be written where it is to go. */
    static void requireWritableFolder(Path file) {
        requireWritableFolder(file, "--index");
    }

    /**
     * Fails before any work when the index could not be written where it is to go.
     *
     * @param option the option that names the index, for the message
     */
    static void requireWritableFolder(Path file, String option) {
        Path parent = file.toAbsolutePath().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new RagException("cannot create the folder of the index " + file + " (" + e + "); choose another "
                    + option + " or fix the permissions", e);
        }
        if (parent != null && !Files.isWritable(parent)) {
            throw new RagException("cannot write the index " + file + ": the folder " + parent + " is not writable;"
                    + " choose another " + option + " or fix the permissions");
        }
    }

    static void save(InMemoryDocumentStore store, Path file) {
        requireWritableFolder(file);
        try {
            store.save(file);
        } catch (StoreException e) {
            throw new RagException("the index was not saved to " + file + " (" + e.getMessage() + "); the previous "
                    + "index there is unchanged. Free disk space or choose another --index, then index again", e);
        }
    }
}
