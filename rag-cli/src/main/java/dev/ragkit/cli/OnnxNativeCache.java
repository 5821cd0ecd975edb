package dev.ragkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarEntry;
import org.jspecify.annotations.Nullable;

/**
 * ONNX Runtime's native libraries, kept in a cache folder instead of copied out of the jar on every start. ONNX
 * Runtime's Java binding copies its two libraries (about 16 MB) into a new temporary folder each time a JVM loads
 * it, and leaves the empty folder behind; given the system property {@value #PROPERTY} it loads them from that folder
 * instead. The CLI extracts them once per ONNX Runtime build (named by the jar entries' CRC and size) into
 * {@code <cache>/onnxruntime/<platform>-<fingerprint>/} and sets the property: about a tenth of {@code ragkit ask}'s
 * cold start, and no folder left in {@code /tmp} per command. Anything unexpected (an unknown platform, a
 * read-only home, a library missing from the class path) leaves ONNX Runtime to load them its own way.
 */
final class OnnxNativeCache {
    /** ONNX Runtime's system property: the folder its native libraries are loaded from. */
    static final String PROPERTY = "onnxruntime.native.path";
    private static final String RESOURCES = "ai/onnxruntime/native/";
    private static final List<String> LIBRARIES = List.of("onnxruntime", "onnxruntime4j_jni");

    private OnnxNativeCache() {
    }

    /** Sets {@value #PROPERTY} to the cached libraries, unless it is set already or they cannot be cached. */
    static void use(Map<String, String> env) {
        if (System.getProperty(PROPERTY) != null) {
            return;
        }
        Path dir = prepare(cacheRoot(env), OnnxNativeCache.class.getClassLoader());
        if (dir != null) {
            System.setProperty(PROPERTY, dir.toString());
        }
    }

    /** @return {@code $XDG_CACHE_HOME/ragkit}, else {@code ~/.cache/ragkit} */
    static Path cacheRoot(Map<String, String> env) {
        String xdg = env.get("XDG_CACHE_HOME");
        return xdg != null && !xdg.isBlank() ? Path.of(xdg, "ragkit")
                : Path.of(System.getProperty("user.home"), ".cache", "ragkit");
    }

    /**
     * Extracts this platform's libraries into the cache when they are not there yet.
     *
     * @return the folder holding both libraries, or {@code null} when they cannot be cached (the caller then leaves
     *         ONNX Runtime to its own way)
     */
    static @Nullable Path prepare(Path cacheRoot, ClassLoader loader) {
        String platform = platform(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
        if (platform == null) {
            return null;
        }
        try {
            List<URL> urls = new ArrayList<>();
            long fingerprint = 17;
            for (String library : LIBRARIES) {
                URL url = loader.getResource(RESOURCES + platform + "/" + System.mapLibraryName(library));
                if (url == null) {
                    return null;
                }
                urls.add(url);
                fingerprint = fingerprint * 31 + fingerprint(url);
            }
            Path dir = cacheRoot.resolve("onnxruntime").resolve(platform + "-" + Long.toHexString(fingerprint));
            Files.createDirectories(dir);
            for (int i = 0; i < urls.size(); i++) {
                Path target = dir.resolve(System.mapLibraryName(LIBRARIES.get(i)));
                if (!Files.isRegularFile(target) || Files.size(target) != size(urls.get(i))) {
                    extract(urls.get(i), target);
                }
            }
            return dir;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return ONNX Runtime's name for this platform's folder of libraries, or {@code null} for one it has none for */
    static @Nullable String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        String system = os.contains("linux") ? "linux" : os.contains("mac") || os.contains("darwin") ? "osx"
                : os.startsWith("windows") ? "win" : null;
        String machine = arch.equals("amd64") || arch.equals("x86_64") ? "x64"
                : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : null;
        return system == null || machine == null ? null : system + "-" + machine;
    }

    /** A file written whole under another name, then moved into place, so no process ever loads half of it. */
    private static void extract(URL url, Path target) throws IOException {
        Path partial = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".partial");
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(partial);
        }
    }

    /** @return the jar entry's CRC and size, or a file's size and time, as one number */
    private static long fingerprint(URL url) throws IOException {
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection) {
            JarEntry entry = ((JarURLConnection) connection).getJarEntry();
            return entry.getCrc() * 31 + entry.getSize();
        }
        return connection.getContentLengthLong() * 31 + connection.getLastModified();
    }

    private static long size(URL url) throws IOException {
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection) {
            return ((JarURLConnection) connection).getJarEntry().getSize();
        }
        return connection.getContentLengthLong();
    }
}
