package dev.ragkit.benchmarks;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file of vectors as {@link EmbedLines} writes it: rows of {@code dimension} little-endian float32 values, nothing
 * else. Mapped, not read, so that a benchmark's heap and RSS stay its store's: a million 384-dimensional rows are
 * 1.5 GB. Rows come back normalised to unit length (the stores normalise too; the exact ground truth compares with
 * dot products).
 */
final class VectorFile {
    private final FloatBuffer floats;
    private final int dimension;
    private final int rows;

    VectorFile(Path file, int dimension) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            long rowBytes = 4L * dimension;
            if (size % rowBytes != 0) {
                throw new IOException(file + " holds " + size + " bytes, not whole rows of " + dimension
                        + " float32 values: is the dimension right, or was it cut short?");
            }
            if (size > Integer.MAX_VALUE) {
                throw new IOException(file + " is over 2 GB; split it (one mapping holds at most 2 GB)");
            }
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            this.floats = map.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
            this.dimension = dimension;
            this.rows = (int) (size / rowBytes);
        }
    }

    /** How many rows the file holds. */
    int rows() {
        return rows;
    }

    /**
     * @param from  the first row
     * @param count how many
     * @return those rows, each normalised
     * @throws IllegalArgumentException when the file has fewer rows
     */
    float[][] rows(int from, int count) {
        if (from < 0 || count < 0 || (long) from + count > rows) {
            throw new IllegalArgumentException("rows " + from + ".." + ((long) from + count - 1) + " asked of a file of "
                    + rows + " rows");
        }
        float[][] out = new float[count][dimension];
        for (int r = 0; r < count; r++) {
            floats.get((from + r) * dimension, out[r]);
            ClusteredVectors.normalise(out[r]);
        }
        return out;
    }
}
