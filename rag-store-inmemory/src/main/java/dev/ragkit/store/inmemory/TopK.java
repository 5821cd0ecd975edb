package dev.ragkit.store.inmemory;

/**
 * A bounded min-heap of the best {@code k} (score, document ordinal, chunk index) triples, in primitive
 * arrays: offering a candidate allocates nothing. Higher scores are better; equal scores prefer the smaller
 * document id, then the smaller chunk index, so results are deterministic. Not thread-safe.
 */
final class TopK {
    private final float[] scores;
    private final int[] ordinals;
    private final int[] chunks;
    private final DocEntry[] docs;
    private int size;

    TopK(int k, DocEntry[] docs) {
        this.scores = new float[k];
        this.ordinals = new int[k];
        this.chunks = new int[k];
        this.docs = docs;
    }

    int size() {
        return size;
    }

    /**
     * The lowest score that can still enter: {@code -Infinity} while the heap is not full, then the worst kept
     * score (an equal score enters only if it wins the tie-break, which {@link #offer} decides).
     */
    float threshold() {
        return size < scores.length ? Float.NEGATIVE_INFINITY : scores[0];
    }

    /** Offers a candidate; keeps it when it is among the best {@code k} seen so far. */
    void offer(float score, int ordinal, int chunk) {
        int k = scores.length;
        if (size < k) {
            int i = size++;
            scores[i] = score;
            ordinals[i] = ordinal;
            chunks[i] = chunk;
            siftUp(i);
        } else if (score > scores[0] || (score == scores[0] && tieBefore(ordinal, chunk, ordinals[0], chunks[0]))) {
            scores[0] = score;
            ordinals[0] = ordinal;
            chunks[0] = chunk;
            siftDown(0);
        }
    }

    /** Adds every entry of {@code other} to this heap. */
    void addAll(TopK other) {
        for (int i = 0; i < other.size; i++) {
            offer(other.scores[i], other.ordinals[i], other.chunks[i]);
        }
    }

    /**
     * Empties the heap into arrays ordered best first.
     *
     * @return the number of entries written
     */
    int drainBestFirst(float[] outScores, int[] outOrdinals, int[] outChunks) {
        int n = size;
        for (int i = n - 1; i >= 0; i--) {
            outScores[i] = scores[0];
            outOrdinals[i] = ordinals[0];
            outChunks[i] = chunks[0];
            size--;
            if (size > 0) {
                scores[0] = scores[size];
                ordinals[0] = ordinals[size];
                chunks[0] = chunks[size];
                siftDown(0);
            }
        }
        return n;
    }

    /** Whether entry a is worse than entry b (belongs nearer the root). */
    private boolean worse(int a, int b) {
        if (scores[a] != scores[b]) {
            return scores[a] < scores[b];
        }
        return tieBefore(ordinals[b], chunks[b], ordinals[a], chunks[a]);
    }

    /** Whether (ordA, chunkA) comes before (ordB, chunkB) among equal scores. */
    private boolean tieBefore(int ordA, int chunkA, int ordB, int chunkB) {
        if (ordA == ordB) {
            return chunkA < chunkB;
        }
        return docs[ordA].document.id().compareTo(docs[ordB].document.id()) < 0;
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!worse(i, parent)) {
                return;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(int i) {
        while (true) {
            int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            int right = left + 1;
            int worst = right < size && worse(right, left) ? right : left;
            if (!worse(worst, i)) {
                return;
            }
            swap(i, worst);
            i = worst;
        }
    }

    private void swap(int a, int b) {
        float s = scores[a];
        scores[a] = scores[b];
        scores[b] = s;
        int o = ordinals[a];
        ordinals[a] = ordinals[b];
        ordinals[b] = o;
        int c = chunks[a];
        chunks[a] = chunks[b];
        chunks[b] = c;
    }
}
