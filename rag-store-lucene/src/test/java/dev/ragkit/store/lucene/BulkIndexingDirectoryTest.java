package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A store opened for bulk indexing reads its files without memory maps, except a merge's temporary vectors. */
final class BulkIndexingDirectoryTest {
    @TempDir
    Path tmp;

    @Test
    void segmentFilesAreReadBuffered_aMergesTemporaryFilesMapped() throws IOException {
        try (BulkIndexingDirectory dir = new BulkIndexingDirectory(tmp)) {
            String temp;
            try (IndexOutput out = dir.createOutput("_0.vec", IOContext.DEFAULT);
                    IndexOutput tempOut = dir.createTempOutput("_1_Lucene99_0.veq", "temp", IOContext.DEFAULT)) {
                out.writeLong(42);
                tempOut.writeLong(7);
                temp = tempOut.getName();
            }
            assertThat(temp).endsWith(BulkIndexingDirectory.TEMP_EXTENSION);
            try (IndexInput segment = dir.openInput("_0.vec", IOContext.DEFAULT);
                    IndexInput merging = dir.openInput(temp, IOContext.DEFAULT)) {
                assertThat(segment.readLong()).isEqualTo(42);
                assertThat(merging.readLong()).isEqualTo(7);
                assertThat(segment.getClass().getName()).contains("NIOFS");
                assertThat(merging.getClass().getName()).doesNotContain("NIOFS");
            }
            dir.deleteFile(temp);
            assertThat(Files.exists(tmp.resolve(temp))).isFalse();
        }
    }

    @Test
    void aStoreWrittenInBulk_mergesAndFindsWhatAServingStoreFinds() throws IOException {
        Scope scope = Scope.of("t");
        Path index = tmp.resolve("bulk");
        float[][] vectors;
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(index).bulkIndexing(true)
                .commitMode(LuceneDocumentStore.CommitMode.BATCHED).build()) {
            vectors = LuceneVectorSettingsTest.loadInSegments(store, 500, 11);   // five segments
            store.compact();                                                    // merged into one
            assertThat(nearest(store, scope, vectors)).containsExactly("chunk 0", "chunk 250", "chunk 499");
            assertThat(store.documents(scope)).hasSize(vectors.length);
        }
        try (LuceneDocumentStore serving = LuceneDocumentStore.builder().directory(index).readOnly(true).build()) {
            assertThat(nearest(serving, scope, vectors)).containsExactly("chunk 0", "chunk 250", "chunk 499");
        }
        try (var files = Files.list(index)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .noneMatch(name -> name.endsWith(BulkIndexingDirectory.TEMP_EXTENSION));
        }
    }

    private static List<String> nearest(LuceneDocumentStore store, Scope scope, float[][] vectors) {
        return java.util.stream.IntStream.of(0, 250, 499).mapToObj(q -> {
            List<SearchHit> hits = store.search(SearchRequest.builder(scope).vector(vectors[q]).k(1).build());
            return hits.get(0).chunk().text();
        }).toList();
    }
}
