package dev.ragkit.benchmarks;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import dev.ragkit.store.lucene.VectorEncoding;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The Lucene store at a million chunks (issue 29): builds an index of {@code n} chunks of 384-dimensional clustered
 * vectors ({@link ClusteredVectors}) or real embeddings read from a file ({@code --vectors-file}, written by
 * {@link EmbedLines}) with markdown text ({@link ChunkingFixtures}), 10 chunks per document, in one
 * tenant or spread over 100, and measures build time (vectors given), {@code compact()} time, disk size, heap and
 * RSS, query latency (p50/p95 per query, through {@code LuceneDocumentStore.search}) and recall@10 against exact
 * search, unfiltered and with metadata and tenant filters, and the time of a one-file change afterwards.
 *
 * <p>A plain {@code main()} rather than JMH: the build of a million chunks takes many minutes and is measured once
 * (JMH would rebuild per fork and time the set-up without reporting it), RSS is a property of one process, and the
 * exact ground truth is computed once, streaming, without keeping the 1.5 GB of vectors in the heap (so that the
 * heap and RSS measured are the store's). The query latencies are per-query wall times of a pass over all queries
 * after a warm-up pass; {@link LuceneIndexSearchBenchmark} measures the same searches under JMH on the kept index.
 *
 * <p>Layout: document {@code d} has 10 chunks whose vectors come from the seed {@code d}; its {@code bucket}
 * (0–999, hashed from {@code d}) drives the metadata filters ({@code bucket < 10}: 1 %, {@code bucket < 100}:
 * 10 %). With 100 tenants, tenant {@code t0} holds 10 % of the documents and {@code t1}–{@code t99} share the rest
 * (about 0.9 % each), so that a tenant scope selects 10 % or about 1 %.
 *
 * <pre>{@code
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.LuceneMillionBenchmark \
 *     --n 1000000 --tenants 1 --vectors float --dir /tmp/lucene-1m-float --out benchmarks/results/x.json
 * }</pre>
 */
public final class LuceneMillionBenchmark {
    static final int DIMENSION = 384;
    static final int CHUNKS_PER_DOCUMENT = 10;
    static final int K = 10;
    static final String TEXT = ChunkingFixtures.text();

    private LuceneMillionBenchmark() {
    }

    /** Where the chunks' vectors come from: seeded clustered vectors or a file of real embeddings. */
    interface ChunkVectors {
        /** The chunk vectors of document {@code d}; {@code d} beyond the documents gives a changed file's. */
        float[][] of(int d);
    }

    /** A search configuration: the tenant scope and the metadata filter. */
    record Config(String name, String tenant, int bucketBelow) {
        boolean matches(int tenants, int d) {
            return tenantOf(tenants, d).equals(tenant) && (bucketBelow >= 1000 || bucket(d) < bucketBelow);
        }
    }

    /**
     * Runs the benchmark; see the class comment.
     *
     * @param args {@code --n}, {@code --tenants}, {@code --vectors}, {@code --dir}, {@code --out},
     *             {@code --queries} (200), {@code --candidates} (comma list), {@code --max-conn}, {@code --beam-width},
     *             {@code --ram-buffer-mb} (256), {@code --writers} (threads upserting at once, 1),
     *             {@code --merge-threads} (1), {@code --clusters} (500: how many clusters the vectors form),
     *             {@code --vectors-file} and {@code --queries-file} (real embeddings instead of clustered ones:
     *             files of 384-dimensional float32 rows, {@link EmbedLines}; the queries are all the rows of the
     *             second), {@code --keep} (keep the index)
     * @throws IOException when the index or the result file cannot be written
     */
    public static void main(String[] args) throws IOException {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--keep")) {
                a.put("keep", "true");
            } else {
                a.put(args[i].replaceFirst("^--", ""), args[++i]);
            }
        }
        int n = Integer.parseInt(a.getOrDefault("n", "200000"));
        int tenants = Integer.parseInt(a.getOrDefault("tenants", "1"));
        VectorEncoding encoding = VectorEncoding.parse(a.getOrDefault("vectors", "float"));
        int queryCount = Integer.parseInt(a.getOrDefault("queries", "200"));
        int[] candidates = Arrays.stream(a.getOrDefault("candidates", "40,100,200").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int maxConn = Integer.parseInt(a.getOrDefault("max-conn", "16"));
        int beamWidth = Integer.parseInt(a.getOrDefault("beam-width", "100"));
        double ramBufferMb = Double.parseDouble(a.getOrDefault("ram-buffer-mb", "256"));
        int writers = Integer.parseInt(a.getOrDefault("writers", "1"));
        int mergeThreads = Integer.parseInt(a.getOrDefault("merge-threads", "1"));
        int clusters = Integer.parseInt(a.getOrDefault("clusters",
                Integer.toString(ClusteredVectors.STANDARD_CLUSTERS)));
        Path dir = Path.of(a.getOrDefault("dir", "/tmp/ragkit-lucene-million"));
        Path out = Path.of(a.getOrDefault("out", "lucene-million.json"));
        boolean keep = a.containsKey("keep");
        int documents = n / CHUNKS_PER_DOCUMENT;

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("started", Instant.now().toString());
        result.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        result.put("cores", Runtime.getRuntime().availableProcessors());
        result.put("maxHeapMb", Runtime.getRuntime().maxMemory() >> 20);
        result.put("loadAverageAtStart", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        result.put("chunks", n);
        result.put("tenants", tenants);
        result.put("vectors", encoding.setting());
        result.put("maxConn", maxConn);
        result.put("beamWidth", beamWidth);
        result.put("ramBufferMb", ramBufferMb);
        result.put("writers", writers);
        result.put("mergeThreads", mergeThreads);
        result.put("clusters", a.containsKey("vectors-file") ? null : clusters);
        result.put("vectorsFile", a.get("vectors-file"));
        result.put("queriesFile", a.get("queries-file"));
        result.put("queries", queryCount);
        System.out.println("# " + result);

        LuceneMillionBenchmark.deleteTree(dir);
        ChunkVectors source;
        float[][] queries;
        if (a.containsKey("vectors-file")) {
            VectorFile file = new VectorFile(Path.of(a.get("vectors-file")), DIMENSION);
            if (file.rows() < n) {
                throw new IllegalArgumentException(a.get("vectors-file") + " holds " + file.rows() + " vectors, "
                        + n + " asked for");
            }
            // a changed file (d >= documents) gets the vectors of the document half the index away
            source = d -> file.rows((d < documents ? d : (d + documents / 2) % documents) * CHUNKS_PER_DOCUMENT,
                    CHUNKS_PER_DOCUMENT);
            if (!a.containsKey("queries-file")) {
                throw new IllegalArgumentException("--vectors-file needs --queries-file: the query vectors, "
                        + "embedded by the same model");
            }
            queries = queryVectors(queryCount, Path.of(a.get("queries-file")));
        } else {
            ClusteredVectors shape = new ClusteredVectors(clusters, DIMENSION, ClusteredVectors.STANDARD_NOISE,
                    ClusteredVectors.SEED);
            source = d -> shape.vectors(CHUNKS_PER_DOCUMENT, d);
            queries = shape.vectors(queryCount, 2);
        }
        long start = System.nanoTime();
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).dimension(DIMENSION)
                .vectorEncoding(encoding).maxConn(maxConn).beamWidth(beamWidth).ramBufferMb(ramBufferMb)
                .mergeThreads(mergeThreads).commitMode(LuceneDocumentStore.CommitMode.BATCHED).build()) {
            AtomicInteger next = new AtomicInteger();
            AtomicLong generatingNanos = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            for (int w = 0; w < writers; w++) {
                Thread thread = new Thread(() -> {
                    try {
                        for (int d = next.getAndIncrement(); d < documents; d = next.getAndIncrement()) {
                            long g = System.nanoTime();
                            StoredDocument doc = document(tenants, d);
                            List<StoredChunk> chunks = chunks(source, doc, d);
                            generatingNanos.addAndGet(System.nanoTime() - g);
                            store.upsert(doc, chunks);
                            if ((d + 1) % Math.max(1, documents / 20) == 0) {
                                System.out.printf(Locale.ROOT, "# built %d chunks, %.0f s%n",
                                        (d + 1) * CHUNKS_PER_DOCUMENT, (System.nanoTime() - start) / 1e9);
                            }
                        }
                    } catch (RuntimeException | Error e) {
                        failures.add(e);
                    }
                }, "writer-" + w);
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while building", e);
                }
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a writer failed", failures.get(0));
            }
            // the writers generated their data in parallel: each one's share of the generating time was not writing
            long generating = generatingNanos.get() / writers;
            store.flush();
            double total = (System.nanoTime() - start) / 1e9;
            double build = total - generating / 1e9;
            result.put("buildSeconds", round(build));
            result.put("buildChunksPerSecond", Math.round(n / build));
            result.put("generatingSeconds", round(generating / 1e9));
            result.put("segmentsBeforeCompact", segments(dir));
            result.put("diskMbBeforeCompact", round(size(dir) / 1048576.0));
            result.put("peakRssMbWhileBuilding", status("VmHWM") >> 10);
            System.out.printf(Locale.ROOT, "# build: %.1f s (%d chunks/s), generating the data %.1f s%n", build,
                    Math.round(n / build), generating / 1e9);
            long m = System.nanoTime();
            store.compact();
            result.put("compactSeconds", round((System.nanoTime() - m) / 1e9));
            System.out.printf(Locale.ROOT, "# compact(): %.1f s%n", (System.nanoTime() - m) / 1e9);
        }
        result.put("diskMb", round(size(dir) / 1048576.0));
        result.put("files", files(dir));

        List<Config> configs = tenants == 1
                ? List.of(new Config("all", tenantOf(1, 0), 1000), new Config("metadata-10%", tenantOf(1, 0), 100),
                        new Config("metadata-1%", tenantOf(1, 0), 10))
                : List.of(new Config("tenant-10%", "t0", 1000), new Config("tenant-0.9%", "t1", 1000),
                        new Config("tenant-10% metadata-10%", "t0", 100));
        long t = System.nanoTime();
        int[][][] truth = exact(source, tenants, documents, queries, configs);
        result.put("exactSearchMsPerQueryAllConfigs", round((System.nanoTime() - t) / 1e6 / queryCount));
        System.out.printf(Locale.ROOT, "# exact ground truth: %.1f s%n", (System.nanoTime() - t) / 1e9);

        List<Map<String, Object>> searches = new ArrayList<>();
        System.gc();
        long rssBeforeOpen = status("VmRSS");
        for (int c : candidates) {
            try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).readOnly(true)
                    .searchCandidates(c).build()) {
                for (int ci = 0; ci < configs.size(); ci++) {
                    Config config = configs.get(ci);
                    SearchRequest[] requests = requests(queries, config);
                    for (SearchRequest r : requests) {
                        store.search(r); // warm-up pass
                    }
                    long[] nanos = new long[requests.length];
                    double found = 0;
                    for (int q = 0; q < requests.length; q++) {
                        long s = System.nanoTime();
                        List<SearchHit> hits = store.search(requests[q]);
                        nanos[q] = System.nanoTime() - s;
                        found += overlap(hits, truth[ci][q]);
                    }
                    Arrays.sort(nanos);
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("filter", config.name());
                    row.put("candidates", c);
                    row.put("p50Ms", round(nanos[nanos.length / 2] / 1e6));
                    row.put("p95Ms", round(nanos[(int) Math.ceil(nanos.length * 0.95) - 1] / 1e6));
                    row.put("meanMs", round(Arrays.stream(nanos).average().orElse(0) / 1e6));
                    row.put("recallAt10", Math.round(found / (double) (requests.length * K) * 10000) / 10000.0);
                    searches.add(row);
                    System.out.println("# search " + row);
                }
                System.gc();
                Runtime rt = Runtime.getRuntime();
                result.put("heapUsedMbAfterSearches", (rt.totalMemory() - rt.freeMemory()) >> 20);
                result.put("rssMbAfterSearches", status("VmRSS") >> 10);
                result.put("rssAnonMbAfterSearches", status("RssAnon") >> 10);
                result.put("rssFileMbAfterSearches", status("RssFile") >> 10);
            }
        }
        result.put("rssMbBeforeOpen", rssBeforeOpen >> 10);
        result.put("searches", searches);

        // a one-file change at this size: replace a document (10 chunks) and commit, as ragkit index does
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).build()) {
            long[] nanos = new long[20];
            for (int i = 0; i < nanos.length; i++) {
                int d = (int) ((i * 7919L) % documents);
                StoredDocument doc = document(tenants, d);
                List<StoredChunk> chunks = chunks(source, doc, d + documents); // new vectors: a changed file
                long s = System.nanoTime();
                store.upsert(doc, chunks);
                nanos[i] = System.nanoTime() - s;
            }
            Arrays.sort(nanos);
            result.put("oneFileChangeP50Ms", round(nanos[nanos.length / 2] / 1e6));
            result.put("oneFileChangeMaxMs", round(nanos[nanos.length - 1] / 1e6));
            System.out.printf(Locale.ROOT, "# one-file change (upsert 10 chunks + commit): p50 %.1f ms, max %.1f ms%n",
                    nanos[nanos.length / 2] / 1e6, nanos[nanos.length - 1] / 1e6);
        }
        result.put("segmentsAfterChanges", segments(dir));
        result.put("finished", Instant.now().toString());
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, json(result) + "\n", StandardCharsets.UTF_8);
        System.out.println("# wrote " + out);
        if (!keep) {
            deleteTree(dir);
        }
    }

    /**
     * @param count how many
     * @return the query vectors this benchmark searches with at the standard 500 clusters, for other programs that
     *         search an index it kept
     */
    public static float[][] queryVectors(int count) {
        return new ClusteredVectors(ClusteredVectors.STANDARD_CLUSTERS, DIMENSION, ClusteredVectors.STANDARD_NOISE,
                ClusteredVectors.SEED).vectors(count, 2);
    }

    /**
     * @param count how many, at most
     * @param file  a file of query vectors ({@link EmbedLines})
     * @return its first {@code count} vectors, normalised
     * @throws IOException when it cannot be read
     */
    public static float[][] queryVectors(int count, Path file) throws IOException {
        VectorFile q = new VectorFile(file, DIMENSION);
        return q.rows(0, Math.min(count, q.rows()));
    }

    static String tenantOf(int tenants, int d) {
        if (tenants == 1) {
            return "t0";
        }
        // t0 holds 10 % of the documents, t1..t(tenants-1) share the rest evenly
        int h = (int) Math.floorMod(mix(d ^ 0x5EED), 1000L);
        return h < 100 ? "t0" : "t" + (1 + Math.floorMod(mix(d), (long) tenants - 1));
    }

    static int bucket(int d) {
        return (int) Math.floorMod(mix(d + 0x9E37L), 1000L);
    }

    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    static StoredDocument document(int tenants, int d) {
        return StoredDocument.builder().tenant(tenantOf(tenants, d)).path("docs/doc" + d + ".md")
                .metadata(Map.of("bucket", Integer.toString(bucket(d)))).build();
    }

    /** The 10 chunks of a document (vectors {@code source.of(seed)}), with ~1 KB of markdown each. */
    static List<StoredChunk> chunks(ChunkVectors source, StoredDocument doc, int seed) {
        float[][] vectors = source.of(seed);
        List<StoredChunk> out = new ArrayList<>(CHUNKS_PER_DOCUMENT);
        for (int i = 0; i < CHUNKS_PER_DOCUMENT; i++) {
            long h = mix(seed * 31L + i);
            int length = 800 + (int) Math.floorMod(h >>> 20, 500L);
            int from = (int) Math.floorMod(h, (long) TEXT.length() - length);
            out.add(new StoredChunk(doc.id(), i, TEXT.substring(from, from + length), vectors[i], length / 4,
                    i * 20 + 1, i * 20 + 20, null, null));
        }
        return out;
    }

    static SearchRequest[] requests(float[][] queries, Config config) {
        SearchRequest[] out = new SearchRequest[queries.length];
        for (int q = 0; q < queries.length; q++) {
            SearchRequest.Builder b = SearchRequest.builder(dev.ragkit.store.Scope.of(config.tenant()))
                    .vector(queries[q]).k(K);
            if (config.bucketBelow() < 1000) {
                b.metadataFilter(MetadataFilter.lessThan("bucket", config.bucketBelow()));
            }
            out[q] = b.build();
        }
        return out;
    }

    /**
     * Exact top-10 chunk keys ({@code d * 10 + chunk}) per configuration and query, regenerating the vectors
     * document by document (the store normalises vectors; these are unit vectors already, so dot = cosine).
     */
    static int[][][] exact(ChunkVectors source, int tenants, int documents, float[][] queries,
            List<Config> configs) {
        int qn = queries.length;
        TopK[][] tops = new TopK[configs.size()][qn];
        for (TopK[] row : tops) {
            for (int q = 0; q < qn; q++) {
                row[q] = new TopK(K);
            }
        }
        boolean[] match = new boolean[configs.size()];
        for (int d = 0; d < documents; d++) {
            boolean any = false;
            for (int c = 0; c < configs.size(); c++) {
                match[c] = configs.get(c).matches(tenants, d);
                any |= match[c];
            }
            if (!any) {
                continue;
            }
            float[][] vectors = source.of(d);
            for (int i = 0; i < CHUNKS_PER_DOCUMENT; i++) {
                float[] v = vectors[i];
                for (int q = 0; q < qn; q++) {
                    float s = dot(v, queries[q]);
                    for (int c = 0; c < match.length; c++) {
                        if (match[c]) {
                            tops[c][q].offer(s, d * CHUNKS_PER_DOCUMENT + i);
                        }
                    }
                }
            }
        }
        int[][][] out = new int[configs.size()][qn][];
        for (int c = 0; c < configs.size(); c++) {
            for (int q = 0; q < qn; q++) {
                out[c][q] = tops[c][q].ids();
            }
        }
        return out;
    }

    static float dot(float[] a, float[] b) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        for (int i = 0; i < a.length; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        return s0 + s1 + s2 + s3;
    }

    /** The best {@code k} (score, id) pairs offered. */
    static final class TopK {
        final float[] scores;
        final int[] ids;
        int size;

        TopK(int k) {
            scores = new float[k];
            ids = new int[k];
        }

        void offer(float score, int id) {
            if (size == scores.length && score <= scores[size - 1]) {
                return;
            }
            int i = size == scores.length ? size - 1 : size++;
            while (i > 0 && scores[i - 1] < score) {
                scores[i] = scores[i - 1];
                ids[i] = ids[i - 1];
                i--;
            }
            scores[i] = score;
            ids[i] = id;
        }

        int[] ids() {
            return Arrays.copyOf(ids, size);
        }
    }

    static int overlap(List<SearchHit> hits, int[] truth) {
        Set<String> wanted = new HashSet<>();
        for (int id : truth) {
            wanted.add("docs/doc" + id / CHUNKS_PER_DOCUMENT + ".md#" + id % CHUNKS_PER_DOCUMENT);
        }
        int found = 0;
        for (SearchHit h : hits) {
            if (wanted.contains(h.document().path() + "#" + h.chunk().index())) {
                found++;
            }
        }
        return found;
    }

    /** A value of {@code /proc/self/status} in kB (0 when unavailable). */
    static long status(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(key + ":")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    static Map<String, Long> files(Path dir) throws IOException {
        Map<String, Long> byExtension = new java.util.TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            files.filter(Files::isRegularFile).forEach(p -> {
                String name = p.getFileName().toString();
                String ext = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
                byExtension.merge(ext, p.toFile().length() >> 20, Long::sum);
            });
        }
        return byExtension;
    }

    static long segments(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".si")).count();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        LuceneStoreBenchmark.deleteTree(dir);
    }

    static double round(double x) {
        return Math.round(x * 100) / 100.0;
    }

    static String json(Object o) {
        if (o instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append('"').append(e.getKey()).append("\": ").append(json(e.getValue()));
            }
            return sb.append('}').toString();
        }
        if (o instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            for (Object x : l) {
                if (sb.length() > 1) {
                    sb.append(",\n  ");
                }
                sb.append(json(x));
            }
            return sb.append(']').toString();
        }
        if (o == null || o instanceof Number || o instanceof Boolean) {
            return String.valueOf(o);
        }
        return '"' + String.valueOf(o).replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
