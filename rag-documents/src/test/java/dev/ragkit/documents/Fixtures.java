package dev.ragkit.documents;

import dev.ragkit.parse.DocumentSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Reads the committed test documents from the class path. */
final class Fixtures {
    private Fixtures() {
    }

    static byte[] bytes(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/documents/" + name)) {
            if (in == null) {
                throw new IllegalStateException("no test document " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static DocumentSource source(String name) {
        return DocumentSource.of("docs/" + name, bytes(name));
    }
}
