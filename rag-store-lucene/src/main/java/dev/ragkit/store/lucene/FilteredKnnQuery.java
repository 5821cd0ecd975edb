package dev.ragkit.store.lucene;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.util.Bits;

/**
 * Lucene's k-NN query with a better choice between the graph and an exact search when a filter leaves only part of
 * a segment. Lucene 9.12 first searches the graph, allowing it to visit as many vectors as the filter lets through,
 * and searches those exactly when the graph search runs past that; a selective filter makes the graph search visit
 * far more vectors than it keeps, so it runs past the limit and its time is lost. Scoring a vector in an exact search
 * costs about a third of visiting one in the graph (0.37 µs against 0.93 µs, 384 dimensions, JDK 17, measured with
 * {@code FilteredSearchProbe} in the benchmarks), and the graph search under a filter keeping a share {@code s} of
 * the segment visits about {@code v / s} vectors where an unfiltered one visits {@code v}, about
 * {@value #VISITS_PER_CANDIDATE} per requested neighbour. So exact is cheaper while the filter keeps fewer than
 * {@code sqrt(VISITS_PER_CANDIDATE × COST_RATIO × k × maxDoc)} vectors of the segment: 20,000 of 200,000 for 100
 * neighbours (10 %), 44,700 of a million (4.5 %), all of a segment under 2,000. Those segments are searched exactly
 * at once; exact search also finds the true nearest neighbours.
 */
final class FilteredKnnQuery extends KnnFloatVectorQuery {
    /** Vectors an unfiltered graph search visits per requested neighbour (7–9 measured at 200k). */
    static final double VISITS_PER_CANDIDATE = 8;
    /** What visiting a vector in the graph costs over scoring it in an exact search (0.93 / 0.37 µs). */
    static final double COST_RATIO = 2.5;

    /** What {@code approximateSearch} returns to make Lucene search the filter's vectors exactly. */
    static final TopDocs INCOMPLETE = new TopDocs(
            new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO), new ScoreDoc[0]);

    FilteredKnnQuery(String field, float[] target, int k, Query filter) {
        super(field, target, k, filter);
    }

    /**
     * @param passing how many vectors of the segment the filter lets through
     * @param k       neighbours requested
     * @param maxDoc  the segment's documents
     * @return whether an exact search of those vectors is expected to cost less than a filtered graph search
     */
    static boolean exactIsCheaper(long passing, int k, int maxDoc) {
        return (double) passing * passing < VISITS_PER_CANDIDATE * COST_RATIO * k * (double) maxDoc;
    }

    @Override
    protected TopDocs approximateSearch(LeafReaderContext context, Bits acceptDocs, int visitedLimit,
            KnnCollectorManager knnCollectorManager) throws IOException {
        // Lucene passes the filter's count + 1 as the limit when there is a filter, and no limit when there is none;
        // an incomplete result makes it search the filter's vectors exactly
        if (visitedLimit != Integer.MAX_VALUE && exactIsCheaper(visitedLimit - 1L, getK(), context.reader().maxDoc())) {
            return INCOMPLETE;
        }
        return super.approximateSearch(context, acceptDocs, visitedLimit, knnCollectorManager);
    }
}
