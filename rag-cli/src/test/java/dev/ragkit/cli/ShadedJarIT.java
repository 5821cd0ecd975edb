package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The executable jar a user downloads, tested after the package phase has built it (Surefire's {@code shaded-jar}
 * execution in rag-cli's pom runs the {@code *JarIT} classes in the integration-test phase).
 */
final class ShadedJarIT {
    @TempDir
    Path tmp;

    private static Path jar() throws IOException {
        Path jar = LauncherTest.REPOSITORY.resolve("rag-cli/target/rag-cli-" + VersionCliTest.pomVersion() + ".jar");
        assertThat(jar).as("the shaded jar, built by the package phase before this test").isRegularFile();
        return jar;
    }

    @Test
    void manifest_isMultiRelease_soLuceneFindsItsJava21Classes() throws Exception {
        try (JarFile jar = new JarFile(jar().toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();

            assertThat(main.getValue(Attributes.Name.MAIN_CLASS)).isEqualTo(RagkitCli.class.getName());
            // Lucene keeps the classes it needs on Java 21+ (MemorySegmentIndexInputProvider) under
            // META-INF/versions/21; without this attribute the JVM ignores them and every index fails to open.
            assertThat(jar.getEntry("META-INF/versions/21/org/apache/lucene/store/MemorySegmentIndexInputProvider"
                    + ".class")).isNotNull();
            assertThat(main.getValue(Attributes.Name.MULTI_RELEASE)).isEqualTo("true");
        }
    }

    @Test
    void runsThroughTheLauncher() throws Exception {
        Path jar = jar();
        Path built = LauncherTest.REPOSITORY.resolve("rag-cli/target/classes/dev/ragkit/cli/build.properties");
        assertThat(Files.getLastModifiedTime(jar).toInstant())
                .as("the shaded jar is this build's").isAfterOrEqualTo(Files.getLastModifiedTime(built).toInstant());

        CliRun run = LauncherTest.launch(tmp, LauncherTest.LAUNCHER, Map.of(), "--version");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("ragkit " + VersionCliTest.pomVersion() + " (commit ");
    }

    @Test
    void classDataSharing_firstRunWritesTheCommandsArchive_laterRunsMapIt() throws Exception {
        jar();
        Path cds = tmp.resolve("cds");
        Path classes = tmp.resolve("classes.txt");
        Map<String, String> env = Map.of("RAGKIT_CDS_DIR", cds.toString(), "RAGKIT_HOME", tmp.resolve("home")
                .toString());

        CliRun first = LauncherTest.launch(tmp, LauncherTest.LAUNCHER, env, "models");
        List<Path> archives = list(cds);
        CliRun second = LauncherTest.launch(tmp, LauncherTest.LAUNCHER, Map.of("RAGKIT_CDS_DIR", cds.toString(),
                "RAGKIT_HOME", tmp.resolve("home").toString(), "RAGKIT_JAVA_OPTS",
                "-Xlog:class+load=info:file=" + classes), "models");

        assertThat(first.code()).as(first.err()).isZero();
        assertThat(archives).hasSize(1).allSatisfy(a -> assertThat(a.getFileName().toString()).matches(
                "models-[0-9]+\\.jsa"));
        assertThat(second.code()).as(second.err()).isZero();
        assertThat(second.out()).isEqualTo(first.out()).contains("Models folder");
        assertThat(second.err()).isEqualTo(first.err());
        assertThat(Files.readAllLines(classes)).anySatisfy(line -> assertThat(line)
                .contains(RagkitCli.class.getName() + " source: shared objects file (top)"));

        // a jar newer than the archive (a new build) makes the next run write it again
        Path archive = archives.get(0);
        Files.setLastModifiedTime(archive, FileTime.fromMillis(0));
        CliRun third = LauncherTest.launch(tmp, LauncherTest.LAUNCHER, env, "models");
        assertThat(third.code()).as(third.err()).isZero();
        assertThat(list(cds)).containsExactly(archive);
        assertThat(Files.getLastModifiedTime(archive).toMillis()).isGreaterThan(0);
    }

    @Test
    void classDataSharing_off_writesNothing() throws Exception {
        jar();
        Path cds = tmp.resolve("cds");

        CliRun run = LauncherTest.launch(tmp, LauncherTest.LAUNCHER, Map.of("RAGKIT_CDS", "off", "RAGKIT_CDS_DIR",
                cds.toString(), "RAGKIT_HOME", tmp.resolve("home").toString()), "models");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(cds).doesNotExist();
    }

    private static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.sorted().collect(Collectors.toList());
        }
    }
}
