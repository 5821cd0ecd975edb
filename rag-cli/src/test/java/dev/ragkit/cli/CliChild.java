package dev.ragkit.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code ragkit} command in a child JVM (the test class path), for what one JVM cannot show: two processes
 * at once, and {@code kill -9}. Standard error is collected line by line as it comes, so that a test can wait for a
 * stage of the run before it acts; standard output is discarded. {@link #run} runs one command to its end and keeps
 * both streams.
 */
final class CliChild implements AutoCloseable {
    private final Process process;
    private final List<String> err = new ArrayList<>();
    private final Thread reader;

    private CliChild(Process process) {
        this.process = process;
        this.reader = new Thread(this::collect, "ragkit-child-stderr");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Starts {@code ragkit args} in {@code cwd} with {@code env} added to this process's environment. */
    static CliChild start(Map<String, String> env, Path cwd, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "dev.ragkit.cli.RagkitCli"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile());
        builder.environment().putAll(env);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        return new CliChild(builder.start());
    }

    /**
     * Runs {@code ragkit args} to the end in a child JVM, as a user's shell does: standard output and standard error
     * are the child's real ones (where logging writes), collected whole.
     *
     * @return the exit code and both streams
     */
    static CliRun run(Map<String, String> env, Path cwd, long timeoutSeconds, String... args) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "dev.ragkit.cli.RagkitCli"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("ragkit-child", ".out");
        Path err = Files.createTempFile("ragkit-child", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("ragkit did not finish in " + timeoutSeconds + " s; stderr:\n"
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return new CliRun(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    private void collect() {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                synchronized (err) {
                    err.add(line);
                    err.notifyAll();
                }
            }
        } catch (IOException e) {
            // the child was killed
        }
    }

    /**
     * Waits until a line of standard error contains {@code text}, or the child exits.
     *
     * @return whether such a line came
     */
    boolean awaitErr(String text, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        synchronized (err) {
            while (true) {
                if (err.stream().anyMatch(l -> l.contains(text))) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || !process.isAlive() && !reader.isAlive()) {
                    return false;
                }
                err.wait(Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(left))));
            }
        }
    }

    /** @return standard error so far */
    String err() {
        synchronized (err) {
            return String.join("\n", err);
        }
    }

    /** @return whether the child is still running */
    boolean alive() {
        return process.isAlive();
    }

    /** Kills the child the way {@code kill -9} does, and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** @return the exit code, after waiting up to {@code timeoutSeconds} (then killing it and failing) */
    int exitCode(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            kill();
            throw new AssertionError("ragkit did not finish in " + timeoutSeconds + " s; stderr:\n" + err());
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
