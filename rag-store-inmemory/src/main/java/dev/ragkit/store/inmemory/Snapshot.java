package dev.ragkit.store.inmemory;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * The snapshot file format, version 2 (all numbers big-endian):
 * <pre>
 * magic "RAGKSNAP" | int format (2) | int dimension (0 = none) | nullable string embedder id (null = unknown)
 * int tenants, then per tenant: string tenant | int documents, then per document:
 *   string id | string path | string title | nullable string docType | byte promotion | long date (epoch day,
 *   Long.MIN_VALUE = none) | int n + n strings access tags | nullable string owner | int n + n strings links |
 *   int n + n (key, value) string pairs metadata | long charCount | int chunks, then per chunk:
 *     string text | int tokenCount | int startLine | int endLine | nullable string section | int page (0 = none)
 *     | dimension floats
 * long CRC-32C of every byte above
 * </pre>
 * A string is an int byte length and that many UTF-8 bytes; a nullable string has length -1 for null.
 * <p>
 * Version 1 is the same without the embedder id; it is still read, as a snapshot whose embedder is unknown. Other
 * versions are refused.
 */
final class Snapshot {
    private static final byte[] MAGIC = "RAGKSNAP".getBytes(StandardCharsets.US_ASCII);
    /** The largest dimension a snapshot may declare (far above any embedding model's). */
    private static final int MAX_DIMENSION = 1 << 16;
    /** The version {@link #write} writes. */
    static final int FORMAT = 2;
    /** The oldest version {@link #read} reads: no embedder id. */
    static final int FORMAT_WITHOUT_EMBEDDER = 1;
    private static final long NO_DATE = Long.MIN_VALUE;

    private Snapshot() {
    }

