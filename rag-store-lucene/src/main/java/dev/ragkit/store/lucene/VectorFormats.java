package dev.ragkit.store.lucene;

import java.util.concurrent.ExecutorService;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.TieredMergePolicy;
import org.jspecify.annotations.Nullable;

/**
 * The Lucene codec and merge policy a writer of the store uses: the HNSW vector format for the chosen
 * {@link VectorEncoding} and graph parameters, and merge settings suited to incremental re-indexing.
 */
final class VectorFormats {
    /**
     * The encoding of a new index when none is configured: int8, which at a million chunks searched faster than float
     * in every interleaved measurement, with the same recall or better (design notes, "float or int8, interleaved").
     */
    static final VectorEncoding DEFAULT_ENCODING = VectorEncoding.INT8;
    /** Lucene's default: neighbours kept per graph node. */
    static final int DEFAULT_MAX_CONN = Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN;
    /** Lucene's default: candidates considered when inserting a node into the graph. */
    static final int DEFAULT_BEAM_WIDTH = Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH;
    /** Lucene's upper bound for {@code maxConn}. */
    static final int MAX_MAX_CONN = Lucene99HnswVectorsFormat.MAXIMUM_MAX_CONN;
    /** The most merge threads accepted. */
    static final int MAX_MERGE_THREADS = 64;
    /** Lucene's upper bound for {@code beamWidth}. */
    static final int MAX_BEAM_WIDTH = Lucene99HnswVectorsFormat.MAXIMUM_BEAM_WIDTH;
    /** Bits per dimension of {@link VectorEncoding#INT8}: 7, Lucene's default (signed bytes, no sign trick). */
    static final int INT8_BITS = 7;

    /**
     * Segments smaller than this are merged as if they had this size: the tiny segments that one-file commits
     * write are merged among themselves early (cheap: a few thousand vectors), which keeps the number of segments,
     * and so of graph searches per query, low. Lucene's default is 2 MB (about 600 chunks here).
     */
    static final double FLOOR_SEGMENT_MB = 16;
    /** Segments per tier before a merge; Lucene's default. */
    static final double SEGMENTS_PER_TIER = 10;
    /**
     * Deleted (replaced) chunks a segment may carry before it is rewritten to drop them; Lucene's default. A large
     * segment (a compacted million chunks) is rewritten only when a fifth of it was replaced, never for a one-file
     * change.
     */
    static final double DELETES_PCT_ALLOWED = 20;

    private VectorFormats() {
    }

    /**
     * @param mergeThreads threads that build a merged segment's graph together, each inserting a share of the
     *                     vectors; 1 builds it on the merging thread alone
     * @param mergeExec    runs the extra merge threads; {@code null} when {@code mergeThreads} is 1
     * @return the codec writing vectors in {@code encoding} with the given graph parameters
     */
    static Codec codec(VectorEncoding encoding, int maxConn, int beamWidth, int mergeThreads,
            @Nullable ExecutorService mergeExec) {
        KnnVectorsFormat format = switch (encoding) {
            case FLOAT32 -> new Lucene99HnswVectorsFormat(maxConn, beamWidth, mergeThreads, mergeExec);
            case INT8 -> new Lucene99HnswScalarQuantizedVectorsFormat(maxConn, beamWidth, mergeThreads, INT8_BITS,
                    false, null, mergeExec);
        };
        return new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return format;
            }
        };
    }

    /** @return the merge policy for incremental re-indexing (see the constants) */
    static MergePolicy mergePolicy() {
        return new TieredMergePolicy()
                .setFloorSegmentMB(FLOOR_SEGMENT_MB)
                .setSegmentsPerTier(SEGMENTS_PER_TIER)
                .setDeletesPctAllowed(DELETES_PCT_ALLOWED);
    }

    /** @return how a message names the encoding */
    static String describe(VectorEncoding encoding) {
        return switch (encoding) {
            case FLOAT32 -> "float (" + VectorEncoding.FLOAT32.setting() + ")";
            case INT8 -> "scalar-quantized int8 (" + VectorEncoding.INT8.setting() + ")";
        };
    }
}
