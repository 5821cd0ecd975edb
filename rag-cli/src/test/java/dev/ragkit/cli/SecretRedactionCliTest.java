package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 as a user meets it: {@code ragkit index} on a folder whose runbook holds a GitHub token, a Slack token
 * and a password line among its prose. The secrets are not in the index afterwards (neither in any chunk nor found
 * by a keyword search, nor quoted by {@code ask}) while the rest of the runbook is; the summary, the JSON report and
 * the log name the file and lines, never the secrets; {@code --no-redact-secrets} and {@code RAG_REDACT_SECRETS=false}
 * index the text as it is.
 */
final class SecretRedactionCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();
    /** Made at test time, in the documented formats: no token sits in the repository. */
    private String github;
    private String slack;
    private String password;

    private static String random(Random random, int n) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < n; i++) {
            s.append(BASE62.charAt(random.nextInt(BASE62.length())));
        }
        return s.toString();
    }

    @BeforeEach
    void runbookWithSecrets() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        Random random = new Random(2028);
        github = "ghp_" + random(random, 36);
        slack = "xoxb-" + (100_000_000_000L + random.nextInt(1_000_000)) + "-" + (1_000_000_000_000L
                + random.nextInt(1_000_000)) + "-" + random(random, 24);
        password = random(random, 8) + "7" + random(random, 5);
        CliRun.write(cwd, "docs/deploy.md", "# Deploy runbook\n\n"
                + "The nightly pipeline clones the monorepo with " + github + " and builds the release.\n"
                + "Release notes are posted to the deploys channel by the bot using " + slack + "\n"
                + "The reporting database password=" + password + " is rotated every quarter.\n"
                + "After the deploy, restart the reporting service and watch the error dashboard.\n"
                + "If the checks fail, roll back to the previous release tag.\n"
                + "Write down what went wrong in the deploy log.\n");
        CliRun.write(cwd, "docs/vpn.md", "# VPN\n\nThe VPN client connects to gateway two.\n");
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    private List<String> secrets() {
        return List.of(github, slack, password);
    }

    @Test
    void index_secretsInARunbook_areNotInTheIndexNorQuotedWhileTheRestIs() throws IOException {
        CliRun index = run("index", "docs");
        CliRun json = run("index", "docs", "--json", "--index", ".ragkit/second");

        assertThat(index.code()).as(index.err()).isZero();
        assertThat(index.out()).contains("Secrets: 3 line(s) redacted in 1 file(s)")
                .contains("  redacted deploy.md: lines 3, 4, 5 (github-token, password, slack-token)");
        JsonNode report = JSON.readTree(json.out());
        assertThat(report.path("filesRedacted")).hasSize(1);
        assertThat(report.path("filesRedacted").get(0).path("path").asText()).isEqualTo("deploy.md");
        assertThat(report.path("filesRedacted").get(0).path("lines").toString()).isEqualTo("[3,4,5]");
        for (String secret : secrets()) {
            assertThat(index.out() + index.err() + json.out() + json.err()).doesNotContain(secret);
        }

        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(cwd.resolve(".ragkit/index"))
                .readOnly(true).build()) {
            Scope all = Scope.unrestricted("default");
            StringBuilder stored = new StringBuilder();
            for (StoredDocument d : store.documents(all)) {
                stored.append(d).append('\n');
                store.chunks(all, d.id()).forEach(c -> stored.append(c.text()).append('\n'));
            }
            for (String secret : secrets()) {
                assertThat(stored.toString()).doesNotContain(secret);
                assertThat(store.search(SearchRequest.builder(all).text(secret).k(10).build())).as(secret).isEmpty();
            }
            assertThat(store.search(SearchRequest.builder(all).text("restart reporting service").k(10).build()))
                    .extracting(h -> h.chunk().text()).anySatisfy(text -> assertThat(text)
                            .contains("restart the reporting service")
                            .contains("clones the monorepo with [REDACTED: github-token] and builds"));
            assertThat(store.chunks(all, StoredDocument.idFor("default", "docs/deploy.md")))
                    .extracting(StoredChunk::endLine).contains(8);           // the file's last line
        }

        CliRun ask = run("ask", "How does the nightly pipeline clone the monorepo?", "--json");
        assertThat(ask.code()).as(ask.err()).isIn(RagkitCli.OK, RagkitCli.ROUTED);
        assertThat(ask.out()).contains("docs/deploy.md").contains("REDACTED");
        for (String secret : secrets()) {
            assertThat(ask.out() + ask.err()).doesNotContain(secret);
        }
    }

    @Test
    void index_redactionTurnedOffByFlagOrEnvironment_indexesTheSecretsAsTheyAre() throws IOException {
        CliRun flag = run("index", "docs", "--json", "--no-redact-secrets");
        env.put(CliContext.RAG_REDACT_SECRETS, "false");
        CliRun variable = run("index", "docs", "--json", "--index", ".ragkit/second");
        CliRun flagWins = run("index", "docs", "--json", "--index", ".ragkit/third", "--redact-secrets");
        env.put(CliContext.RAG_REDACT_SECRETS, "maybe");
        CliRun bad = run("index", "docs", "--index", ".ragkit/fourth");

        for (CliRun off : List.of(flag, variable)) {
            assertThat(off.code()).as(off.err()).isZero();
            assertThat(JSON.readTree(off.out()).path("filesRedacted")).isEmpty();
        }
        assertThat(JSON.readTree(flagWins.out()).path("filesRedacted")).hasSize(1);
        assertThat(bad.code()).isEqualTo(RagkitCli.USAGE);
        assertThat(bad.err()).contains("RAG_REDACT_SECRETS must be true or false, got 'maybe'")
                .doesNotContain("\tat ");
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(cwd.resolve(".ragkit/index"))
                .readOnly(true).build()) {
            Scope all = Scope.unrestricted("default");
            assertThat(store.chunks(all, StoredDocument.idFor("default", "docs/deploy.md")))
                    .anySatisfy(c -> assertThat(c.text()).contains(github));
        }
    }

    @Test
    void index_inItsOwnProcess_logsTheFileAndLinesOfTheRedactedSecretsButNeverTheSecrets() throws Exception {
        Path log = cwd.resolve("ragkit.log");
        try (CliChild child = CliChild.start(env, cwd, "--log-file", log.toString(), "index", "docs")) {
            assertThat(child.exitCode(180)).as(child.err()).isZero();
            // the console leaves the fact to the report on standard output; the details log names file and lines
            String details = Files.readString(log);
            assertThat(details).contains("deploy.md: redacted the secrets (github-token, password, slack-token) "
                    + "on 3 line(s)");
            for (String secret : secrets()) {
                assertThat(child.err()).doesNotContain(secret);
                assertThat(details).doesNotContain(secret);
            }
        }
    }
}
