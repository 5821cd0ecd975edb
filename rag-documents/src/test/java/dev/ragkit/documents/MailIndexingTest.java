package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * E-mails through the indexer into the in-memory store: their from/to/date reach metadata filters, an answer from
 * an attachment keeps the attachment's name and page, hostile messages fail with their reason while the run goes
 * on, and an unchanged message is not read again.
 */
final class MailIndexingTest {
    @TempDir
    Path root;

    private final InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
    private final HashedBagOfWordsEmbedder embedder = new HashedBagOfWordsEmbedder("hash-64", 64);

    @Test
    void index_emails_metadataFiltersOnFromAndDateAndHostileMailIsReported() throws Exception {
        Files.write(root.resolve("thread.eml"), Fixtures.bytes("thread.eml"));
        Files.write(root.resolve("newsletter.eml"), Fixtures.bytes("newsletter.eml"));
        Files.write(root.resolve("many.eml"), MailBookScanFixtures.manyAttachments(3000));
        Files.write(root.resolve("deep.eml"), MailBookScanFixtures.nestedMessages(10));

        IndexReport report = indexer().index(root);

        assertThat(report.filesIndexed()).isEqualTo(2);
        Map<String, String> failed = new TreeMap<>();
        report.filesFailed().forEach(f -> failed.put(f.path(), f.message()));
        assertThat(failed).containsOnlyKeys("deep.eml", "many.eml");
        assertThat(failed.get("many.eml")).contains("more than 1000 MIME parts");
        assertThat(failed.get("deep.eml")).contains("attached messages nest more than 3 deep");

        List<SearchHit> fromAlice = search("travel budget canteen", "from = alice@example.com");
        assertThat(fromAlice).isNotEmpty().allMatch(hit -> hit.document().path().equals("thread.eml"));
        List<SearchHit> may2 = search("travel budget canteen", "date < 2024-05-10");
        assertThat(may2).isNotEmpty().allMatch(hit -> hit.document().path().equals("newsletter.eml"));
        assertThat(search("canteen", "from = alice@example.com"))
                .noneMatch(hit -> hit.document().path().equals("newsletter.eml"));

        SearchHit travel = search("Q3 travel budget euros", "to in (bob@example.com, \"bob@example.com, "
                + "carol@example.com\")").get(0);
        assertThat(travel.chunk().text()).contains("The Q3 travel budget is 42,000 euros.");
        assertThat(travel.chunk().section()).isEqualTo("report.pdf");
        assertThat(travel.chunk().page()).isEqualTo(3);

        IndexReport again = indexer().index(root);
        assertThat(again.filesIndexed()).isZero();
        assertThat(again.filesUnchanged()).isEqualTo(2);
    }

    @Test
    void index_appleMailExport_readsTheMboxFileInsideTheMboxFolder() throws Exception {
        // Apple Mail exports a mailbox as a folder Inbox.mbox holding a file named mbox (and a table of contents).
        Path folder = Files.createDirectories(root.resolve("Inbox.mbox"));
        Files.writeString(folder.resolve("mbox"), "From bob@example.com Sat May 18 10:00:00 2024\n"
                + "Subject: Lunch\nFrom: bob@example.com\n\nLunch is served at noon in the atrium.\n");
        Files.writeString(root.resolve("mbox"), "not a mailbox: a text file that happens to be called mbox\n");

        IndexReport report = indexer().index(root);

        assertThat(report.filesFailed()).isEmpty();
        assertThat(report.types().get("email").indexed()).isEqualTo(1);
        assertThat(report.types().get("text").indexed()).isEqualTo(1);      // an mbox outside a .mbox folder
        SearchHit lunch = store.search(SearchRequest.builder(Scope.of("t")).vector(embedder.embedQueries(
                List.of("lunch atrium"))[0]).text("lunch atrium").k(5).build()).get(0);
        assertThat(lunch.document().path()).isEqualTo("Inbox.mbox/mbox");
        assertThat(lunch.document().title()).isEqualTo("Inbox");
        assertThat(lunch.chunk().section()).isEqualTo("Lunch");
    }

    private Indexer indexer() {
        return Indexer.builder().store(store).embedder(embedder).tenant("t").build();
    }

    private List<SearchHit> search(String text, String filter) {
        return store.search(SearchRequest.builder(Scope.of("t")).vector(embedder.embedQueries(List.of(text))[0])
                .text(text).k(20).metadataFilter(filter).build());
    }
}
