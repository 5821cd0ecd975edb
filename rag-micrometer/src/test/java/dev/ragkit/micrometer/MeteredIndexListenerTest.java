package dev.ragkit.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.ingest.IndexListener;
import dev.ragkit.ingest.IndexProgress;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MeteredIndexListenerTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void progressGauge_keepsItsValue_afterTheListenerIsCollected() {
        WeakReference<MeteredIndexListener> gone = new WeakReference<>(runHalfway());
        for (int i = 0; i < 50 && gone.get() != null; i++) {
            System.gc();
        }

        assertThat(gone.get()).as("the listener was collected").isNull();
        assertThat(meters.get("ragkit.index.progress").gauge().value()).isEqualTo(0.5);
    }

    @Test
    void progressGauge_followsTheLatestRunOnTheRegistry() {
        MeteredIndexListener first = runHalfway();
        MeteredIndexListener second = new MeteredIndexListener(IndexListener.NONE, meters);
        second.onStart(10);
        second.onProgress(new IndexProgress(9, 10, 90, 900, Duration.ofSeconds(1)));

        assertThat(meters.find("ragkit.index.progress").gauges()).hasSize(1);
        assertThat(meters.get("ragkit.index.progress").gauge().value()).isEqualTo(0.9);
        assertThat(first).isNotSameAs(second);
    }

    private MeteredIndexListener runHalfway() {
        MeteredIndexListener listener = new MeteredIndexListener(IndexListener.NONE, meters);
        listener.onStart(4);
        listener.onProgress(new IndexProgress(2, 4, 20, 200, Duration.ofSeconds(1)));
        return listener;
    }
}
