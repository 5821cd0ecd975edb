package dev.ragkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.grounding.Citation;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code ragkit.ingest.paths} into a persistent Lucene store at {@code ragkit.store.lucene.path}: indexed at startup
 * in the background, kept in step with the folder by the rescan (new, changed and deleted files), not embedded again
 * after a restart, and shown in the health details; bad folders fail startup naming the property.
 */
class RagKitIngestTest {
    @TempDir
    Path tmp;

    /** The toy embedder, counting the texts it embeds. */
    static final class CountingEmbedder extends HashedBagOfWordsEmbedder {
        final AtomicInteger texts = new AtomicInteger();

        CountingEmbedder() {
            super("word-hash-64", 64);
        }

        @Override
        public float[][] embed(List<String> batch) {
            texts.addAndGet(batch.size());
            return super.embed(batch);
        }
    }

    private ApplicationContextRunner runner(CountingEmbedder embedder, Path docs, Path index, String... more) {
        return runner(embedder, docs.toString(), index, more);
    }

    private ApplicationContextRunner runner(CountingEmbedder embedder, String docs, Path index, String... more) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withBean(Embedder.class, () -> embedder)
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.confidence-threshold=0",
                        "ragkit.ingest.paths=" + docs, "ragkit.ingest.interval=200ms",
                        "ragkit.store.lucene.path=" + index)
                .withPropertyValues(more);
    }

    /** Waits (at most 30 s) until the ingest state satisfies {@code condition}. */
    static RagKitIngest.State await(RagKitIngest ingest, Predicate<RagKitIngest.State> condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        RagKitIngest.State state = ingest.state();
        while (!condition.test(state)) {
            assertThat(System.nanoTime() - deadline).as("waited 30 s for the ingest; last state " + state)
                    .isNegative();
            Thread.sleep(50);
            state = ingest.state();
        }
        return state;
    }

    private static List<String> paths(DocumentStore store) {
        return store.documents(Scope.unrestricted("default")).stream().map(StoredDocument::path).sorted().toList();
    }

    @Test
    void folderIsIngestedAtStartupKeptInSyncAndNotEmbeddedAgainAfterARestart() throws Exception {
        Path docs = Files.createDirectories(tmp.resolve("docs"));
        Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days.\n");
        Files.writeString(docs.resolve("vacation.md"), "# Vacation\n\nVacation requests go through the portal.\n");
        Path index = tmp.resolve("index");
        CountingEmbedder embedder = new CountingEmbedder();

        runner(embedder, docs, index).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(DocumentStore.class)).isInstanceOf(LuceneDocumentStore.class);
            RagKitIngest ingest = context.getBean(RagKitIngest.class);
            RagKitIngest.State first = await(ingest, s -> s.passes() >= 1);
            assertThat(first.status()).isIn(RagKitIngest.Status.READY, RagKitIngest.Status.INDEXING);
            assertThat(first.documents()).isEqualTo(2);
            assertThat(first.chunks()).isGreaterThanOrEqualTo(2);
            assertThat(first.indexed()).isEqualTo(2);
            assertThat(paths(context.getBean(DocumentStore.class))).containsExactly("docs/keys.md",
                    "docs/vacation.md");

            // the health details show the index
            Health health = context.getBean(RagKitHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            @SuppressWarnings("unchecked")
            Map<String, Object> details = (Map<String, Object>) health.getDetails().get("index");
            assertThat(details).containsEntry("documents", 2).containsEntry("tenant", "default")
                    .containsEntry("failed", 0).containsKeys("lastIngest", "chunks", "status");
            assertThat(details.get("paths").toString()).contains(docs.toString());

            // changes reach the index at the next scan: one new, one changed, one deleted
            Files.writeString(docs.resolve("badges.md"), "# Badges\n\nLost badges are replaced at the front desk.\n");
            Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every thirty days now.\n");
            Files.delete(docs.resolve("vacation.md"));
            long before = ingest.state().passes();
            RagKitIngest.State synced = await(ingest, s -> s.passes() > before + 1
                    && s.documents() == 2 && paths(context.getBean(DocumentStore.class)).contains("docs/badges.md"));
            assertThat(synced.failedFiles()).isZero();
            assertThat(paths(context.getBean(DocumentStore.class))).containsExactly("docs/badges.md", "docs/keys.md");
            RagResponse r = context.getBean(RagPipeline.class).ask(RagRequest.of(
                    "Where are lost badges replaced?", Scope.of("default")));
            assertThat(r.citations()).extracting(Citation::path).contains("docs/badges.md");
            RagResponse changed = context.getBean(RagPipeline.class).ask(RagRequest.of(
                    "How often do API keys rotate?", Scope.of("default")));
            assertThat(changed.answer()).contains("thirty days").doesNotContain("ninety");
        });

        int embeddedBeforeRestart = embedder.texts.get();
        CountingEmbedder again = new CountingEmbedder();
        runner(again, docs, index).run(context -> {
            assertThat(context).hasNotFailed();
            RagKitIngest.State first = await(context.getBean(RagKitIngest.class), s -> s.passes() >= 1);
            assertThat(first.documents()).isEqualTo(2);
            assertThat(first.unchanged()).isEqualTo(2);
            assertThat(first.indexed()).isZero();
            assertThat(again.texts).as("nothing embedded again after a restart").hasValue(0);
        });
        assertThat(embeddedBeforeRestart).isPositive();
    }

    @Test
    void aFolderThatFailsIsReportedAndTheOthersGoOn() throws Exception {
        Path docs = Files.createDirectories(tmp.resolve("docs"));
        Path notes = Files.createDirectories(tmp.resolve("notes"));
        Files.writeString(docs.resolve("keys.md"), "# API keys\n\nAPI keys rotate every ninety days.\n");
        Files.writeString(notes.resolve("lunch.md"), "# Lunch\n\nThe cafeteria serves lunch until two.\n");
        CountingEmbedder embedder = new CountingEmbedder();

        runner(embedder, docs + "," + notes, tmp.resolve("index")).run(context -> {
            assertThat(context).hasNotFailed();
            RagKitIngest ingest = context.getBean(RagKitIngest.class);
            assertThat(await(ingest, s -> s.passes() >= 1).documents()).isEqualTo(2);

            Files.delete(notes.resolve("lunch.md"));
            Files.delete(notes);
            long before = ingest.state().passes();
            RagKitIngest.State failed = await(ingest, s -> s.passes() > before && s.failedFiles() > 0);
            assertThat(failed.failures()).singleElement().satisfies(f -> assertThat(f).startsWith(notes.toString()));
            assertThat(paths(context.getBean(DocumentStore.class))).contains("docs/keys.md");
            assertThat(context.getBean(RagKitHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
        });
    }

    @Test
    void badFoldersFailStartupNamingTheProperty() throws Exception {
        CountingEmbedder embedder = new CountingEmbedder();
        Path missing = tmp.resolve("no-such-folder");
        runner(embedder, missing, tmp.resolve("index")).run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("ragkit.ingest.paths[0]").hasStackTraceContaining(
                        "is not a folder"));

        Path a = Files.createDirectories(tmp.resolve("a/docs"));
        Path b = Files.createDirectories(tmp.resolve("b/docs"));
        runner(embedder, a + "," + b, tmp.resolve("index2")).run(context -> assertThat(context)
                .hasFailed().getFailure().hasStackTraceContaining("ragkit.ingest.paths[1]")
                .hasStackTraceContaining("the same name, 'docs'"));
    }

    @Test
    void withoutIngestPaths_nothingRunsAndTheStoreIsInMemory() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withBean(Embedder.class, CountingEmbedder::new)
                .withPropertyValues("ragkit.backend.provider=extractive")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(RagKitIngest.class).state().status())
                            .isEqualTo(RagKitIngest.Status.OFF);
                    assertThat(context.getBean(RagKitIngest.class).isRunning()).isFalse();
                    assertThat(context.getBean(DocumentStore.class).getClass().getSimpleName())
                            .isEqualTo("InMemoryDocumentStore");
                });
    }

    @Test
    void aLucenePathWithAnotherStoreProviderFailsStartup() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withBean(Embedder.class, CountingEmbedder::new)
                .withPropertyValues("ragkit.backend.provider=extractive", "ragkit.store.provider=in-memory",
                        "ragkit.store.lucene.path=" + tmp.resolve("index"))
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("ragkit.store.lucene.path is set but ragkit.store.provider is "
                                + "'in-memory'"));
    }
}
