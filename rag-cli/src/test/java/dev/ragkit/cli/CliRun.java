package dev.ragkit.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One run of the real {@code ragkit} command in this JVM, and the helpers the CLI tests share.
 *
 * @param code the exit code
 * @param out  standard output
 * @param err  standard error
 */
record CliRun(int code, String out, String err) {

    /** Runs {@code ragkit args} with this environment and working directory, not on a terminal. */
    static CliRun of(Map<String, String> env, Path cwd, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RagkitCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true), env, cwd, false);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** @return the URL of a local port nothing listens on: "auto" falls back to extractive answers */
    static String deadServerUrl() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return "http://127.0.0.1:" + free.getLocalPort();
        }
    }

    /** Writes a UTF-8 file under {@code root}, creating its folders. */
    static void write(Path root, String path, String content) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }
}
