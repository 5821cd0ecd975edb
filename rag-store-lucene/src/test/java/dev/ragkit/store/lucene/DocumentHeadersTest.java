package dev.ragkit.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterDirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Document headers are listed from their binary doc values, not from the stored fields where each header sits among
 * its chunks' texts and vectors; segments written before those doc values are read from the stored fields.
 */
final class DocumentHeadersTest {
    @TempDir
    Path tmp;

    private static StoredDocument full(String path) {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("team", "payments");
        metadata.put("reviewed", "2026-01-31");
        metadata.put("note", "ünïcode, \"quotes\" and a\nnewline");
        return StoredDocument.builder().tenant("acme").path(path).title("Title of " + path).docType("runbook")
                .promotionLevel(PromotionLevel.CRITICAL).date(LocalDate.of(2026, 3, 4)).accessTags("ops", "sre")
                .ownerTag("team-ops").links(List.of("a.md", "b/c.md")).metadata(metadata).charCount(123_456_789_012L)
                .build();
    }

    private static StoredDocument bare(String path) {
        return StoredDocument.builder().tenant("acme").path(path).build();
    }

    private static List<StoredChunk> chunks(StoredDocument d, int n) {
        List<StoredChunk> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new StoredChunk(d.id(), i, "text " + i + " of " + d.path(), new float[] {1, i, 2, 0.5f}, 4,
                    i + 1, i + 1, null, null));
        }
        return out;
    }

    @Test
    void headerBytes_roundTripEveryFieldOfAHeader() {
        for (StoredDocument d : List.of(full("docs/full.md"), bare("docs/bare.md"))) {
            Document header = LuceneFields.block(d, chunks(d, 1)).get(0);

            Document decoded = LuceneFields.headerDocument(LuceneFields.headerBytes(header));

            assertThat(LuceneFields.document(decoded)).isEqualTo(d).isEqualTo(LuceneFields.document(header));
        }
    }

    @Test
    void headerDocument_unknownVersionOrGarbage_isReportedAsDamage() {
        assertThatThrownBy(() -> LuceneFields.headerDocument(new BytesRef(new byte[] {9, 1, 2})))
                .isInstanceOf(StoreException.class).hasMessageContaining("document header")
                .hasMessageContaining("--rebuild");
        assertThatThrownBy(() -> LuceneFields.headerDocument(new BytesRef(new byte[] {1, 3, 'a', 'b', 'c', 7})))
                .isInstanceOf(StoreException.class).hasMessageContaining("document header");
    }

    @Test
    void headers_areReadWithoutTouchingTheStoredFields() throws IOException {
        Path dir = tmp.resolve("idx");
        List<StoredDocument> written = List.of(full("docs/a.md"), bare("docs/b.md"), full("docs/c.md"));
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).build()) {
            for (StoredDocument d : written) {
                store.upsert(d, chunks(d, 5));
            }
        }
        try (DirectoryReader reader = new NoStoredFields(DirectoryReader.open(FSDirectory.open(dir)))) {
            IndexSearcher searcher = new IndexSearcher(reader);
            LuceneFields.HeaderReader headers = new LuceneFields.HeaderReader(searcher);
            List<StoredDocument> read = new ArrayList<>();
            for (ScoreDoc sd : searcher.search(new TermQuery(new org.apache.lucene.index.Term(LuceneFields.KIND,
                    LuceneFields.DOC)), 10).scoreDocs) {
                read.add(headers.read(sd.doc));
            }
            assertThat(read).containsExactlyInAnyOrderElementsOf(written);
            // the reader really refuses stored fields: a chunk cannot be read through it
            ScoreDoc any = searcher.search(new MatchAllDocsQuery(), 1).scoreDocs[0];
            assertThatThrownBy(() -> searcher.storedFields().document(any.doc))
                    .isInstanceOf(AssertionError.class);
        }
    }

    @Test
    void documents_segmentWrittenWithoutHeaderDocValues_areReadFromTheStoredFields() throws IOException {
        Path dir = tmp.resolve("old");
        StoredDocument old = full("docs/old.md");
        StoredDocument fresh = full("docs/new.md");
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).build()) {
            store.upsert(fresh, chunks(fresh, 2));   // the index's identity and a segment with header doc values
        }
        // a document as RagKit wrote it before the header doc values: the same block without that field
        List<Document> block = LuceneFields.block(old, chunks(old, 3));
        block.get(0).removeField(LuceneFields.HEADER);
        Iterable<Map.Entry<String, String>> identity = readCommitData(dir);
        try (FSDirectory d = FSDirectory.open(dir); IndexWriter w = new IndexWriter(d, new IndexWriterConfig()
                .setOpenMode(IndexWriterConfig.OpenMode.APPEND).setCodec(VectorFormats.codec(VectorEncoding.FLOAT32,
                        VectorFormats.DEFAULT_MAX_CONN, VectorFormats.DEFAULT_BEAM_WIDTH, 1, null)))) {
            w.addDocuments(block);
            w.setLiveCommitData(identity);
            w.commit();
        }

        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            assertThat(store.documents(Scope.unrestricted("acme"))).containsExactly(fresh, old);
            assertThat(store.findByPaths(Scope.unrestricted("acme"), List.of("docs/old.md"))).containsExactly(old);
            assertThat(store.documentCounts()).containsExactly(Map.entry("acme", 2));
        }
    }

    private static Iterable<Map.Entry<String, String>> readCommitData(Path dir) throws IOException {
        try (FSDirectory d = FSDirectory.open(dir)) {
            return new LinkedHashMap<>(org.apache.lucene.index.SegmentInfos.readLatestCommit(d).getUserData())
                    .entrySet();
        }
    }

    /** A reader whose stored fields fail the test when read. */
    private static final class NoStoredFields extends FilterDirectoryReader {
        NoStoredFields(DirectoryReader in) throws IOException {
            super(in, new SubReaderWrapper() {
                @Override
                public LeafReader wrap(LeafReader reader) {
                    return new FilterLeafReader(reader) {
                        @Override
                        public StoredFields storedFields() {
                            return new StoredFields() {
                                @Override
                                public void document(int docID, org.apache.lucene.index.StoredFieldVisitor visitor) {
                                    throw new AssertionError("stored fields read for document " + docID);
                                }
                            };
                        }

                        @Override
                        public CacheHelper getCoreCacheHelper() {
                            return null;
                        }

                        @Override
                        public CacheHelper getReaderCacheHelper() {
                            return null;
                        }
                    };
                }
            });
        }

        @Override
        protected DirectoryReader doWrapDirectoryReader(DirectoryReader in) throws IOException {
            return new NoStoredFields(in);
        }

        @Override
        public CacheHelper getReaderCacheHelper() {
            return null;
        }
    }
}
