package dev.ragkit.benchmarks;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Embeds a text file line by line with an in-process embedder and appends the vectors to a file of raw
 * little-endian float32 rows ({@link VectorFile}), for measurements that need real embeddings at a scale that takes
 * an hour to embed (issue 29: the Lucene store at a million chunks). Resumable: a vector file that already holds
 * {@code r} rows continues at line {@code r + 1}, so a run can be stopped and started again.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.EmbedLines lines.txt vectors.f32 \
 *     all-minilm-l6-v2-q [limit] [query]
 * }</pre>
 * With {@code query} as the fifth argument the lines are embedded as questions ({@code embedQueries}).
 */
public final class EmbedLines {
    private static final int BATCH = 512;

    private EmbedLines() {
    }

    /**
     * @param args the text file, the vector file, the embedder name, at most how many lines (default all), and
     *             optionally {@code query}
     * @throws IOException when a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        Path lines = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Embedder embedder = Embedders.load(args[2]);
        long limit = args.length > 3 ? Long.parseLong(args[3]) : Long.MAX_VALUE;
        boolean queries = args.length > 4 && args[4].equals("query");
        int dimension = embedder.embed(List.of("dimension"))[0].length;
        long size = Files.exists(out) ? Files.size(out) : 0;
        long done = size / (4L * dimension);
        if (size % (4L * dimension) != 0) {
            throw new IllegalStateException(out + " ends in a partial row; truncate it to a multiple of "
                    + 4 * dimension + " bytes");
        }
        long start = System.nanoTime();
        long embedded = 0;
        try (BufferedReader in = Files.newBufferedReader(lines, StandardCharsets.UTF_8);
                OutputStream o = Files.newOutputStream(out, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            for (long skip = 0; skip < done; skip++) {
                if (in.readLine() == null) {
                    return;
                }
            }
            List<String> batch = new ArrayList<>(BATCH);
            long row = done;
            for (String line = in.readLine(); line != null && row < limit; line = in.readLine()) {
                batch.add(line);
                row++;
                if (batch.size() == BATCH || row == limit) {
                    embedded += write(embedder, batch, queries, dimension, o);
                    if (embedded % (BATCH * 40) == 0) {
                        System.out.printf(Locale.ROOT, "%,d rows (%.0f texts/s)%n", row,
                                embedded / ((System.nanoTime() - start) / 1e9));
                    }
                }
            }
            embedded += write(embedder, batch, queries, dimension, o);
        }
        System.out.printf(Locale.ROOT, "embedded %,d lines in %.0f s with %s into %s%n", embedded,
                (System.nanoTime() - start) / 1e9, embedder.name(), out);
    }

    private static int write(Embedder embedder, List<String> batch, boolean queries, int dimension, OutputStream o)
            throws IOException {
        if (batch.isEmpty()) {
            return 0;
        }
        float[][] vectors = queries ? embedder.embedQueries(batch) : embedder.embed(batch);
        ByteBuffer bytes = ByteBuffer.allocate(vectors.length * dimension * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float[] v : vectors) {
            for (float x : v) {
                bytes.putFloat(x);
            }
        }
        o.write(bytes.array());
        o.flush();
        int n = batch.size();
        batch.clear();
        return n;
    }
}
