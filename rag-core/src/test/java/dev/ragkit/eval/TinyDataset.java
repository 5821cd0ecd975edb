package dev.ragkit.eval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the hand-checked three-document collection used by the evaluation tests. */
final class TinyDataset {
    private TinyDataset() {
    }

    /**
     * d1, d2, d3; q1 and q2 judged in {@code test}, q3 judged only in {@code dev}.
     * test qrels: q1: d1=2, d2=1, d3=0 (judged not relevant); q2: d3=1.
     */
    static Path write(Path dir) throws IOException {
        Files.writeString(dir.resolve("corpus.jsonl"), """
                {"_id": "d1", "title": "Wing lift", "text": "lift of a swept wing in a slipstream"}
                {"_id": "d2", "title": "Shear flow", "text": "simple shear flow past a flat plate"}

                {"_id": "d3", "text": "heat conduction in composite slabs"}
                """);
        Files.writeString(dir.resolve("queries.jsonl"), """
                {"_id": "q1", "text": "wing lift slipstream"}
                {"_id": "q2", "text": "heat conduction slabs"}
                {"_id": "q3", "text": "boundary layer"}
                """);
        Files.createDirectories(dir.resolve("qrels"));
        Files.writeString(dir.resolve("qrels/test.tsv"), """
                query-id\tcorpus-id\tscore
                q1\td1\t2
                q1\td2\t1
                q1\td3\t0
                q2\td3\t1
                """);
        Files.writeString(dir.resolve("qrels/dev.tsv"), """
                query-id\tcorpus-id\tscore
                q3\td2\t1
                """);
        return dir;
    }
}
