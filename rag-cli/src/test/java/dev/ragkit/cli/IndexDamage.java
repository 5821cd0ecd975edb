package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * Damage as a disk makes it: one byte inverted in the middle of one of a segment's data files, inside its compound
 * file when the segment has one (found by its bytes), never in a header or a checksum footer.
 */
final class IndexDamage {
    private IndexDamage() {
    }

    /** @return the name of the segment of the index's last commit that holds the document with this path */
    static String segmentHolding(Path index, String path) throws IOException {
        try (FSDirectory dir = FSDirectory.open(index); DirectoryReader reader = DirectoryReader.open(dir)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                if (leaf.reader().docFreq(new Term("path", path)) > 0) {
                    return ((SegmentReader) leaf.reader()).getSegmentName();
                }
            }
        }
        throw new AssertionError("no segment of " + index + " holds " + path);
    }

    /**
     * Inverts the byte in the middle of the segment's file with this extension ({@code vec}, {@code fdt},
     * {@code fnm}, …).
     *
     * @return the file's name, e.g. {@code _0_Lucene99HnswVectorsFormat_0.vec}
     */
    static String flip(Path index, String segment, String extension) throws IOException {
        try (FSDirectory dir = FSDirectory.open(index)) {
            for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(dir)) {
                if (!info.info.name.equals(segment)) {
                    continue;
                }
                if (!info.info.getUseCompoundFile()) {
                    String name = Arrays.stream(dir.listAll()).filter(n -> n.startsWith(segment + "_")
                            || n.startsWith(segment + ".")).filter(n -> n.endsWith("." + extension)).findFirst()
                            .orElseThrow();
                    Path file = index.resolve(name);
                    byte[] bytes = Files.readAllBytes(file);
                    bytes[bytes.length / 2] ^= (byte) 0xFF;
                    Files.write(file, bytes);
                    return name;
                }
                try (Directory compound = info.info.getCodec().compoundFormat().getCompoundReader(dir, info.info,
                        IOContext.DEFAULT)) {
                    Optional<String> inner = Arrays.stream(compound.listAll())
                            .filter(n -> n.endsWith("." + extension)).findFirst();
                    String name = inner.orElseThrow(() -> new AssertionError("no ." + extension + " in " + segment));
                    byte[] content;
                    try (IndexInput in = compound.openInput(name, IOContext.READONCE)) {
                        content = new byte[(int) in.length()];
                        in.readBytes(content, 0, content.length);
                    }
                    Path cfs = index.resolve(segment + ".cfs");
                    byte[] all = Files.readAllBytes(cfs);
                    int at = indexOf(all, content);
                    assertThat(at).as(name + " inside " + cfs).isNotNegative();
                    all[at + content.length / 2] ^= (byte) 0xFF;
                    Files.write(cfs, all);
                    return name;
                }
            }
        }
        throw new AssertionError("no segment " + segment + " in " + index);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
