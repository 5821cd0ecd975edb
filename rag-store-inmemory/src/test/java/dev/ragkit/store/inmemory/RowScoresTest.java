package dev.ragkit.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class RowScoresTest {

    @Test
    void acquire_again_forgetsThePreviousSearchsScores() {
        RowScores first = RowScores.acquire(10);
        first.add(3, 1.5f);
        first.add(3, 0.5f);
        first.add(7, 1f);
        assertThat(first.get(3)).isEqualTo(2f);
        assertThat(first.size()).isEqualTo(2);

        RowScores second = RowScores.acquire(10);
        assertThat(second.get(3)).isZero();
        assertThat(second.get(7)).isZero();
        assertThat(second.size()).isZero();
    }

    @Test
    void acquire_moreRowsThanBefore_growsAndKeepsTouchOrder() {
        RowScores.acquire(4);
        RowScores scores = RowScores.acquire(1_000);
        scores.add(999, 1f);
        scores.add(0, 2f);
        scores.add(500, 3f);
        List<Integer> rows = new ArrayList<>();
        scores.forEach((row, score) -> rows.add(row));
        assertThat(rows).containsExactly(999, 0, 500);
        assertThat(scores.get(5_000)).as("beyond the arrays").isZero();
    }
}
