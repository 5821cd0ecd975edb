package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/ragkit}, the launcher, run by {@code sh} as a user's shell runs it: on the test's class path
 * ({@code RAGKIT_CLASSPATH}) and from an installed layout through a symlink. The shaded jar itself is tested after
 * the package phase, by {@link ShadedJarIT}.
 */
final class LauncherTest {
    static final Path REPOSITORY = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
    static final Path LAUNCHER = REPOSITORY.resolve("bin/ragkit");

    @TempDir
    Path tmp;

    @Test
    void onAClassPath_passesEveryArgumentAsItIs_andReturnsTheExitCode() throws Exception {
        Map<String, String> env = Map.of("RAGKIT_CLASSPATH", System.getProperty("java.class.path"));

        CliRun version = launch(LAUNCHER, env, "--version");
        CliRun missing = launch(LAUNCHER, env, "index", "no such  folder");

        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out().lines().findFirst().orElse("")).matches(VersionCliTest.VERSION_LINE)
                .startsWith("ragkit " + VersionCliTest.pomVersion() + " ");
        assertThat(missing.code()).isEqualTo(RagkitCli.ERROR);
        assertThat(missing.err()).contains("'no such  folder' is not a folder");   // one argument, spaces kept
    }

    @Test
    void installed_throughASymlink_runsTheJarInItsLibFolder() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("opt/ragkit"));
        Path launcher = Files.createDirectories(home.resolve("bin")).resolve("ragkit");
        Files.copy(LAUNCHER, launcher);
        manifestOnlyJar(Files.createDirectories(home.resolve("lib")).resolve("ragkit.jar"));
        Path link = Files.createDirectories(tmp.resolve("usr/bin")).resolve("ragkit");
        Files.createSymbolicLink(link, link.getParent().relativize(launcher));      // ../../opt/ragkit/bin/ragkit

        CliRun version = launch(link, Map.of(), "--version");

        assertThat(version.code()).as(version.err()).isZero();
        assertThat(version.out()).startsWith("ragkit " + VersionCliTest.pomVersion() + " (commit ");
    }

    @Test
    void withoutAJar_orWithABadJavaHome_saysWhatToDo() throws Exception {
        Path launcher = Files.createDirectories(tmp.resolve("empty/bin")).resolve("ragkit");
        Files.copy(LAUNCHER, launcher);

        CliRun noJar = launch(launcher, Map.of(), "--version");
        CliRun badJava = launch(LAUNCHER, Map.of("JAVA_HOME", tmp.resolve("no-java").toString(),
                "RAGKIT_CLASSPATH", System.getProperty("java.class.path")), "--version");

        assertThat(noJar.code()).isEqualTo(1);
        assertThat(noJar.err()).contains("no ragkit jar in " + tmp.resolve("empty").toRealPath())
                .contains("mvn -B -q -DskipTests -pl rag-cli -am package");
        assertThat(badJava.code()).isEqualTo(1);
        assertThat(badJava.err()).contains("JAVA_HOME is " + tmp.resolve("no-java")).contains("bin/java");
    }

    @Test
    void index_runsWithTheSerialCollector_theServersWithTheJvmsDefault() throws Exception {
        Path home = Files.createDirectories(tmp.resolve("opt/ragkit"));
        Path launcher = Files.createDirectories(home.resolve("bin")).resolve("ragkit");
        Files.copy(LAUNCHER, launcher);
        Files.writeString(Files.createDirectories(home.resolve("lib")).resolve("ragkit.jar"), "not run");
        Path java = Files.createDirectories(tmp.resolve("jdk/bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");      // prints the options it is given
        assertThat(java.toFile().setExecutable(true)).isTrue();
        Map<String, String> env = Map.of("JAVA_HOME", tmp.resolve("jdk").toString(), "RAGKIT_CDS", "off");

        CliRun index = launch(launcher, env, "index", "docs");
        CliRun serve = launch(launcher, env, "serve");

        assertThat(index.out().lines().toList()).as(index.err())
                .containsSubsequence("-XX:+UseSerialGC", "-jar", home.toRealPath().resolve("lib/ragkit.jar").toString(), "index")
                .doesNotContain("-XX:TieredStopAtLevel=1");              // indexing runs long: the optimising JIT
        assertThat(serve.out().lines().toList()).as(serve.err()).contains("serve")
                .doesNotContain("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    }

    private CliRun launch(Path launcher, Map<String, String> env, String... args) throws Exception {
        return launch(tmp, launcher, env, args);
    }

    /**
     * Runs the launcher with {@code sh} in {@code tmp}, with JAVA_HOME this JVM's and no RAGKIT_CLASSPATH unless
     * given.
     */
    static CliRun launch(Path tmp, Path launcher, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("sh", launcher.toString()));
        command.addAll(List.of(args));
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        ProcessBuilder builder = new ProcessBuilder(command).directory(tmp.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().remove("RAGKIT_CLASSPATH");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("XDG_CACHE_HOME", tmp.resolve("cache").toString()); // not the user's cache
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("the launcher did not finish in 120 s");
        }
        return new CliRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** A jar that is only a manifest: the CLI's main class, and this test's class path as its class path. */
    private static void manifestOnlyJar(Path jar) throws IOException {
        StringBuilder classPath = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                classPath.append(Path.of(entry).toAbsolutePath().toUri()).append(' ');
            }
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, RagkitCli.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath.toString().strip());
        try (OutputStream out = Files.newOutputStream(jar)) {
            new JarOutputStream(out, manifest).close();                  // the manifest is the whole jar
        }
    }
}
