package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.store.Scope;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit index} killed with {@code kill -9} in the middle of a run, in a child JVM: the documents committed
 * before the kill stay (the run commits as it goes, {@code --commit-every}), and the next run indexes only the rest.
 */
final class IndexKillResumeCliTest {
    private static final int FILES = 240;
    private static final Pattern PROGRESS = Pattern.compile("\\] (\\d+)/" + FILES + " files");

    @TempDir
    Path cwd;

    @Test
    void index_killedMidRun_keepsTheCommittedDocumentsAndTheNextRunIndexesOnlyTheRest() throws Exception {
        for (int i = 0; i < FILES; i++) {
            StringBuilder text = new StringBuilder("# Page " + i + "\n\n");
            for (int line = 0; line < 6; line++) {
                text.append("Page ").append(i).append(" line ").append(line).append(" says who owns topic ")
                        .append(i * 7 + line).append(", what it costs and where to ask about it.\n\n");
            }
            CliRun.write(cwd, String.format("site/p%03d.md", i), text.toString());
        }
        Map<String, String> env = Map.of("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        String[] args = {"index", "site", "--index", "work/index", "--commit-every", "0", "--chunk-tokens", "32"};

        int doneAtKill;
        try (CliChild child = CliChild.start(env, cwd, args)) {
            // the plain progress lines come at each tenth of the files; kill after the third
            assertThat(child.awaitErr("] " + (FILES * 3 / 10) + "/" + FILES + " files", 180))
                    .as("progress before the kill:\n" + child.err()).isTrue();
            assertThat(child.alive()).as("still indexing when killed").isTrue();
            child.kill();
            doneAtKill = lastDone(child.err());
        }
        assertThat(doneAtKill).isBetween(FILES * 3 / 10, FILES - 1);

        int committed;
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(cwd.resolve("work/index"))
                .readOnly(true).build()) {
            committed = store.documents(Scope.unrestricted("default")).size();
        }
        // every batch is committed after it is stored: at most the batch in progress is lost
        assertThat(committed).as("documents committed before the kill").isPositive().isLessThan(FILES)
                .isGreaterThanOrEqualTo(doneAtKill - 64);

        CliRun again = CliChild.run(env, cwd, 300, "index", "site", "--index", "work/index", "--chunk-tokens", "32",
                "--json");
        assertThat(again.code()).as(again.err()).isZero();
        JsonNode report = new ObjectMapper().readTree(again.out());
        assertThat(report.get("filesUnchanged").asInt()).isEqualTo(committed);
        assertThat(report.get("filesIndexed").asInt()).isEqualTo(FILES - committed);
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(cwd.resolve("work/index"))
                .readOnly(true).build()) {
            assertThat(store.documents(Scope.unrestricted("default"))).hasSize(FILES);
        }
    }

    private static int lastDone(String err) {
        int done = -1;
        Matcher m = PROGRESS.matcher(err);
        while (m.find()) {
            done = Integer.parseInt(m.group(1));
        }
        return done;
    }
}
