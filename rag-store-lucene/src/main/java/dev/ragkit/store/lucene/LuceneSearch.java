package dev.ragkit.store.lucene;

import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * One search on one point-in-time searcher: k-NN with the request's filters inside the query (a segment is searched
 * exactly where the filter leaves fewer of its chunks than a graph search would cost: {@link FilteredKnnQuery}),
 * BM25 with the same filters as
 * filter clauses, and their union for hybrid requests. Similarities are recomputed in double precision from the
 * stored original vectors, so they equal the textbook cosine; ties are broken by document id then chunk index,
 * and a search whose k-th and (k+1)-th candidates tie asks for more candidates until the cut is settled.
 */
final class LuceneSearch {
    /** DOT_PRODUCT scores are (1 + cos) / 2 in float: a generous rounding margin, in score units. */
    private static final float VECTOR_SCORE_SLACK = 1e-5f;
    private static final Comparator<Candidate> TIES = Comparator
            .comparing((Candidate c) -> c.chunk.documentId()).thenComparingInt(c -> c.chunk.index());
    private static final Comparator<Candidate> BY_SIMILARITY = Comparator
            .comparingDouble((Candidate c) -> -c.similarity).thenComparing(TIES);
    private static final Comparator<Candidate> BY_KEYWORD = Comparator
            .comparingDouble((Candidate c) -> -c.keyword).thenComparing(TIES);

    private final IndexSearcher searcher;
    private final StoredFields stored;
    private final Analyzer analyzer;
    private final int maxCandidates;
    private final int graphCandidates;
    private final Map<String, StoredDocument> headers = new HashMap<>();
    private final boolean rescore;

    /** A chunk hit under construction. */
    private static final class Candidate {
        final String key;
        final String tenant;
        final StoredChunk chunk;
        final float[] vector;
        double similarity = Double.NaN;
        double keyword = Double.NaN;

        Candidate(String key, String tenant, StoredChunk chunk, float[] vector) {
            this.key = key;
            this.tenant = tenant;
            this.chunk = chunk;
            this.vector = vector;
        }
    }

    /**
     * @param rescore whether the graph's scores are approximate (scalar-quantized vectors): the graph's candidates
     *                are then re-scored with the float vectors that the format keeps beside the quantized ones
     *                before the top {@code k} are cut, so quantization costs recall only where the right chunk
     *                was not among the candidates at all
     */
    LuceneSearch(IndexSearcher searcher, Analyzer analyzer, int graphCandidates, int maxCandidates, boolean rescore)
            throws IOException {
        this.rescore = rescore;
        this.graphCandidates = graphCandidates;
        this.searcher = searcher;
        this.stored = searcher.storedFields();
        this.analyzer = analyzer;
        this.maxCandidates = maxCandidates;
    }

    List<SearchHit> search(SearchRequest request) throws IOException {
        Query filter = LuceneQueries.chunks(request);
        float[] vector = request.queryVectorUnsafe();
        String text = request.queryText();
        Query textQuery = text == null ? null : LuceneQueries.text(analyzer, text);
        int k = request.k();
        List<Candidate> byVector = vector == null ? List.of() : vectorTopK(request, vector, filter, k);
        if (text == null) {
            return hits(byVector);
        }
        List<Candidate> byText = textQuery == null ? List.of() : textTopK(textQuery, filter, k);
        if (vector == null) {
            return hits(byText);
        }
        Map<String, Candidate> union = new LinkedHashMap<>();
        byVector.forEach(c -> union.put(c.key + ":" + c.chunk.index(), c));
        byText.forEach(c -> union.putIfAbsent(c.key + ":" + c.chunk.index(), c));
        List<Candidate> all = new ArrayList<>(union.values());
        for (Candidate c : all) {
            if (Double.isNaN(c.similarity)) {
                c.similarity = LuceneFields.similarity(vector, c.vector);
            }
        }
        fillKeywordScores(all, textQuery);
        all.sort(BY_SIMILARITY);
        return hits(all);
    }

    private List<Candidate> vectorTopK(SearchRequest request, float[] vector, Query filter, int k) throws IOException {
        float[] unit = LuceneFields.normalized(vector);
        // the graph search collects graphCandidates neighbours (its beam); more candidates, better recall
        int fetch = Math.min(maxCandidates, Math.max(graphCandidates, k + 10));
        while (true) {
            Query knnFilter = LuceneQueries.vectorFilter(request, searcher.getIndexReader(), filter, fetch);
            TopDocs top = searcher.search(new FilteredKnnQuery(LuceneFields.VECTOR, unit, fetch, knnFilter), fetch);
            ScoreDoc[] docs = rescore ? rescored(top.scoreDocs, unit) : top.scoreDocs;
            int load = contenders(docs, k, VECTOR_SCORE_SLACK);
            List<Candidate> found = candidates(docs, load);
            for (Candidate c : found) {
                c.similarity = LuceneFields.similarity(vector, c.vector);
            }
            found.sort(BY_SIMILARITY);
            if (settled(docs.length, load, fetch)) {
                return found.subList(0, Math.min(k, found.size()));
            }
            fetch = Math.min(maxCandidates, fetch * 2);
        }
    }

