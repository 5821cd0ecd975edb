package dev.ragkit.store.lucene;

import static dev.ragkit.store.lucene.LuceneFields.CHUNK;
import static dev.ragkit.store.lucene.LuceneFields.DOC;
import static dev.ragkit.store.lucene.LuceneFields.DOC_TYPE;
import static dev.ragkit.store.lucene.LuceneFields.KIND;
import static dev.ragkit.store.lucene.LuceneFields.META_DATE;
import static dev.ragkit.store.lucene.LuceneFields.META_KV;
import static dev.ragkit.store.lucene.LuceneFields.META_NUM;
import static dev.ragkit.store.lucene.LuceneFields.PROMOTION;
import static dev.ragkit.store.lucene.LuceneFields.TAG;
import static dev.ragkit.store.lucene.LuceneFields.TAGGED;
import static dev.ragkit.store.lucene.LuceneFields.TENANT;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.MetadataTerms;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The filter queries of the store: scope (tenant and access tags), a request's type, promotion and metadata
 * filters, and the keyword query. Filters are {@code FILTER} clauses (they do not score) and go inside the k-NN
 * query and beside the BM25 query, so they apply before the top-k cut.
 */
final class LuceneQueries {

    private LuceneQueries() {
    }

    /** Header documents the scope can see. */
    static BooleanQuery.Builder documents(Scope scope) {
        return scoped(scope, DOC);
    }

    /** Chunk documents that the request's scope can see and that pass its filters. */
    static Query chunks(SearchRequest request) {
        BooleanQuery.Builder b = scoped(request.scope(), CHUNK);
        addTypeAndPromotion(b, request.docTypes(), request.minPromotion());
        MetadataFilter metadata = request.metadataFilter();
        if (metadata != null) {
            b.add(metadata(metadata), Occur.FILTER);
        }
        return b.build();
    }

    /**
     * The filter for the k-NN part of a search, or {@code null} when it would let every vector of the index through
     * and the index is too large to be searched exactly anyway: no type, promotion or metadata filter, every
     * document of the index in the request's tenant (and untagged, for a scope that sees only untagged documents),
     * and more documents than {@link FilteredKnnQuery} would search exactly. Only chunks carry vectors, so the kind
     * clause never narrows the graph. Lucene turns a filter into a bit set per segment and query by visiting every
     * document it passes once the segment has deletions (after any update), so a filter passing a million chunks
     * costs about 4 ms a search for nothing; without one the graph search takes the live documents as they are (2.3
     * against 6.5 ms p50 at a million chunks, the same hits). A small index keeps its filter, and with it the exact
     * search that {@link FilteredKnnQuery} chooses for it. {@code docFreq} counts deleted documents as
     * {@code maxDoc} does, so a deleted document of another tenant keeps the filter.
     *
     * @param request the search
     * @param reader  the index being searched
     * @param chunks  {@link #chunks(SearchRequest)} of the request
     * @param k       the neighbours the graph search collects
     * @return {@code chunks}, or {@code null} when it passes every vector of a large index
     * @throws IOException when the index cannot be read
     */
    static @Nullable Query vectorFilter(SearchRequest request, IndexReader reader, Query chunks, int k)
            throws IOException {
        int all = reader.maxDoc();
        if (request.metadataFilter() != null || !request.docTypes().isEmpty()
                || request.minPromotion() != PromotionLevel.STANDARD || FilteredKnnQuery.exactIsCheaper(all, k, all)) {
            return chunks;
        }
        if (reader.docFreq(new Term(TENANT, request.scope().tenant())) != all) {
            return chunks;
        }
        if (!request.scope().unrestricted() && reader.docFreq(new Term(TAGGED, "0")) != all) {
            return chunks;
        }
        return null;
    }

    static void addTypeAndPromotion(BooleanQuery.Builder b, Collection<String> docTypes, PromotionLevel min) {
        if (!docTypes.isEmpty()) {
            b.add(new TermInSetQuery(DOC_TYPE, bytes(docTypes)), Occur.FILTER);
        }
        if (min != PromotionLevel.STANDARD) {
            b.add(IntPoint.newRangeQuery(PROMOTION, min.ordinal(), PromotionLevel.CRITICAL.ordinal()), Occur.FILTER);
        }
    }

