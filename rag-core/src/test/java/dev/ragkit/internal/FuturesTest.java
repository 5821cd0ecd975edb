package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;

final class FuturesTest {
    private static ExecutionException failureOf(Throwable thrown) {
        FutureTask<Void> task = new FutureTask<>(() -> {
            if (thrown instanceof Exception) {
                throw (Exception) thrown;
            }
            throw (Error) thrown;
        });
        task.run();
        try {
            task.get();
        } catch (ExecutionException e) {
            return e;
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("the task did not fail");
    }

    @Test
    void unwrap_givesBackWhatTheTaskThrew() {
        IllegalArgumentException unchecked = new IllegalArgumentException("bad setting");
        IOException checked = new IOException("disk full");
        AssertionError error = new AssertionError("boom");

        assertThat(Futures.unwrap(failureOf(unchecked))).isSameAs(unchecked);
        assertThat(Futures.unwrap(failureOf(checked))).isInstanceOf(IllegalStateException.class).hasCause(checked)
                .hasMessageContaining("disk full");
        assertThatThrownBy(() -> Futures.unwrap(failureOf(error))).isSameAs(error);
    }
}