    /**
     * The graph's candidates scored with the float vectors (read from the vector format, in document order per
     * segment), best first; Lucene's DOT_PRODUCT score scale, as the graph's.
     */
    private ScoreDoc[] rescored(ScoreDoc[] docs, float[] unit) throws IOException {
        ScoreDoc[] out = docs.clone();
        Arrays.sort(out, Comparator.comparingInt(d -> d.doc));
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        int leafIndex = -1;
        LeafReaderContext leaf = null;
        FloatVectorValues values = null;
        for (int i = 0; i < out.length; i++) {
            ScoreDoc sd = out[i];
            int li = ReaderUtil.subIndex(sd.doc, leaves);
            if (li != leafIndex) {
                leafIndex = li;
                leaf = leaves.get(li);
                values = leaf.reader().getFloatVectorValues(LuceneFields.VECTOR);
            }
            if (values == null || leaf == null) {
                continue;
            }
            int target = sd.doc - leaf.docBase;
            int at = values.docID() < target ? values.advance(target) : values.docID();
            if (at == target) {
                out[i] = new ScoreDoc(sd.doc, LuceneFields.SIMILARITY.compare(unit, values.vectorValue()),
                        sd.shardIndex);
            }
        }
        Arrays.sort(out, (a, b) -> a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.doc,
                b.doc));
        return out;
    }

    private List<Candidate> textTopK(Query textQuery, Query filter, int k) throws IOException {
        Query query = new BooleanQuery.Builder().add(textQuery, Occur.MUST).add(filter, Occur.FILTER).build();
        int fetch = Math.min(maxCandidates, k + 10);
        while (true) {
            TopDocs top = searcher.search(query, fetch);
            ScoreDoc[] docs = top.scoreDocs;
            int load = contenders(docs, k, 0f);
            List<Candidate> found = candidates(docs, load);
            for (int i = 0; i < found.size(); i++) {
                found.get(i).keyword = docs[i].score;
            }
            found.sort(BY_KEYWORD);
            if (settled(docs.length, load, fetch)) {
                return found.subList(0, Math.min(k, found.size()));
            }
            fetch = Math.min(maxCandidates, fetch * 2);
        }
    }

    /**
     * How many of the score-ordered results can still be among the top {@code k}: the first {@code k} and every
     * later one whose score is within {@code slack} of the k-th (the float score of the graph may differ from the
     * exact cosine by rounding; BM25 scores are exact, so only equal scores tie). Only those are read from the
     * stored fields, which is most of a search's cost.
     */
    private static int contenders(ScoreDoc[] docs, int k, float slack) {
        if (docs.length <= k) {
            return docs.length;
        }
        float cut = docs[k - 1].score - slack;
        int load = k;
        while (load < docs.length && docs[load].score >= cut) {
            load++;
        }
        return load;
    }

    /** Whether the cut is final: every result was loaded only when no more exist or no more may be asked for. */
    private boolean settled(int returned, int loaded, int fetch) {
        return loaded < returned || returned < fetch || fetch >= maxCandidates;
    }

    /** BM25 scores of the given chunks (0 for chunks without a query term), scored by the same query. */
    private void fillKeywordScores(List<Candidate> all, @Nullable Query textQuery) throws IOException {
        List<BytesRef> keys = new ArrayList<>();
        for (Candidate c : all) {
            if (Double.isNaN(c.keyword)) {
                c.keyword = 0.0;
                keys.add(new BytesRef(c.key + ":" + c.chunk.index()));
            }
        }
        if (textQuery == null || keys.isEmpty()) {
            return;
        }
        Query query = new BooleanQuery.Builder().add(textQuery, Occur.MUST)
                .add(new TermInSetQuery(LuceneFields.CHUNK_KEY, keys), Occur.FILTER).build();
        TopDocs top = searcher.search(query, keys.size());
        Map<String, Double> scores = new HashMap<>();
        for (ScoreDoc sd : top.scoreDocs) {
            Document doc = stored.document(sd.doc);
            scores.put(LuceneFields.key(doc.get(LuceneFields.TENANT), doc.get(LuceneFields.DOC_ID)).text() + ":"
                    + doc.getField(LuceneFields.INDEX).numericValue().intValue(), (double) sd.score);
        }
        for (Candidate c : all) {
            Double s = scores.get(c.key + ":" + c.chunk.index());
            if (s != null) {
                c.keyword = s;
            }
        }
    }

    private List<Candidate> candidates(ScoreDoc[] docs, int count) throws IOException {
        List<Candidate> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ScoreDoc sd = docs[i];
            Document doc = stored.document(sd.doc);
            String tenant = doc.get(LuceneFields.TENANT);
            String id = doc.get(LuceneFields.DOC_ID);
            StoredChunk chunk = LuceneFields.chunk(doc, false);
            out.add(new Candidate(LuceneFields.key(tenant, id).text(), tenant, chunk, LuceneFields.rawVector(doc)));
        }
        return out;
    }

    private List<SearchHit> hits(List<Candidate> candidates) throws IOException {
        List<SearchHit> hits = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            hits.add(new SearchHit(c.chunk, header(c.key, c.tenant, c.chunk.documentId()), c.similarity, c.keyword));
        }
        return List.copyOf(hits);
    }

    private StoredDocument header(String key, String tenant, String documentId) throws IOException {
        StoredDocument cached = headers.get(key);
        if (cached != null) {
            return cached;
        }
        Query query = new BooleanQuery.Builder()
                .add(new TermQuery(LuceneFields.key(tenant, documentId)), Occur.FILTER)
                .add(new TermQuery(new org.apache.lucene.index.Term(LuceneFields.KIND, LuceneFields.DOC)), Occur.FILTER)
                .build();
        TopDocs top = searcher.search(query, 1);
        if (top.scoreDocs.length == 0) {
            throw new dev.ragkit.store.StoreException("the index holds chunks of document " + documentId
                    + " without the document itself; it is damaged: rebuild it (ragkit index --rebuild)", false);
        }
        StoredDocument document = new LuceneFields.HeaderReader(searcher, stored).read(top.scoreDocs[0].doc);
        headers.put(key, document);
        return document;
    }
}