    private static BooleanQuery.Builder scoped(Scope scope, String kind) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        b.add(new TermQuery(new Term(TENANT, scope.tenant())), Occur.FILTER);
        b.add(new TermQuery(new Term(KIND, kind)), Occur.FILTER);
        if (!scope.unrestricted()) {
            Query untagged = new TermQuery(new Term(TAGGED, "0"));
            if (scope.accessTags().isEmpty()) {
                b.add(untagged, Occur.FILTER);
            } else {
                BooleanQuery.Builder visible = new BooleanQuery.Builder();
                visible.add(untagged, Occur.SHOULD);
                visible.add(new TermInSetQuery(TAG, bytes(scope.accessTags())), Occur.SHOULD);
                visible.setMinimumNumberShouldMatch(1);
                b.add(visible.build(), Occur.FILTER);
            }
        }
        return b;
    }

    /** A metadata filter as terms and term ranges over the fields that {@link MetadataTerms} fills. */
    static Query metadata(MetadataFilter filter) {
        if (filter instanceof MetadataFilter.Equals eq) {
            return new TermQuery(new Term(META_KV, MetadataTerms.keyValue(eq.key(), eq.value())));
        }
        if (filter instanceof MetadataFilter.In in) {
            List<BytesRef> terms = new ArrayList<>(in.values().size());
            in.values().forEach(v -> terms.add(new BytesRef(MetadataTerms.keyValue(in.key(), v))));
            return new TermInSetQuery(META_KV, terms);
        }
        if (filter instanceof MetadataFilter.NumberRange r) {
            String lo = r.lower() == null ? MetadataTerms.lowest(r.key()) : MetadataTerms.number(r.key(), r.lower());
            String hi = r.upper() == null ? MetadataTerms.highest(r.key()) : MetadataTerms.number(r.key(), r.upper());
            return TermRangeQuery.newStringRange(META_NUM, lo, hi, r.lower() == null || r.lowerInclusive(),
                    r.upper() == null || r.upperInclusive());
        }
        if (filter instanceof MetadataFilter.DateRange r) {
            String lo = r.lower() == null ? MetadataTerms.lowest(r.key())
                    : MetadataTerms.date(r.key(), r.lower().toEpochMilli());
            String hi = r.upper() == null ? MetadataTerms.highest(r.key())
                    : MetadataTerms.date(r.key(), r.upper().toEpochMilli());
            return TermRangeQuery.newStringRange(META_DATE, lo, hi, r.lower() == null || r.lowerInclusive(),
                    r.upper() == null || r.upperInclusive());
        }
        if (filter instanceof MetadataFilter.And and) {
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            and.operands().forEach(f -> b.add(metadata(f), Occur.FILTER));
            return b.build();
        }
        if (filter instanceof MetadataFilter.Or or) {
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            or.operands().forEach(f -> b.add(metadata(f), Occur.SHOULD));
            b.setMinimumNumberShouldMatch(1);
            return b.build();
        }
        MetadataFilter.Not not = (MetadataFilter.Not) filter;
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        b.add(new MatchAllDocsQuery(), Occur.FILTER);
        b.add(metadata(not.operand()), Occur.MUST_NOT);
        return b.build();
    }

    /** The query text's terms as the analyzer sees them, OR-ed; {@code null} when nothing is left to search. */
    static @Nullable Query text(Analyzer analyzer, String text) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        int terms = 0;
        try (TokenStream stream = analyzer.tokenStream(LuceneFields.TEXT, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            java.util.Set<String> seen = new java.util.HashSet<>();
            while (stream.incrementToken()) {
                String t = term.toString();
                if (seen.add(t) && terms < BooleanQuery.getMaxClauseCount() / 2) {
                    b.add(new TermQuery(new Term(LuceneFields.TEXT, t)), Occur.SHOULD);
                    terms++;
                }
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return terms == 0 ? null : b.build();
    }

    private static List<BytesRef> bytes(Collection<String> values) {
        List<BytesRef> out = new ArrayList<>(values.size());
        values.forEach(v -> out.add(new BytesRef(v)));
        return out;
    }
}
