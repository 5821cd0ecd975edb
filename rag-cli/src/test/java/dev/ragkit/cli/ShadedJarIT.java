package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
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
}
