package dev.ragkit.store.inmemory;

import java.util.Map;

/**
 * An immutable, consistent picture of one tenant's index, published by the writer through a volatile field.
 *
 * <p>Rows {@code < rowCount} and document ordinals {@code < docCount} were fully written before this view
 * was published and are never written again within the generation. A document ordinal {@code d} is live in
 * this view when {@code deaths[d] > version}: the writer marks a replaced or deleted document with the
 * version of the view that drops it, before publishing that view, so older views still see it as live and
 * newer ones do not. The arrays may be longer than the counts and shared with later views.
 */
final class View {
    final int generation;
    final int version;
    /** The vector dimension; 0 while the tenant holds no chunk. */
    final int dim;
    final int rowCount;
    final int docCount;
    final float[] vectors;
    final float[] inverseNorms;
    final int[] rowLengths;
    final int[] rowDocs;
    final DocEntry[] docs;
    final int[] deaths;
    final Map<String, Postings> terms;
    final int liveRows;
    final long liveTokens;

    View(int generation, int version, int dim, int rowCount, int docCount, float[] vectors, float[] inverseNorms,
            int[] rowLengths, int[] rowDocs, DocEntry[] docs, int[] deaths, Map<String, Postings> terms,
            int liveRows, long liveTokens) {
        this.generation = generation;
        this.version = version;
        this.dim = dim;
        this.rowCount = rowCount;
        this.docCount = docCount;
        this.vectors = vectors;
        this.inverseNorms = inverseNorms;
        this.rowLengths = rowLengths;
        this.rowDocs = rowDocs;
        this.docs = docs;
        this.deaths = deaths;
        this.terms = terms;
        this.liveRows = liveRows;
        this.liveTokens = liveTokens;
    }

    boolean isLive(int ordinal) {
        return deaths[ordinal] > version;
    }
}
