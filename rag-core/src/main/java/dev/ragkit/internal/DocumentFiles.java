package dev.ragkit.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The one way RagKit reads a document file: bounded in size, and never through a link at its last step. */
public final class DocumentFiles {

    private DocumentFiles() {
    }

    /**
     * Reads a file, without following a link at its last step, and at most {@code maxBytes + 1} bytes.
     *
     * @param file     the file
     * @param maxBytes the most bytes to accept
     * @return the bytes, or {@code null} when the file is larger than the limit (also when it grew while read)
     * @throws IOException when it cannot be read (a link at its last step cannot be opened)
     */
    public static byte @Nullable [] read(Path file, long maxBytes) throws IOException {
        Set<OpenOption> options = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        SeekableByteChannel channel;
        try {
            channel = Files.newByteChannel(file, options);
        } catch (UnsupportedOperationException e) {
            channel = Files.newByteChannel(file, StandardOpenOption.READ);
        }
        try (InputStream in = Channels.newInputStream(channel)) {
            if (channel.size() > maxBytes) {
                return null;
            }
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 64, maxBytes + 1));
            return bytes.length > maxBytes ? null : bytes;
        }
    }
}
