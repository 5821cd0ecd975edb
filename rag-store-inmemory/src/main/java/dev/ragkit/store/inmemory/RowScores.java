package dev.ragkit.store.inmemory;


/**
 * Accumulated keyword scores by row: a dense {@code float[]} indexed by row plus the list of rows touched, so
 * adding is one array write and reading back visits only the touched rows. One instance per thread is reused
 * ({@link #acquire(int)}), so a keyword search allocates nothing in proportion to the store. Scores are
 * positive, so 0 means "not touched". Not thread-safe; confined to the thread that acquired it.
 */
final class RowScores {
    private static final ThreadLocal<RowScores> PER_THREAD = ThreadLocal.withInitial(RowScores::new);

    private float[] values = new float[0];
    private int[] touched = new int[0];
    private int size;

    private RowScores() {
    }

    /**
     * The calling thread's instance, emptied and able to hold rows {@code 0 .. rows-1}. The previous result of
     * this thread becomes invalid.
     */
    static RowScores acquire(int rows) {
        RowScores scores = PER_THREAD.get();
        for (int i = 0; i < scores.size; i++) {
            scores.values[scores.touched[i]] = 0f;
        }
        scores.size = 0;
        if (scores.values.length < rows) {
            int capacity = Math.max(rows, scores.values.length + (scores.values.length >> 1));
            scores.values = new float[capacity];
            scores.touched = new int[capacity];
        }
        return scores;
    }

    /** Adds a positive score to a row. */
    void add(int row, float score) {
        if (values[row] == 0f) {
            touched[size++] = row;
        }
        values[row] += score;
    }

    /** The score of {@code row}, or 0 when it has none. */
    float get(int row) {
        return row < values.length ? values[row] : 0f;
    }

    int size() {
        return size;
    }

    /** Calls {@code consumer} for every (row, score), in the order rows were first touched. */
    void forEach(Consumer consumer) {
        for (int i = 0; i < size; i++) {
            consumer.accept(touched[i], values[touched[i]]);
        }
    }


    interface Consumer {
        void accept(int row, float score);
    }
}
