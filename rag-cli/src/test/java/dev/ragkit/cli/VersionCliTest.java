package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ragkit --version}: the version of the pom and the commit the build was made from. */
final class VersionCliTest {
    /** What the first line looks like; the commit is 7+ hex digits, or "unknown" for a build without git. */
    static final Pattern VERSION_LINE = Pattern.compile("ragkit (\\S+) \\(commit ([0-9a-f]{7,40}|unknown)\\)");

    @TempDir
    Path cwd;

    /** @return the pom's version, as the build filtered it into a test resource */
    static String pomVersion() throws IOException {
        Properties expected = new Properties();
        try (InputStream in = VersionCliTest.class.getResourceAsStream("/expected-build.properties")) {
            expected.load(in);
        }
        String version = expected.getProperty("version");
        assertThat(version).as("filtered by the build").isNotBlank().doesNotContain("${");
        return version;
    }

    @Test
    void version_printsThePomsVersion_theCommit_andTheJava() throws Exception {
        CliRun run = CliRun.of(Map.of(), cwd, "--version");

        assertThat(run.code()).isZero();
        Matcher line = VERSION_LINE.matcher(run.out().lines().findFirst().orElse(""));
        assertThat(line.matches()).as(run.out()).isTrue();
        assertThat(line.group(1)).isEqualTo(pomVersion());
        assertThat(run.out()).contains("Java " + System.getProperty("java.version"));
        String head = gitHead();
        if (head != null) {                                   // built from a git checkout: that commit
            assertThat(head).startsWith(line.group(2));
        }
    }

    @Test
    void aBuildWithoutGitHistory_saysTheCommitIsUnknown() {
        assertThat(BuildInfo.of("1.2.0", "${buildNumber}")).isEqualTo(new BuildInfo("1.2.0", "unknown"));
        assertThat(BuildInfo.of("1.2.0", "")).isEqualTo(new BuildInfo("1.2.0", "unknown"));
        assertThat(BuildInfo.of("${project.version}", null)).isEqualTo(new BuildInfo("unknown", "unknown"));
        assertThat(BuildInfo.of("1.2.0", "ABCDEF1")).isEqualTo(new BuildInfo("1.2.0", "abcdef1"));
    }

    /** @return the commit checked out in this repository, or {@code null} without git */
    private static String gitHead() throws InterruptedException {
        Path repository = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
        if (repository == null || !Files.exists(repository.resolve(".git"))) {
            return null;
        }
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "HEAD").directory(repository.toFile())
                    .redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;                                      // no git command
        }
    }
}
