package dev.ragkit.store.lucene;

import dev.ragkit.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * What a folder holds, seen by the one rule RagKit keeps in an index folder: it writes and deletes only what it can
 * prove is the index's own, and never lets Lucene near a file Lucene would take for its own but that is not.
 *
 * <p>Proof of ownership is
 * <ul>
 *   <li>the marker file {@value #MARKER}, which RagKit writes when it creates an index (or adopts one made before
 *       the marker existed), starting with the line {@value #MARKER_LINE};</li>
 *   <li>Lucene's files: those Lucene's own commits list ({@link IndexCommit#getFileNames()}), and files under names
 *       Lucene uses ({@code _…}, {@code segments_N}, {@code pending_segments_N}) that start with Lucene's codec
 *       header ({@link CodecUtil#CODEC_MAGIC}) or are empty (a writer killed before its first buffer reached the
 *       disk);</li>
 *   <li>Lucene's {@code write.lock} and RagKit's {@value LuceneIndex#HOLDER_FILE}.</li>
 * </ul>
 * A file under a name Lucene uses that is none of these — {@code _config.yml}, {@code _notes.md},
 * {@code segments-plan.txt} — is a <em>stranger</em>: Lucene's {@code IndexWriter} deletes unreferenced files whose
 * names match its patterns when it opens, and a {@code segments…} name it cannot parse breaks every reader. A folder
 * with a stranger is never written (and, for the unparseable names, never read). Anything else in the folder is
 * left alone.
 */
final class IndexFolder {
    /** The marker RagKit writes into every index folder it creates. */
    static final String MARKER = "ragkit-index.txt";
    /** The first line of the marker. */
    static final String MARKER_LINE = "RagKit Lucene index";
    /** How a rebuild's staging folder beside the index is named: {@code .<index name>.rebuild}. */
    static final String STAGING_SUFFIX = ".rebuild";
    /** Where the marker is written before it is moved into place. */
    private static final String MARKER_TMP = "." + MARKER + ".tmp";

    private IndexFolder() {
    }

    /**
     * What a folder holds.
     *
     * @param dir        the folder
     * @param exists     whether it is a folder
     * @param marked     whether it carries RagKit's marker
     * @param committed  whether Lucene reads every commit in it (at least one)
     * @param lucene     Lucene's files, proven by a commit listing them, by Lucene's header, or empty
     * @param strangers  files under names Lucene uses that are not Lucene's (or that Lucene cannot parse)
     * @param others     everything else but the marker, the lock and the holder file: left alone
     */
    record Contents(Path dir, boolean exists, boolean marked, boolean committed, SortedSet<String> lucene,
            SortedSet<String> strangers, SortedSet<String> others) {

        /** @return whether the folder is absent or holds nothing but the marker, the lock and the holder file */
        boolean empty() {
            return lucene.isEmpty() && strangers.isEmpty() && others.isEmpty();
        }

        /**
         * @return whether RagKit may delete what the folder holds: its marker is there, or nothing but the lock and
         *         the holder file (a folder made and left before it was marked), and no file RagKit did not write
         */
        boolean clearable() {
            return (marked || empty()) && strangers.isEmpty();
        }

        /**
         * @return whether the folder is an index, or was one: RagKit's marker, a readable commit, or a file named
         *         like a Lucene commit
         */
        boolean indexLike() {
            return marked || committed || lucene.stream().anyMatch(n -> n.startsWith(IndexFileNames.SEGMENTS));
        }

        /** @throws StoreException naming the strangers and the fix, when there are any */
        void refuseStrangers(String doing) {
            if (!strangers.isEmpty() && !indexLike()) {
                SortedSet<String> all = new TreeSet<>(lucene);
                all.addAll(strangers);
                all.addAll(others);
                throw notAnIndex(dir, all, doing);
            }
            if (!strangers.isEmpty()) {
                throw new StoreException(doing + " refused: the folder " + dir + " holds " + names(strangers)
                        + ", named like Lucene's own files but not Lucene's. Lucene deletes such files when it"
                        + " writes an index (and cannot read a folder holding a 'segments…' name it does not know)."
                        + " Nothing was changed. Move them out of " + dir + ", then try again", false);
            }
        }
    }

    /** How to make an index, for messages about a folder that is none. */
    static final String HOW_TO_CREATE = "to create an index, index your documents into a new or empty folder"
            + " (ragkit index <folder of documents> --index <new folder>)";

    /**
     * @param names what the folder holds
     * @param doing what was refused, e.g. {@code opening the index}
     * @return the failure for a folder that holds files but is no index, RagKit's or Lucene's: never a hint to
     *         rebuild it (a rebuild replaces only an index RagKit made)
     */
    static StoreException notAnIndex(Path dir, SortedSet<String> names, String doing) {
        return new StoreException(doing + " refused: the folder " + dir + " is not an index (not a RagKit index, nor"
                + " any Lucene index): it holds " + names(names) + ". Nothing was changed. If your index is elsewhere,"
                + " point the store at it (ragkit: --index); " + HOW_TO_CREATE, false);
    }

    /**
     * Looks at a folder without changing it.
     *
     * @param readHeaders whether to list Lucene's commits and read the first bytes of files they do not list
     *                    (writers need the proof; readers only need the names, and {@code committed} is then false)
     */
    static Contents inspect(Path dir, boolean readHeaders) throws IOException {
        SortedSet<String> lucene = new TreeSet<>();
        SortedSet<String> strangers = new TreeSet<>();
        SortedSet<String> others = new TreeSet<>();
        if (!Files.isDirectory(dir)) {
            return new Contents(dir, false, false, false, lucene, strangers, others);
        }
        boolean marked = false;
        List<String> named = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.equals(MARKER) && isMarker(entry)) {
                    marked = true;
                } else if (name.equals(LuceneIndex.LOCK_FILE) && !emptyFile(entry)) {
                    strangers.add(name);        // Lucene's lock file is always empty (its lock checks so)
                } else if (name.equals(LuceneIndex.LOCK_FILE) || name.equals(LuceneIndex.HOLDER_FILE)
                        || name.equals(MARKER_TMP) && markerBeingWritten(entry)) {
                    continue;
                } else if (luceneName(name)) {
                    if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) || !parseable(name)) {
                        strangers.add(name);
                    } else {
                        named.add(name);
                    }
                } else {
                    others.add(name);
                }
            }
        }
        boolean committed = false;
        SortedSet<String> listed = new TreeSet<>();
        if (readHeaders && strangers.isEmpty()
                && named.stream().anyMatch(n -> n.startsWith(IndexFileNames.SEGMENTS))) {
            try (Directory directory = FSDirectory.open(dir)) {
                committed = commitFiles(directory, named, listed);
            }
        }
        for (String name : named) {
            if (listed.contains(name) || !readHeaders || lucenesOwn(dir.resolve(name))) {
                lucene.add(name);
            } else {
                strangers.add(name);
            }
        }
        return new Contents(dir, true, marked, committed, lucene, strangers, others);
    }

    /** @return whether Lucene read every commit; the files of the commits it read are added to {@code listed} */
    private static boolean commitFiles(Directory directory, List<String> named, SortedSet<String> listed) {
        try {
            for (IndexCommit commit : DirectoryReader.listCommits(directory)) {
                listed.addAll(commit.getFileNames());
            }
            return true;
        } catch (IndexNotFoundException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            // A damaged commit: take the files of the commits that can still be read.
            for (String name : named) {
                if (name.startsWith(IndexFileNames.SEGMENTS)) {
                    try {
                        listed.addAll(SegmentInfos.readCommit(directory, name).files(true));
                    } catch (IOException | RuntimeException unreadable) {
                        // proven (or not) by its header below
                    }
                }
            }
            return false;
        }
    }

    /** @return whether Lucene takes a file of this name for one of its own (and may delete it) */
    static boolean luceneName(String name) {
        return IndexFileNames.CODEC_FILE_PATTERN.matcher(name).matches() || name.startsWith(IndexFileNames.SEGMENTS)
                || name.startsWith(IndexFileNames.PENDING_SEGMENTS);
    }

    /** @return whether Lucene can parse the name (a {@code segments…} name it cannot parse breaks its readers) */
    private static boolean parseable(String name) {
        String commit = name.startsWith(IndexFileNames.PENDING_SEGMENTS) ? name.substring("pending_".length()) : name;
        if (!commit.startsWith(IndexFileNames.SEGMENTS)) {
            return true;
        }
        if (commit.equals("segments.gen")) {
            return false;
        }
        try {
            SegmentInfos.generationFromSegmentsFileName(commit);
            return commit.equals(IndexFileNames.SEGMENTS) || commit.charAt(IndexFileNames.SEGMENTS.length()) == '_';
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** @return whether the file starts with Lucene's codec header, or is empty */
    private static boolean lucenesOwn(Path file) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] head = in.readNBytes(4);
            if (head.length == 0) {
                return true;
            }
            return head.length == 4 && ((head[0] & 0xff) << 24 | (head[1] & 0xff) << 16 | (head[2] & 0xff) << 8
                    | (head[3] & 0xff)) == CodecUtil.CODEC_MAGIC;
        } catch (NoSuchFileException e) {
            return true;                    // deleted meanwhile by the writer that made it
        } catch (IOException e) {
            return false;
        }
    }

    /** @return whether the file is empty (or gone meanwhile); a folder or an unreadable file is not */
    private static boolean emptyFile(Path file) {
        try {
            return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.size(file) == 0;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isMarker(Path file) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] first = in.readNBytes(MARKER_LINE.length());
            return new String(first, StandardCharsets.UTF_8).equals(MARKER_LINE);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether a file named as the marker's temporary file is RagKit's, maybe still being written or already moved into
     * place by another process creating the index at this moment: it is gone, or it starts as the marker does.
     */
    private static boolean markerBeingWritten(Path file) {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            String first = new String(in.readNBytes(MARKER_LINE.length()), StandardCharsets.UTF_8);
            return MARKER_LINE.startsWith(first);
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** @return whether the folder carries RagKit's marker */
    static boolean isMarked(Path dir) {
        return isMarker(dir.resolve(MARKER));
    }

    /**
     * Writes the marker (atomically: a reader sees none or all of it), unless it is there.
     *
     * @param why {@code created} or {@code adopted}, written into the marker
     */
    static void mark(Path dir, String why) throws IOException {
        if (isMarked(dir)) {
            return;
        }
        Path marker = dir.resolve(MARKER);
        if (Files.exists(marker, LinkOption.NOFOLLOW_LINKS)) {
            throw new StoreException("the folder " + dir + " holds a file named " + MARKER + " that RagKit did not "
                    + "write; nothing was changed. Move it out of " + dir + ", then try again", false);
        }
        String text = MARKER_LINE + "\nThis folder is a Lucene index that RagKit " + why + " on " + Instant.now()
                + ".\nRagKit writes and deletes here only this file, write.lock, " + LuceneIndex.HOLDER_FILE
                + " and the files Lucene lists in its commits.\nKeep other files elsewhere: Lucene deletes files named"
                + " like its own (_*.*, segments*) when it writes.\nformat=" + LuceneIndex.FORMAT + "\n";
        Path tmp = dir.resolve(MARKER_TMP);
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        try {
            Files.move(tmp, marker, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, marker);
        }
    }

    /** @return the staging folder a rebuild of {@code dir} builds in: {@code .<name>.rebuild} beside it */
    static Path staging(Path dir) {
        return dir.resolveSibling("." + dir.getFileName() + STAGING_SUFFIX);
    }

    /**
     * Deletes the commits among Lucene's files ({@code segments_N}, {@code pending_segments_N}): what is left are
     * files Lucene's next writer deletes as unreferenced. For a damaged index that Lucene cannot open to replace.
     */
    static void deleteCommits(Contents contents) throws IOException {
        for (String name : contents.lucene()) {
            if (name.startsWith(IndexFileNames.SEGMENTS) || name.startsWith(IndexFileNames.PENDING_SEGMENTS)) {
                Files.deleteIfExists(contents.dir().resolve(name));
            }
        }
    }

    /**
     * Deletes what is provably the index's own — Lucene's files (see {@link #inspect}; commits first, so that a kill
     * midway never leaves a commit naming deleted files), the marker, the lock and the holder file — and the folder
     * when that leaves it empty. Strangers and other files stay.
     */
    static void deleteOwn(Contents contents) throws IOException {
        Path dir = contents.dir();
        deleteCommits(contents);
        for (String name : contents.lucene()) {
            Files.deleteIfExists(dir.resolve(name));
        }
        Files.deleteIfExists(dir.resolve(LuceneIndex.HOLDER_FILE));
        if (emptyFile(dir.resolve(LuceneIndex.LOCK_FILE))) {
            Files.deleteIfExists(dir.resolve(LuceneIndex.LOCK_FILE));
        }
        if (contents.marked()) {
            Files.deleteIfExists(dir.resolve(MARKER));
        }
        if (isMarker(dir.resolve(MARKER_TMP))) {
            Files.deleteIfExists(dir.resolve(MARKER_TMP));
        }
        try (DirectoryStream<Path> left = Files.newDirectoryStream(dir)) {
            if (!left.iterator().hasNext()) {
                Files.delete(dir);
            }
        }
    }

    /** @return up to five names, and how many more */
    static String names(SortedSet<String> names) {
        List<String> list = new ArrayList<>(names);
        return names.size() > 5 ? names.size() + " files such as " + list.subList(0, 5)
                : (names.size() == 1 ? "the file " : "the files ") + Collections.unmodifiableList(list);
    }
}
