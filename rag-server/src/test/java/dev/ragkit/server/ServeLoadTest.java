package dev.ragkit.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.generation.ExtractiveBackend;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load client behind docs/benchmarks.md's serve numbers, run briefly so that it keeps working. */
final class ServeLoadTest {
    @TempDir
    Path dir;

    @Test
    void run_countsAnsweredRequests_withLatencies() throws Exception {
        try (ServerFixture f = new ServerFixture(dir).start(new ExtractiveBackend(),
                b -> b.scope(ServerFixture.ACME, List.of("eng")))) {
            ServeLoad.Result search = ServeLoad.run(URI.create(f.base()), "search", 2, Duration.ofSeconds(1), null);
            assertThat(search.requests()).isPositive();
            assertThat(search.errors()).isZero();
            assertThat(search.p95Millis()).isGreaterThanOrEqualTo(search.p50Millis()).isPositive();
            ServeLoad.Result ask = ServeLoad.run(URI.create(f.base()), "ask", 1, Duration.ofSeconds(1), null);
            assertThat(ask.requests()).isPositive();
            assertThat(ask.errors()).isZero();
        }
    }
}
