package dev.ragkit.store.lucene;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.NoLockFactory;
import org.apache.lucene.util.IOUtils;

/**
 * The directory of a store opened for bulk indexing: the index's files are read with buffered positional reads
 * ({@link NIOFSDirectory}), so that what a merge reads from the segments it merges sits in the operating system's
 * page cache and not in the process's resident memory; a merge's temporary files ({@code .tmp}), which Lucene reads
 * at random while it builds the merged segment's HNSW graph, stay memory-mapped, as a system call per vector read
 * would slow every insertion. Locks, writes and deletions go through the buffered directory.
 */
final class BulkIndexingDirectory extends FilterDirectory {
    /** Lucene's extension for temporary files (a merge's vectors among them). */
    static final String TEMP_EXTENSION = ".tmp";

    private final MMapDirectory mapped;

    BulkIndexingDirectory(Path dir) throws IOException {
        super(new NIOFSDirectory(dir));
        this.mapped = new MMapDirectory(dir, NoLockFactory.INSTANCE);   // opens nothing until a file is
    }

    @Override
    public IndexInput openInput(String name, IOContext context) throws IOException {
        return name.endsWith(TEMP_EXTENSION) ? mapped.openInput(name, context) : in.openInput(name, context);
    }

    @Override
    public void close() throws IOException {
        IOUtils.close(in, mapped);
    }
}
