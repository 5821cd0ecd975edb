package dev.ragkit.store.inmemory;

import java.util.Arrays;

/** An open-addressing map from row (non-negative int) to an accumulated score. Not thread-safe. */
final class RowScores {
    private static final int EMPTY = -1;
    private int[] keys;
    private float[] values;
    private int size;

    RowScores(int expected) {
        int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new int[capacity];
        values = new float[capacity];
        Arrays.fill(keys, EMPTY);
    }

    void add(int row, float score) {
        int slot = find(row);
        if (keys[slot] == EMPTY) {
            keys[slot] = row;
            values[slot] = score;
            if (++size * 2 > keys.length) {
                grow();
            }
        } else {
            values[slot] += score;
        }
    }

    /** The score of {@code row}, or 0 when it has none. */
    float get(int row) {
        int slot = find(row);
        return keys[slot] == EMPTY ? 0f : values[slot];
    }

    int size() {
        return size;
    }

    /** Calls {@code consumer} for every (row, score). */
    void forEach(Consumer consumer) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY) {
                consumer.accept(keys[i], values[i]);
            }
        }
    }

    interface Consumer {
        void accept(int row, float score);
    }

    private int find(int row) {
        int mask = keys.length - 1;
        int mix = row * 0x9E3779B9;
        int slot = (mix ^ (mix >>> 16)) & mask;
        while (keys[slot] != EMPTY && keys[slot] != row) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        int[] oldKeys = keys;
        float[] oldValues = values;
        keys = new int[oldKeys.length * 2];
        values = new float[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int slot = find(oldKeys[i]);
                keys[slot] = oldKeys[i];
                values[slot] = oldValues[i];
                size++;
            }
        }
    }
}
