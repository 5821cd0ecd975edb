package dev.ragkit.eval;

import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Measures retrieval quality on a {@link BeirDataset}: every judged query is ranked by a {@link Ranker} (asked
 * for 100 documents) and scored with {@link RetrievalMetrics}: mean nDCG@k, Recall@100 and MRR@k (k = 10 unless
 * given), plus the
 * p50/p95 latency of the ranker calls (measured with {@link System#nanoTime()}, for information only).
 *
 * <p>Queries run one after another on the calling thread. Unlike BEIR's {@code EvaluateRetrieval}, results
 * whose corpus id equals the query id are <em>not</em> removed (BEIR does so by default, which matters on
 * collections such as Cranfield where both are numbered from 1).
 *
 * <p>Stateless and thread-safe.
 */
public final class RetrievalEvaluator {

    /** How many documents each query asks the ranker for: the largest cutoff used. */
    public static final int DEPTH = 100;

    /** Embedding batch size of {@link #index}. */
    public static final int EMBED_BATCH = 64;

    private final int cutoff;

    /** An evaluator of nDCG@10 and MRR@10. */
    public RetrievalEvaluator() {
        this(10);
    }

    /**
     * @param cutoff the k of nDCG@k and MRR@k, from 1 to {@value #DEPTH}
     */
    public RetrievalEvaluator(int cutoff) {
        if (cutoff < 1 || cutoff > DEPTH) {
            throw new IllegalArgumentException("cutoff must be in [1, " + DEPTH + "], got " + cutoff);
        }
        this.cutoff = cutoff;
    }

    /**
     * Ranks every judged query of {@code dataset} with {@code ranker} and scores the rankings.
     *
     * @param dataset the dataset
     * @param ranker  the ranking under test
     * @return the report
     */
    public EvaluationReport evaluate(BeirDataset dataset, Ranker ranker) {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(ranker, "ranker");
        List<EvaluationReport.QueryResult> results = new ArrayList<>(dataset.queries().size());
        long[] nanos = new long[dataset.queries().size()];
        int i = 0;
        for (BeirDataset.Query query : dataset.queries()) {
            long start = System.nanoTime();
            List<String> ranked = ranker.rank(query.text(), DEPTH);
            long elapsed = System.nanoTime() - start;
            Objects.requireNonNull(ranked, "ranker returned null for query " + query.id());
            Map<String, Integer> judgements = dataset.judgements(query.id());
            nanos[i++] = elapsed;
            results.add(new EvaluationReport.QueryResult(query.id(),
                    RetrievalMetrics.ndcgAtK(ranked, judgements, cutoff),
                    RetrievalMetrics.recallAtK(ranked, judgements, DEPTH),
                    RetrievalMetrics.reciprocalRankAtK(ranked, judgements, cutoff),
                    Duration.ofNanos(elapsed)));
        }
        Arrays.sort(nanos);
        return new EvaluationReport(cutoff, results.size(), dataset.skippedQueries(),
                RetrievalMetrics.mean(results.stream().map(EvaluationReport.QueryResult::ndcg).toList()),
                RetrievalMetrics.mean(results.stream().map(EvaluationReport.QueryResult::recallAt100).toList()),
                RetrievalMetrics.mean(results.stream().map(EvaluationReport.QueryResult::mrr).toList()),
                Duration.ofNanos(percentile(nanos, 50)), Duration.ofNanos(percentile(nanos, 95)), results);
    }

    /**
     * Stores every corpus document of {@code dataset} in {@code store} as one {@link StoredDocument} (path and
     * title = the corpus id and title; the title falls back to the id when empty) with a single chunk whose
     * text is {@code title + "\n" + text} (just the text when the title is empty), token count by
     * {@link TokenCounters#jtokkit()}, lines 1..n, no section. Texts are embedded in batches of
     * {@value #EMBED_BATCH}. Documents with neither title nor text are left out (many embedding models reject blank
 * texts, and an empty document cannot be found by any ranker). One chunk per document suits abstract-sized
 * corpora such as Cranfield.
     *
     * @param dataset  the dataset
     * @param store    where to store it
     * @param embedder embeds the chunk texts
     * @param tenant   the tenant the documents belong to
     */
    public static void index(BeirDataset dataset, DocumentStore store, Embedder embedder, String tenant) {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(embedder, "embedder");
        Objects.requireNonNull(tenant, "tenant");
        TokenCounter tokens = TokenCounters.jtokkit();
        List<BeirDataset.CorpusDocument> docs = new ArrayList<>();
        for (BeirDataset.CorpusDocument doc : dataset.corpus().values()) {
            if (doc.title().isBlank() && doc.text().isBlank()) {
                continue;             // nothing to embed or match: left out (it can never be retrieved anyway)
            }
            docs.add(doc);
        }
        for (int from = 0; from < docs.size(); from += EMBED_BATCH) {
            List<BeirDataset.CorpusDocument> batch = docs.subList(from, Math.min(docs.size(), from + EMBED_BATCH));
            List<String> texts = new ArrayList<>(batch.size());
            for (BeirDataset.CorpusDocument doc : batch) {
                texts.add(doc.fullText());
            }
            float[][] vectors = embedder.embed(texts);
            if (vectors.length != batch.size()) {
                throw new IllegalStateException("embedder " + embedder.name() + " returned " + vectors.length
                        + " vectors for " + batch.size() + " texts");
            }
            for (int j = 0; j < batch.size(); j++) {
                BeirDataset.CorpusDocument doc = batch.get(j);
                String text = texts.get(j);
                StoredDocument stored = StoredDocument.builder()
                        .tenant(tenant)
                        .path(doc.id())
                        .title(doc.title().isBlank() ? doc.id() : doc.title())
                        .charCount(text.length())
                        .build();
                StoredChunk chunk = new StoredChunk(stored.id(), 0, text, vectors[j], tokens.count(text),
                        1, lineCount(text), null, null);
                store.upsert(stored, List.of(chunk));
            }
        }
    }

    private static int lineCount(String text) {
        int lines = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines++;
            }
        }
        return lines;
    }

    /** Nearest-rank percentile of sorted values; 0 for none. */
    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