    static void write(Path file, int dimension, @Nullable String embedder, List<TenantIndex> tenants) {
        Path target = file.toAbsolutePath();
        Path dir = target.getParent();
        String base = target.getFileName().toString();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new StoreException("cannot save the snapshot to " + target + ": the folder " + dir
                    + " does not exist; create it first", false);
        }
        if (Files.isDirectory(target)) {
            throw new StoreException("cannot save the snapshot to " + target + ": it is a folder", false);
        }
        deleteStaleTemporaries(dir, base);
        Path tmp = null;
        try {
            tmp = Files.createTempFile(dir, "." + base + ".", ".tmp");
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                OutputStream raw = Channels.newOutputStream(channel);
                CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(raw, 1 << 16),
                        new CRC32C());
                DataOutputStream out = new DataOutputStream(checked);
                writeBody(out, dimension, embedder, tenants);
                out.flush();
                long crc = checked.getChecksum().getValue();
                DataOutputStream trailer = new DataOutputStream(raw);
                trailer.writeLong(crc);
                trailer.flush();
                channel.force(true);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
            syncDirectory(dir);
        } catch (IOException e) {
            throw new StoreException("could not save the snapshot to " + target + ": " + e
                    + "; the previous snapshot, if any, is unchanged", e, true);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // a later save removes it
                }
            }
        }
    }

    private static void writeBody(DataOutputStream out, int dimension, @Nullable String embedder,
            List<TenantIndex> tenants) throws IOException {
        out.write(MAGIC);
        out.writeInt(FORMAT);
        out.writeInt(dimension);
        writeNullable(out, embedder);
        List<TenantIndex.Live> lives = new ArrayList<>();
        for (TenantIndex tenant : tenants) {
            lives.add(tenant.live());
        }
        out.writeInt(lives.size());
        ByteBuffer floats = ByteBuffer.allocate(Math.max(4, dimension * 4));
        for (TenantIndex.Live live : lives) {
            writeString(out, live.tenant);
            out.writeInt(live.entries.size());
            for (DocEntry e : live.entries) {
                StoredDocument d = e.document;
                writeString(out, d.id());
                writeString(out, d.path());
                writeString(out, d.title());
                writeNullable(out, d.docType());
                out.writeByte(d.promotionLevel().ordinal());
                out.writeLong(d.date() == null ? NO_DATE : d.date().toEpochDay());
                writeStrings(out, d.accessTags());
                writeNullable(out, d.ownerTag());
                writeStrings(out, d.links());
                out.writeInt(d.metadata().size());
                for (Map.Entry<String, String> m : d.metadata().entrySet()) {
                    writeString(out, m.getKey());
                    writeString(out, m.getValue());
                }
                out.writeLong(d.charCount());
                out.writeInt(e.chunks.length);
                for (int i = 0; i < e.chunks.length; i++) {
                    StoredChunk c = e.chunks[i];
                    writeString(out, c.text());
                    out.writeInt(c.tokenCount());
                    out.writeInt(c.startLine());
                    out.writeInt(c.endLine());
                    writeNullable(out, c.section());
                    out.writeInt(c.page() == null ? 0 : c.page());
                    floats.clear();
                    floats.asFloatBuffer().put(live.vectors, (e.firstRow + i) * live.dim, live.dim);
                    out.write(floats.array(), 0, live.dim * 4);
                }
            }
        }
    }

    /**
     * Parses and verifies the whole file, checks its embedder against the store's, then fills {@code store};
     * nothing is stored when the file is bad or made by another embedder.
     */
    static void read(Path file, InMemoryDocumentStore store) {
        Path source = file.toAbsolutePath();
        long size;
        try {
            size = Files.size(source);
        } catch (NoSuchFileException e) {
            throw new StoreException("no snapshot at " + source + "; save one with save(path) first", e, false);
        } catch (IOException e) {
            throw new StoreException("cannot read the snapshot " + source + ": " + e, e, true);
        }
        List<Map.Entry<StoredDocument, List<StoredChunk>>> documents = new ArrayList<>();
        int dimension;
        String embedder = null;
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(source), 1 << 16)) {
            CheckedInputStream checked = new CheckedInputStream(raw, new CRC32C());
            DataInputStream in = new DataInputStream(checked);
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw corrupted(source, "it is not a RagKit store snapshot (wrong file signature)");
            }
            int format = in.readInt();
            if (format != FORMAT && format != FORMAT_WITHOUT_EMBEDDER) {
                throw new StoreException("the snapshot " + source + " has format version " + format
                        + " but this RagKit reads versions " + FORMAT_WITHOUT_EMBEDDER + " to " + FORMAT
                        + "; use the RagKit version that wrote it, or re-index the documents", false);
            }
            dimension = in.readInt();
            // an empty snapshot records its dimension too, so the dimension is not bounded by the file's size
            if (dimension < 0 || dimension > MAX_DIMENSION) {
                throw corrupted(source, "impossible dimension " + dimension);
            }
            Reader reader = new Reader(in, size, source);
            if (format != FORMAT_WITHOUT_EMBEDDER) {
                embedder = reader.nullable();
                if (embedder != null && embedder.isBlank()) {
                    throw corrupted(source, "impossible embedder id '" + embedder + "'");
                }
            }
            int tenantCount = reader.count();
            for (int t = 0; t < tenantCount; t++) {
                String tenant = reader.string();
                int docCount = reader.count();
                for (int n = 0; n < docCount; n++) {
                    documents.add(reader.document(tenant, dimension));
                }
            }
            long computed = checked.getChecksum().getValue();
            long stored = new DataInputStream(raw).readLong();
            if (computed != stored) {
                throw corrupted(source, "checksum mismatch");
            }
            if (raw.read() != -1) {
                throw corrupted(source, "unexpected bytes after the checksum");
            }
        } catch (StoreException e) {
            throw e;
        } catch (EOFException e) {
            throw new StoreException("the snapshot " + source + " is truncated (" + size + " bytes); it was not"
                    + " loaded. Restore it from a backup or re-index the documents", e, false);
        } catch (IOException e) {
            throw new StoreException("cannot read the snapshot " + source + ": " + e, e, true);
        } catch (RuntimeException e) {
            // a damaged value that no record accepts (blank id, impossible date, bad line range, ...)
            throw corrupted(source, e.toString());
        }
        requireSameEmbedder(source, embedder, dimension, store.embedder());
        if (embedder != null) {
            store.adoptEmbedder(embedder);
        }
        for (Map.Entry<StoredDocument, List<StoredChunk>> d : documents) {
            store.upsert(d.getKey(), d.getValue());
        }
        if (dimension > 0) {
            store.adoptDimension(dimension);          // an empty snapshot keeps its dimension too
        }
        if (dimension > 0 && store.dimension() != dimension) {
            throw new IllegalArgumentException("the snapshot " + source + " holds " + dimension
                    + "-dimensional vectors but the store was configured for " + store.dimension());
        }
    }

    private static void requireSameEmbedder(Path source, @Nullable String recorded, int dimension,
            @Nullable String configured) {
        if (recorded != null && configured != null && !recorded.equals(configured)) {
            throw new IllegalArgumentException("the snapshot " + source + " holds vectors made by '" + recorded + "'"
                    + (dimension == 0 ? "" : " (" + dimension + " dimensions)") + ", not by '" + configured
                    + "': vectors of two models cannot be compared. Embed with '" + recorded + "' (configure"
                    + " embedder '" + recorded + "'), or re-index the documents with '" + configured
                    + "' into a new snapshot (ragkit index --rebuild)");
        }
    }

    private static StoreException corrupted(Path source, @Nullable String why) {
        return new StoreException("the snapshot " + source + " is corrupted (" + why + "); it was not loaded."
                + " Restore it from a backup or re-index the documents", false);
    }

    /** Reads the body's values, rejecting lengths that cannot fit in the file before allocating them. */
    private static final class Reader {
        private final DataInputStream in;
        private final long fileSize;
        private final Path source;

        Reader(DataInputStream in, long fileSize, Path source) {
            this.in = in;
            this.fileSize = fileSize;
            this.source = source;
        }

        int count() throws IOException {
            int n = in.readInt();
            if (n < 0 || n > fileSize) {
                throw corrupted(source, "impossible count " + n);
            }
            return n;
        }

        String string() throws IOException {
            String s = nullable();
            if (s == null) {
                throw corrupted(source, "missing text");
            }
            return s;
        }

        @Nullable String nullable() throws IOException {
            int length = in.readInt();
            if (length == -1) {
                return null;
            }
            if (length < 0 || length > fileSize) {
                throw corrupted(source, "impossible text length " + length);
            }
            byte[] bytes = new byte[length];
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }

        List<String> strings() throws IOException {
            int n = count();
            List<String> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(string());
            }
            return list;
        }

        Map.Entry<StoredDocument, List<StoredChunk>> document(String tenant, int dimension) throws IOException {
            String id = string();
            String path = string();
            String title = string();
            String docType = nullable();
            int promotion = in.readUnsignedByte();
            if (promotion >= PromotionLevel.values().length) {
                throw corrupted(source, "unknown promotion level " + promotion);
            }
            long epochDay = in.readLong();
            List<String> tags = strings();
            String owner = nullable();
            List<String> links = strings();
            int metaCount = count();
            Map<String, String> metadata = new LinkedHashMap<>();
            for (int i = 0; i < metaCount; i++) {
                metadata.put(string(), string());
            }
            long charCount = in.readLong();
            StoredDocument document = new StoredDocument(id, path, title, docType,
                    PromotionLevel.values()[promotion], epochDay == NO_DATE ? null : LocalDate.ofEpochDay(epochDay),
                    new java.util.TreeSet<>(tags), owner, links, metadata, charCount, tenant);
            int chunkCount = count();
            if (chunkCount > 0 && dimension == 0) {
                throw corrupted(source, "chunks without a dimension");
            }
            List<StoredChunk> chunks = new ArrayList<>(chunkCount);
            byte[] vectorBytes = new byte[dimension * 4];
            for (int i = 0; i < chunkCount; i++) {
                String text = string();
                int tokens = in.readInt();
                int startLine = in.readInt();
                int endLine = in.readInt();
                String section = nullable();
                int page = in.readInt();
                in.readFully(vectorBytes);
                float[] vector = new float[dimension];
                ByteBuffer.wrap(vectorBytes).asFloatBuffer().get(vector);
                chunks.add(new StoredChunk(id, i, text, vector, tokens, startLine, endLine, section,
                        page == 0 ? null : page));
            }
            return Map.entry(document, chunks);
        }
    }

    /**
     * Deletes what an interrupted save left: {@code .<base>.*.tmp} files that are provably a snapshot's (they start
     * with its signature, or are empty because the save died before writing). A file of that name that is anything
     * else is not ours, and stays.
     */
    private static void deleteStaleTemporaries(Path dir, String base) {
        try (DirectoryStream<Path> stale = Files.newDirectoryStream(dir, "." + base + ".*.tmp")) {
            for (Path p : stale) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && startsLikeASnapshot(p)) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException ignored) {
            // best effort: a leftover temporary file wastes space but never replaces the snapshot
        }
    }

    private static boolean startsLikeASnapshot(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] head = in.readNBytes(MAGIC.length);
            return head.length == 0 || Arrays.equals(head, MAGIC);
        }
    }

    private static void syncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // not every platform can sync a folder; the file itself is already on disk
        }
    }

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static void writeNullable(DataOutputStream out, @Nullable String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
        } else {
            writeString(out, s);
        }
    }

    private static void writeStrings(DataOutputStream out, java.util.Collection<String> strings) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            writeString(out, s);
        }
    }
}
