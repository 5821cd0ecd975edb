package dev.ragkit.store.lucene;

import dev.ragkit.store.StoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StandardDirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * What a deep check of a Lucene index found: Lucene's {@code CheckIndex} run over every segment of the last commit
 * (every file's checksum, then a read of every structure: postings, stored fields, vectors, points), and for each
 * segment that fails, the documents that live in it, so that the user knows what to re-index.
 *
 * <pre>{@code
 * IndexCheck check = LuceneDocumentStore.builder().directory(Path.of(".ragkit/index")).check();
 * if (!check.clean()) {
 *     check.damaged().forEach(s -> System.out.println(s.name() + ": " + s.problem() + " " + s.documents()));
 * }
 * }</pre>
 *
 * <h2>What it reads and what it changes</h2>
 * {@link LuceneDocumentStore.Builder#check()} changes nothing in the index: it takes the index's write lock for
 * the length of the check (so that no writer deletes or merges the files being read, which would look like damage;
 * a writer waits or fails naming this process) and reads. The documents of a damaged segment are read twice, once
 * from their stored fields and once from the terms index (the path, tenant, id and metadata are indexed terms as
 * well), so that damage in one of the two still leaves their names readable; when both readings fail, or Lucene
 * cannot open the segment at all, the documents are unknown ({@link DamagedSegment#documents()} is {@code null})
 * and only a rebuild of the whole index from the source folders restores it.
 *
 * <p>{@link LuceneDocumentStore.Builder#dropDamagedSegments()} is the one repair: after the same check, and only
 * when every damaged segment's documents are known, it writes a new commit without the damaged segments
 * ({@code CheckIndex.exorciseIndex}); those documents are then gone from the index, and indexing their folders
 * again adds them back (a document is one block in one segment, so no document is left half). It is never run
 * implicitly.
 *
 * @param directory   the index folder
 * @param segments    how many segments the last commit lists (0 when it cannot be read)
 * @param documents   how many RagKit documents (headers) the last commit holds, counted from the segments'
 *                    document counts as far as they could be read
 * @param commit      the last commit's file, e.g. {@code segments_4}, or {@code null} when there is none
 * @param unreadable  why Lucene cannot read the commit itself ({@code segments_N}), or {@code null} when it can;
 *                    then no segment was checked and the whole index must be rebuilt
 * @param damaged     the segments that fail Lucene's checks, in the commit's order
 * @param dropped     whether {@link LuceneDocumentStore.Builder#dropDamagedSegments()} removed them
 * @param took        how long the check took, the lock wait excluded
 */
public record IndexCheck(Path directory, int segments, long documents, @Nullable String commit,
        @Nullable String unreadable, List<DamagedSegment> damaged, boolean dropped, Duration took) {

    /** Copies the list. */
    public IndexCheck {
        Objects.requireNonNull(directory, "directory");
        damaged = List.copyOf(damaged);
        Objects.requireNonNull(took, "took");
    }

    /** @return whether Lucene found nothing wrong: the commit reads and every segment passes */
    public boolean clean() {
        return unreadable == null && damaged.isEmpty();
    }

    /**
     * @return whether the documents of every damaged segment are known (so that dropping those segments and
     *         indexing the documents' folders again repairs the index); {@code false} when the commit is unreadable
     */
    public boolean documentsKnown() {
        return unreadable == null && damaged.stream().allMatch(s -> s.documents() != null);
    }

    /** @return the documents of every damaged segment whose documents are known */
    public List<AffectedDocument> affected() {
        List<AffectedDocument> all = new ArrayList<>();
        for (DamagedSegment s : damaged) {
            if (s.documents() != null) {
                all.addAll(s.documents());
            }
        }
        return List.copyOf(all);
    }

    /**
     * One segment that fails Lucene's checks.
     *
     * @param name      the segment's name, e.g. {@code _3}
     * @param files     the segment's files
     * @param problem   what Lucene reported, on one line
     * @param documents the RagKit documents that live in it (alive in the last commit), or {@code null} when they
     *                  cannot be read
     */
    public record DamagedSegment(String name, List<String> files, String problem,
            @Nullable List<AffectedDocument> documents) {

        /** Copies the lists. */
        public DamagedSegment {
            Objects.requireNonNull(name, "name");
            files = List.copyOf(files);
            Objects.requireNonNull(problem, "problem");
            documents = documents == null ? null : List.copyOf(documents);
        }
    }

    /**
     * A document that lives in a damaged segment.
     *
     * @param tenant   its tenant
     * @param id       its id
     * @param path     its path in the index (the folder's prefix and the file's path in it)
     * @param metadata its metadata as far as it could be read (RagKit's indexer records the folder it came from)
     */
    public record AffectedDocument(String tenant, String id, String path, Map<String, String> metadata) {

        /** Copies the map. */
        public AffectedDocument {
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(path, "path");
            metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
        }
    }

    // ------------------------------------------------------------------------------------------------ the check

    /** Checks the index at {@code path} under its write lock, and drops the damaged segments when asked (and safe). */
    static IndexCheck run(Path path, long lockWaitMillis, boolean drop) {
        Path dir = path.toAbsolutePath().normalize();
        if (!Files.isDirectory(dir)) {
            throw new StoreException("there is no index at " + dir + " to check; index documents first (ragkit"
                    + " index)", false);
        }
        FSDirectory directory = null;
        Lock lock = null;
        try {
            IndexFolder.Contents contents = IndexFolder.inspect(dir, false);
            contents.refuseStrangers("checking the index");
            if (!contents.marked()) {
                requireRagKits(dir);                       // never a lock file in a folder that is not RagKit's
            }
            directory = FSDirectory.open(dir);
            if (!DirectoryReader.indexExists(directory)) {
                LuceneIndex.refuseUnopened(dir, true);      // being rebuilt, not an index, no index yet, damaged
            }
            FSDirectory locking = directory;
            lock = LuceneIndex.waitForLock(dir, lockWaitMillis, () -> locking.obtainLock(IndexWriter.WRITE_LOCK_NAME));
            LuceneIndex.writeHolder(dir);
            long start = System.nanoTime();
            IndexCheck check = check(dir, directory, lock, drop);
            return new IndexCheck(check.directory, check.segments, check.documents, check.commit, check.unreadable,
                    check.damaged, check.dropped, Duration.ofNanos(System.nanoTime() - start));
        } catch (IOException | RuntimeException e) {
            throw e instanceof StoreException se ? se : LuceneIndex.failure(dir, "checking the index", e);
        } finally {
            if (lock != null) {
                LuceneIndex.deleteHolder(dir);
                closeQuietly(lock);
            }
            closeQuietly(directory);
        }
    }

    /** @throws StoreException unless the unmarked folder holds a readable Lucene index whose commits RagKit wrote */
    private static void requireRagKits(Path dir) throws IOException {
        if (!IndexFolder.inspect(dir, true).committed()) {
            LuceneIndex.refuseUnopened(dir, true);         // not an index, being rebuilt, no index yet, damaged
        }
        try (FSDirectory existing = FSDirectory.open(dir)) {
            if (!SegmentInfos.readLatestCommit(existing).getUserData().containsKey(LuceneIndex.KEY_FORMAT)) {
                throw new StoreException("the Lucene index at " + dir + " was not written by RagKit (its commits"
                        + " carry no " + LuceneIndex.KEY_FORMAT + "); RagKit checks only its own indexes. Nothing was"
                        + " changed. Run Lucene's CheckIndex on it yourself", false);
            }
        }
    }

    private static IndexCheck check(Path dir, FSDirectory directory, Lock lock, boolean drop) throws IOException {
        try (CheckIndex checker = new CheckIndex(directory, new HeldLock(lock))) {
            checker.setThreadCount(Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())));
            return check(dir, directory, checker, drop);
        }
    }

    private static IndexCheck check(Path dir, FSDirectory directory, CheckIndex checker, boolean drop)
            throws IOException {
        CheckIndex.Status status = checker.checkIndex();
        if (status.missingSegments || status.toolOutOfDate) {
            String commit = status.segmentsFileName != null ? status.segmentsFileName
                    : SegmentInfos.getLastCommitSegmentsFileName(directory);
            String why = status.toolOutOfDate ? "it was written by a newer Lucene than this RagKit reads"
                    : "Lucene cannot read its commit" + (commit == null ? "" : " (" + commit + ")");
            return new IndexCheck(dir, 0, 0, commit, why, List.of(), false, Duration.ZERO);
        }
        SegmentInfos infos = SegmentInfos.readCommit(directory, status.segmentsFileName);
        Map<String, SegmentCommitInfo> byName = new LinkedHashMap<>();
        for (SegmentCommitInfo info : infos) {
            byName.put(info.info.name, info);
        }
        List<DamagedSegment> damaged = new ArrayList<>();
        for (CheckIndex.Status.SegmentInfoStatus segment : status.segmentInfos) {
            if (segment.error == null) {
                continue;
            }
            SegmentCommitInfo info = byName.get(segment.name);
            List<String> files = new ArrayList<>();
            List<AffectedDocument> documents = null;
            if (info != null) {
                try {
                    files.addAll(new java.util.TreeSet<>(info.files()));
                } catch (IOException | RuntimeException e) {
                    // the names are a courtesy
                }
                documents = documentsOf(directory, infos, info);
            }
            damaged.add(new DamagedSegment(segment.name, files, describe(segment.error), documents));
        }
        long headers = countHeaders(directory, infos, damaged);
        boolean dropped = false;
        if (drop && !damaged.isEmpty() && damaged.stream().allMatch(s -> s.documents() != null)) {
            checker.exorciseIndex(status);
            dropped = true;
        }
        return new IndexCheck(dir, infos.size(), headers, status.segmentsFileName, null, damaged, dropped,
                Duration.ZERO);
    }

    /** @return the RagKit documents in the segments that pass, plus those read from damaged ones */
    private static long countHeaders(FSDirectory directory, SegmentInfos infos, List<DamagedSegment> damaged) {
        Set<String> bad = new HashSet<>();
        long count = 0;
        for (DamagedSegment s : damaged) {
            bad.add(s.name());
            count += s.documents() == null ? 0 : s.documents().size();
        }
        for (SegmentCommitInfo info : infos) {
            if (bad.contains(info.info.name)) {
                continue;
            }
            try (DirectoryReader reader = open(directory, infos, info)) {
                LeafReader leaf = reader.leaves().get(0).reader();
                count += countLive(leaf, leaf.postings(new org.apache.lucene.index.Term(LuceneFields.KIND,
                        LuceneFields.DOC)));
            } catch (IOException | RuntimeException e) {
                // passed CheckIndex a moment ago; a count is a courtesy
            }
        }
        return count;
    }

    private static long countLive(LeafReader leaf, @Nullable PostingsEnum postings) throws IOException {
        if (postings == null) {
            return 0;
        }
        Bits live = leaf.getLiveDocs();
        long n = 0;
        for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
            if (live == null || live.get(doc)) {
                n++;
            }
        }
        return n;
    }

    /** @return a reader of one segment of the commit */
    private static DirectoryReader open(FSDirectory directory, SegmentInfos infos, SegmentCommitInfo info)
            throws IOException {
        SegmentInfos one = infos.clone();
        one.clear();
        one.add(info.clone());
        return StandardDirectoryReader.open(directory, one, null, null);
    }

    /**
     * @return the documents alive in the segment, read from the stored fields and from the terms (whichever can be
     *         read; both when both can, so that a reading garbled by the damage still leaves the true one), or
     *         {@code null} when neither can be read
     */
    private static @Nullable List<AffectedDocument> documentsOf(FSDirectory directory, SegmentInfos infos,
            SegmentCommitInfo info) {
        try (DirectoryReader reader = open(directory, infos, info)) {
            LeafReader leaf = reader.leaves().get(0).reader();
            Map<Integer, AffectedDocument> stored = fromStoredFields(leaf);
            Map<Integer, AffectedDocument> terms = fromTerms(leaf);
            if (stored == null && terms == null) {
                return null;
            }
            SortedMap<Integer, Set<AffectedDocument>> byDoc = new TreeMap<>();
            for (Map<Integer, AffectedDocument> reading : java.util.Arrays.asList(terms, stored)) {
                if (reading != null) {
                    reading.forEach((doc, d) -> byDoc.computeIfAbsent(doc, k -> new LinkedHashSet<>()).add(d));
                }
            }
            Map<String, AffectedDocument> unique = new LinkedHashMap<>();
            for (Set<AffectedDocument> readings : byDoc.values()) {
                for (AffectedDocument d : readings) {
                    // one document read the same way twice, with the fuller metadata kept
                    String key = d.tenant() + "\n" + d.id() + "\n" + d.path();
                    AffectedDocument known = unique.get(key);
                    if (known == null || known.metadata().size() < d.metadata().size()) {
                        unique.put(key, d);
                    }
                }
            }
            return List.copyOf(unique.values());
        } catch (IOException | RuntimeException e) {
            return null;                                      // Lucene cannot open the segment at all
        }
    }

    /** @return the live header documents by Lucene doc id, read from the stored fields; {@code null} on failure */
    private static @Nullable Map<Integer, AffectedDocument> fromStoredFields(LeafReader leaf) {
        try {
            Map<Integer, AffectedDocument> found = new LinkedHashMap<>();
            Bits live = leaf.getLiveDocs();
            StoredFields fields = leaf.storedFields();
            Set<String> wanted = Set.of(LuceneFields.TENANT, LuceneFields.DOC_ID, LuceneFields.PATH,
                    LuceneFields.META_PAIR);
            for (int doc = 0; doc < leaf.maxDoc(); doc++) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                Document d = fields.document(doc, wanted);
                String path = d.get(LuceneFields.PATH);
                if (path == null) {
                    continue;                                 // a chunk
                }
                Map<String, String> metadata = new LinkedHashMap<>();
                String[] pairs = d.getValues(LuceneFields.META_PAIR);
                for (int i = 0; i + 1 < pairs.length; i += 2) {
                    metadata.put(pairs[i], pairs[i + 1]);
                }
                String tenant = d.get(LuceneFields.TENANT);
                String id = d.get(LuceneFields.DOC_ID);
                if (tenant != null && id != null) {
                    found.put(doc, new AffectedDocument(tenant, id, path, metadata));
                }
            }
            return found;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return the live header documents by Lucene doc id, read from the terms index; {@code null} on failure */
    private static @Nullable Map<Integer, AffectedDocument> fromTerms(LeafReader leaf) {
        try {
            Bits live = leaf.getLiveDocs();
            Map<Integer, String> paths = single(leaf, LuceneFields.PATH, live);
            Map<Integer, String> tenants = single(leaf, LuceneFields.TENANT, live);
            Map<Integer, String> ids = single(leaf, LuceneFields.DOC_ID, live);
            Map<Integer, Map<String, String>> metadata = new TreeMap<>();
            Terms kv = leaf.terms(LuceneFields.META_KV);
            if (kv != null) {
                TermsEnum terms = kv.iterator();
                PostingsEnum postings = null;
                for (BytesRef term = terms.next(); term != null; term = terms.next()) {
                    String text = term.utf8ToString();
                    int eq = keyEnd(text);
                    if (eq < 0) {
                        continue;
                    }
                    String key = text.substring(0, eq).replace("\\=", "=").replace("\\\\", "\\");
                    String value = text.substring(eq + 1);
                    postings = terms.postings(postings, PostingsEnum.NONE);
                    for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                        if (paths.containsKey(doc)) {
                            metadata.computeIfAbsent(doc, k -> new TreeMap<>()).put(key, value);
                        }
                    }
                }
            }
            Map<Integer, AffectedDocument> found = new LinkedHashMap<>();
            for (Map.Entry<Integer, String> p : paths.entrySet()) {
                String tenant = tenants.get(p.getKey());
                String id = ids.get(p.getKey());
                if (tenant != null && id != null) {
                    found.put(p.getKey(), new AffectedDocument(tenant, id, p.getValue(),
                            metadata.getOrDefault(p.getKey(), Map.of())));
                }
            }
            return found;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** @return where the key of a {@code key=value} metadata term ends: the first {@code =} not escaped */
    private static int keyEnd(String term) {
        for (int i = 0; i < term.length(); i++) {
            char c = term.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '=') {
                return i;
            }
        }
        return -1;
    }

    /** @return the one term of a single-valued field for each live document that has it */
    private static Map<Integer, String> single(LeafReader leaf, String field, @Nullable Bits live)
            throws IOException {
        Map<Integer, String> values = new TreeMap<>();
        Terms terms = leaf.terms(field);
        if (terms == null) {
            return values;
        }
        TermsEnum e = terms.iterator();
        PostingsEnum postings = null;
        for (BytesRef term = e.next(); term != null; term = e.next()) {
            String text = term.utf8ToString();
            postings = e.postings(postings, PostingsEnum.NONE);
            for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
                if (live == null || live.get(doc)) {
                    values.put(doc, text);
                }
            }
        }
        return values;
    }

    /** @return the failure and its causes on one line, at most 400 characters */
    private static String describe(Throwable error) {
        StringBuilder text = new StringBuilder();
        Set<String> seen = new HashSet<>();
        for (Throwable t = error; t != null && text.length() < 400; t = t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
            if (seen.add(message)) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        String line = text.toString().replaceAll("\\s+", " ").strip();
        return line.length() > 400 ? line.substring(0, 397) + "..." : line;
    }

    private static void closeQuietly(@Nullable AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // nothing more to do
            }
        }
    }

    /** The write lock this check holds, lent to {@code CheckIndex}, which would otherwise close it. */
    private static final class HeldLock extends Lock {
        private final Lock held;

        HeldLock(Lock held) {
            this.held = held;
        }

        @Override
        public void close() {
            // released by the check when it ends
        }

        @Override
        public void ensureValid() throws IOException {
            held.ensureValid();
        }
    }
}
