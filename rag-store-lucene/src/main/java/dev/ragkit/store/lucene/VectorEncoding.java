package dev.ragkit.store.lucene;

import java.util.Locale;

/**
 * How the Lucene store keeps the vectors its HNSW graph searches. Recorded in the index (like the embedder) when it
 * is created; a store configured with another encoding refuses to open it, and a store configured with none
 * follows the index.
 */
public enum VectorEncoding {
    /** 32-bit floats: the graph is built and searched on the exact vectors ({@code Lucene99HnswVectorsFormat}). */
    FLOAT32("float"),
    /**
     * Scalar-quantized to 8 bits per dimension ({@code Lucene99HnswScalarQuantizedVectorsFormat}, 7-bit
     * quantization): the graph is searched on bytes, a quarter of the float vectors' size in memory. The float
     * vectors are kept beside them (merges re-quantize from them), so the index on disk grows by about a quarter
     * of the vectors' size rather than shrinking.
     */
    INT8("int8");

    private final String setting;

    VectorEncoding(String setting) {
        this.setting = setting;
    }

    /** @return the name used in the index's commit data and in the provider setting {@code vectors} */
    public String setting() {
        return setting;
    }

    /**
     * Reads a setting value.
     *
     * @param value {@code float} (also {@code float32}) or {@code int8} (any case)
     * @return the encoding
     * @throws IllegalArgumentException naming the allowed values
     */
    public static VectorEncoding parse(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "float", "float32" -> FLOAT32;
            case "int8" -> INT8;
            default -> throw new IllegalArgumentException("vectors (vectorEncoding) must be float or int8, got '"
                    + value + "'");
        };
    }
}
