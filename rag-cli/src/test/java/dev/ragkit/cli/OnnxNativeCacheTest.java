package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ONNX Runtime's native libraries extracted once into a cache folder, checked against the jar's bytes. */
final class OnnxNativeCacheTest {
    @TempDir
    Path tmp;

    private static final String PLATFORM = OnnxNativeCache.platform(System.getProperty("os.name"),
            System.getProperty("os.arch"));

    @Test
    void platform_namesOnnxRuntimesFolders() {
        assertThat(OnnxNativeCache.platform("Linux", "amd64")).isEqualTo("linux-x64");
        assertThat(OnnxNativeCache.platform("Linux", "aarch64")).isEqualTo("linux-aarch64");
        assertThat(OnnxNativeCache.platform("Mac OS X", "aarch64")).isEqualTo("osx-aarch64");
        assertThat(OnnxNativeCache.platform("Mac OS X", "x86_64")).isEqualTo("osx-x64");
        assertThat(OnnxNativeCache.platform("Windows 11", "amd64")).isEqualTo("win-x64");
        assertThat(OnnxNativeCache.platform("FreeBSD", "amd64")).isNull();
        assertThat(OnnxNativeCache.platform("Linux", "ppc64le")).isNull();
    }

    @Test
    void prepare_extractsBothLibrariesOnce_andReplacesADamagedOne() throws Exception {
        assumeTrue(PLATFORM != null, "ONNX Runtime ships no libraries for this platform");
        ClassLoader loader = getClass().getClassLoader();

        Path dir = OnnxNativeCache.prepare(tmp, loader);

        assertThat(dir).isNotNull().startsWith(tmp.resolve("onnxruntime")).isDirectory();
        for (String library : new String[] {"onnxruntime", "onnxruntime4j_jni"}) {
            String name = System.mapLibraryName(library);
            assertThat(Files.readAllBytes(dir.resolve(name))).as(name)
                    .isEqualTo(bytes(loader.getResource("ai/onnxruntime/native/" + PLATFORM + "/" + name)));
        }
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));

        Path jni = dir.resolve(System.mapLibraryName("onnxruntime4j_jni"));
        FileTime old = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(jni, old);
        assertThat(OnnxNativeCache.prepare(tmp, loader)).isEqualTo(dir);
        assertThat(Files.getLastModifiedTime(jni)).as("an intact library is not written again").isEqualTo(old);

        Files.write(jni, new byte[] {1, 2, 3});
        assertThat(OnnxNativeCache.prepare(tmp, loader)).isEqualTo(dir);
        assertThat(Files.size(jni)).isGreaterThan(3);
    }

    @Test
    void prepare_withoutTheLibrariesOrAWritableCache_leavesOnnxRuntimeToItself() throws Exception {
        assumeTrue(PLATFORM != null, "ONNX Runtime ships no libraries for this platform");
        try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
            assertThat(OnnxNativeCache.prepare(tmp, empty)).isNull();
        }
        Path blocked = tmp.resolve("file-not-folder");
        Files.writeString(blocked, "x");
        assertThat(OnnxNativeCache.prepare(blocked, getClass().getClassLoader())).isNull();
    }

    @Test
    void cacheRoot_followsXdgCacheHome() {
        assertThat(OnnxNativeCache.cacheRoot(Map.of("XDG_CACHE_HOME", "/var/cache/me")))
                .isEqualTo(Path.of("/var/cache/me", "ragkit"));
        assertThat(OnnxNativeCache.cacheRoot(Map.of())).isEqualTo(Path.of(System.getProperty("user.home"),
                ".cache", "ragkit"));
    }

    private static byte[] bytes(URL url) throws Exception {
        try (InputStream in = url.openStream()) {
            return in.readAllBytes();
        }
    }
}
