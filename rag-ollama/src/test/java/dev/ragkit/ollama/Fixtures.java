package dev.ragkit.ollama;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the recorded Ollama responses in {@code shared/fixtures/ollama} (beside the repository; see SOURCES.md). */
public final class Fixtures {

    private Fixtures() {
    }

    /**
     * @param name a file in {@code shared/fixtures/ollama}, e.g. {@code tags.json}
     * @return its text
     */
    public static String read(String name) {
        for (String dir : List.of("../../shared/fixtures/ollama", "../shared/fixtures/ollama", "shared/fixtures/ollama")) {
            Path file = Path.of(dir, name);
            if (Files.isRegularFile(file)) {
                try {
                    return Files.readString(file, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("fixture '" + name + "' not found: expected shared/fixtures/ollama beside the"
                + " repository (working directory " + Path.of("").toAbsolutePath() + ")");
    }
}
