package dev.ragkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.embedding.Embedders;
import dev.ragkit.internal.Vectors;
import dev.ragkit.store.lucene.VectorFormatProbe;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class VectorFileTest {
    @TempDir
    Path dir;

    @Test
    void embedLines_resumesWhereTheFileEnds_andVectorFileReadsTheModelsVectors() throws Exception {
        Path lines = dir.resolve("lines.txt");
        Path vectors = dir.resolve("v.f32");
        List<String> texts = List.of("The kernel schedules threads on every core.", "A dictionary defines words.",
                "Tenants are isolated by a filter on every query.", "Merges rewrite segments in the background.");
        Files.write(lines, texts.subList(0, 3), StandardCharsets.UTF_8);
        EmbedLines.main(new String[] {lines.toString(), vectors.toString(), "all-minilm-l6-v2-q"});
        assertThat(new VectorFile(vectors, 384).rows()).isEqualTo(3);
        byte[] firstThree = Files.readAllBytes(vectors);

        Files.write(lines, texts, StandardCharsets.UTF_8);
        EmbedLines.main(new String[] {lines.toString(), vectors.toString(), "all-minilm-l6-v2-q"});
        VectorFile file = new VectorFile(vectors, 384);
        assertThat(file.rows()).isEqualTo(4);
        byte[] all = Files.readAllBytes(vectors);
        assertThat(java.util.Arrays.copyOf(all, firstThree.length)).isEqualTo(firstThree); // not embedded again

        float[][] expected = Embedders.load("all-minilm-l6-v2-q").embed(texts);
        float[][] read = file.rows(0, 4);
        for (int i = 0; i < 4; i++) {
            assertThat(Vectors.cosine(read[i], expected[i])).isGreaterThan(0.9999);
            assertThat(LuceneMillionBenchmark.dot(read[i], read[i])).isCloseTo(1.0f, Offset.offset(1e-5f)); // unit length
        }
        assertThat(Vectors.cosine(read[0], read[1])).isLessThan(0.9);
        assertThatThrownBy(() -> file.rows(3, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("file of 4 rows");
    }

    @Test
    void vectorFile_cutShort_isRefusedWithTheReason() throws IOException {
        Path cut = dir.resolve("cut.f32");
        Files.write(cut, new byte[4 * 384 + 8]);
        assertThatThrownBy(() -> new VectorFile(cut, 384)).isInstanceOf(IOException.class)
                .hasMessageContaining("not whole rows of 384");
    }

    @Test
    void millionBenchmark_readsVectorsFromFiles_andMeasuresRecallAgainstThem() throws Exception {
        Path vectors = write(dir.resolve("index.f32"), 1_000, 1);
        Path queries = write(dir.resolve("queries.f32"), 20, 2);
        Path out = dir.resolve("result.json");
        LuceneMillionBenchmark.main(new String[] {"--n", "1000", "--vectors-file", vectors.toString(),
            "--queries-file", queries.toString(), "--queries", "20", "--candidates", "100", "--dir",
            dir.resolve("index").toString(), "--out", out.toString()});
        String json = Files.readString(out);
        assertThat(json).contains("\"vectorsFile\": \"" + vectors + "\"").contains("\"clusters\": null")
                .contains("\"queries\": 20");
        // 1,000 vectors, 100 candidates: the graph finds the exact neighbours in the file
        assertThat(json).containsPattern(
                "\"filter\": \"all\", \"candidates\": 100, [^}]*\"recallAt10\": (1\\.0|0\\.9[5-9])");
    }

    @Test
    void formatProbe_comparesFloatAndInt8IndexesOfTheSameVectors_andRefusesThemSwapped() throws Exception {
        Path vectors = write(dir.resolve("index.f32"), 1_000, 1);
        Path queries = write(dir.resolve("queries.f32"), 20, 2);
        for (String format : new String[] {"float", "int8"}) {
            LuceneMillionBenchmark.main(new String[] {"--n", "1000", "--vectors", format, "--vectors-file",
                vectors.toString(), "--queries-file", queries.toString(), "--queries", "20", "--candidates", "100",
                "--dir", dir.resolve(format).toString(), "--out", dir.resolve(format + ".json").toString(), "--keep"});
        }
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            VectorFormatProbe.main(new String[] {dir.resolve("float").toString(), dir.resolve("int8").toString(),
                queries.toString(), "20", "100"});
        } finally {
            System.setOut(console);
        }
        String report = printed.toString(StandardCharsets.UTF_8);
        // 1,000 vectors and 100 candidates: both find the float index's exact top 10 (int8 after re-scoring)
        for (String line : new String[] {"all, 100 candidates, float", "all, 100 candidates, int8",
            "metadata 10 %, 100 candidates, float", "metadata 10 %, 100 candidates, int8"}) {
            assertThat(report).containsPattern(line + ": p50 [0-9.]+ ms, p95 [0-9.]+ ms, mean [0-9.]+ ms,"
                    + " recall@10 (1\\.000|0\\.9[5-9]\\d)");
        }
        assertThatThrownBy(() -> VectorFormatProbe.main(new String[] {dir.resolve("int8").toString(),
            dir.resolve("float").toString(), queries.toString(), "20", "100"}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds int8 vectors");
    }

    private static Path write(Path file, int rows, long seed) throws IOException {
        Random random = new Random(seed);
        ByteBuffer bytes = ByteBuffer.allocate(rows * 384 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < rows * 384; i++) {
            bytes.putFloat((float) random.nextGaussian());
        }
        return Files.write(file, bytes.array());
    }
}
