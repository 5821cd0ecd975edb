package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The CLI's index: one in-memory store snapshot holding any number of tenants and folders. */
final class IndexFile {
    /** The default location, relative to the working directory. */
    static final String DEFAULT = ".ragkit/index.bin";

    private IndexFile() {
    }

    /** @return the snapshot's store, or a new empty one when the file does not exist yet */
    static InMemoryDocumentStore openOrCreate(Path file) {
        return Files.exists(file) ? load(file)
                : InMemoryDocumentStore.builder().dimension(CliContext.DIMENSION).build();
    }

    /**
     * @return the snapshot's store
     * @throws RagException when there is no index yet, saying how to make one
     */
    static InMemoryDocumentStore openExisting(Path file) {
        if (!Files.exists(file)) {
            throw new RagException("no index at " + file + "; create one with: ragkit index <folder>"
                    + " (or point to it with --index)");
        }
        return load(file);
    }

    private static InMemoryDocumentStore load(Path file) {
        try {
            return InMemoryDocumentStore.load(file);
        } catch (RuntimeException e) {
            throw new RagException("cannot read the index " + file + " (" + e.getMessage() + "); delete it and "
                    + "index again", e);
        }
    }

    static void save(InMemoryDocumentStore store, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new RagException("cannot create the folder of " + file + ": " + e.getMessage(), e);
        }
        store.save(file);
    }
}
