package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.ingest.IndexProgress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress line of {@code ragkit index}: its bar and ETA go by bytes, not files. */
final class IndexProgressCliTest {

    @Test
    void describe_fewLargeFilesDone_barAndEtaGoByBytesNotFiles() {
        // 10 of 100 files done, but they held half the bytes: half the work in 60 s, so 60 s to go (by files: 540 s)
        IndexProgress p = new IndexProgress(10, 100, 500, 20_000, Duration.ofSeconds(60), 5_000_000, 10_000_000);

        String line = ProgressPrinter.describe(p);

        assertThat(line).startsWith("[############------------] 10/100 files | 500 chunks | 20,000 tokens | 333 "
                + "tokens/s | ETA 1m00s");
    }

    @Test
    void describe_nothingDoneYetOrAllDone_saysSo() {
        assertThat(ProgressPrinter.describe(new IndexProgress(0, 3, 0, 0, Duration.ofSeconds(2), 0, 30)))
                .endsWith("ETA ?");
        assertThat(ProgressPrinter.describe(new IndexProgress(3, 3, 3, 9, Duration.ofSeconds(2), 30, 30)))
                .startsWith("[########################] 3/3 files").endsWith("ETA 0s");
    }

    @Test
    void onProgress_aRunThatLoadsItsModelFirst_etaWithinAQuarterOfTheTruthAfterTheFirstFivePercent() {
        // 12 s of loading before the first batch, then 1 s per 1% of the bytes (a real run: docs/benchmarks.md)
        StringWriter out = new StringWriter();
        ProgressPrinter printer = new ProgressPrinter(new PrintWriter(out), true);      // a terminal: every event
        for (int pct = 0; pct <= 100; pct++) {
            Duration elapsed = Duration.ofSeconds(pct == 0 ? 0 : 12 + pct);
            printer.onProgress(new IndexProgress(pct, 100, pct, pct, elapsed, pct * 1000L, 100_000));
        }
        List<String> lines = List.of(out.toString().split("\r"));
        int checked = 0;
        for (String line : lines) {
            java.util.regex.Matcher done = java.util.regex.Pattern.compile("\\] (\\d+)/100 files").matcher(line);
            if (!done.find()) {
                continue;
            }
            int pct = Integer.parseInt(done.group(1));
            if (pct >= 5 && pct < 100) {
                long eta = seconds(line.substring(line.indexOf("ETA ") + 4));
                assertThat((double) Math.abs(eta - (100 - pct))).as(line).isLessThanOrEqualTo(0.25 * (100 - pct));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(95);
        // measured from the run's start instead, the 12 s of loading put the estimate at 5% more than 2x too high
        assertThat(new IndexProgress(5, 100, 5, 5, Duration.ofSeconds(17), 5000, 100_000).estimatedRemaining())
                .isGreaterThan(Duration.ofSeconds(95 * 2));
    }

    @Test
    void onProgress_aRunResumingAKilledOne_etaGoesByTheNewFilesNotTheCommittedOnes() {
        // the killed run committed the first half: found unchanged in 4 s; then 10 s per 1% of the bytes
        StringWriter out = new StringWriter();
        ProgressPrinter printer = new ProgressPrinter(new PrintWriter(out), true);
        for (int pct = 0; pct <= 100; pct++) {
            long millis = pct <= 50 ? pct * 80L : 4_000 + (pct - 50) * 10_000L;
            printer.onProgress(new IndexProgress(pct, 100, 0, 0, Duration.ofMillis(millis), pct * 1000L, 100_000));
        }
        int checked = 0;
        for (String line : out.toString().split("\r")) {
            java.util.regex.Matcher done = java.util.regex.Pattern.compile("\\] (\\d+)/100 files").matcher(line);
            if (!done.find()) {
                continue;
            }
            int pct = Integer.parseInt(done.group(1));
            if (pct >= 55 && pct < 100) {                 // after the first 5% of the new work
                long truth = (100 - pct) * 10L;
                long eta = seconds(line.substring(line.indexOf("ETA ") + 4));
                assertThat((double) Math.abs(eta - truth)).as(line).isLessThanOrEqualTo(0.25 * truth);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(45);
        // the pace since the first event instead: at 60%, 10 points in 104 s, so 69 s for 400 s of work
        IndexProgress first = new IndexProgress(1, 100, 0, 0, Duration.ofMillis(80), 1000, 100_000);
        assertThat(new IndexProgress(60, 100, 0, 0, Duration.ofSeconds(104), 60_000, 100_000)
                .estimatedRemaining(first)).isLessThan(Duration.ofSeconds(100));
    }

    private static long seconds(String eta) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:(\\d+)m)?(\\d+)s").matcher(eta);
        assertThat(m.find()).as(eta).isTrue();
        return (m.group(1) == null ? 0 : Long.parseLong(m.group(1)) * 60) + Long.parseLong(m.group(2));
    }

    @Test
    void eta_longRuns_inMinutesAndHours() {
        assertThat(ProgressPrinter.eta(Duration.ofSeconds(42))).isEqualTo("42s");
        assertThat(ProgressPrinter.eta(Duration.ofSeconds(425))).isEqualTo("7m05s");
        assertThat(ProgressPrinter.eta(Duration.ofMinutes(123))).isEqualTo("2h03m");
    }

    @Test
    void onProgress_notATerminal_printsAtMostOneLinePerTenthAndTheLast() {
        StringWriter out = new StringWriter();
        ProgressPrinter printer = new ProgressPrinter(new PrintWriter(out), false);
        for (int done = 0; done <= 100; done++) {
            printer.onProgress(new IndexProgress(done, 100, done, done, Duration.ofSeconds(done), done * 10L, 1000));
        }
        assertThat(out.toString().lines()).hasSize(11).last().asString().contains("100/100 files");
    }
}
