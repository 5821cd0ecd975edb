package dev.ragkit.store.lucene;

import dev.ragkit.store.MetadataTerms;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.ByteArrayDataInput;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The index layout: one Lucene document per {@link StoredDocument} (kind {@code doc}, the header) and one per
 * {@link StoredChunk} (kind {@code chunk}), written together as one block under the document's {@link #KEY} term so
 * that {@code IndexWriter.updateDocuments} replaces a document and all its chunks atomically. Every chunk carries
 * the document fields that searches filter on (tenant, tags, type, promotion, metadata terms), so filters are plain
 * filter clauses of the k-NN and BM25 queries.
 */
final class LuceneFields {
    static final String KEY = "key";
    static final String KIND = "kind";
    static final String DOC = "doc";
    static final String CHUNK = "chunk";
    static final String TENANT = "tenant";
    static final String DOC_ID = "doc_id";
    static final String CHUNK_KEY = "chunk_key";
    static final String PATH = "path";
    static final String TITLE = "title";
    static final String DOC_TYPE = "doc_type";
    static final String PROMOTION = "promotion";
    static final String DATE = "date";
    static final String TAG = "tag";
    static final String TAGGED = "tagged";
    static final String OWNER_TAG = "owner_tag";
    static final String LINK = "link";
    static final String META_PAIR = "meta_pair";
    static final String META_KV = "meta_kv";
    static final String META_NUM = "meta_num";
    static final String META_DATE = "meta_date";
    static final String CHAR_COUNT = "char_count";
    /**
     * A header's stored fields once more, as binary doc values: listing documents reads these (a few hundred bytes
     * each, packed together) instead of the stored fields, where each header sits among its chunks' texts and
     * vectors and reading it decompresses theirs too (100,000 headers among 1.2 million chunks: the whole 1.3 GB of
     * stored fields read and mapped). Segments written before it are read from the stored fields.
     */
    static final String HEADER = "header";
    /** The version of the {@link #HEADER} encoding. */
    private static final byte HEADER_VERSION = 1;
    private static final byte STRING = 0;
    private static final byte INT = 1;
    private static final byte LONG = 2;
    static final String INDEX = "chunk_index";
    static final String TEXT = "text";
    static final String VECTOR = "vector";
    static final String RAW_VECTOR = "raw_vector";
    static final String TOKEN_COUNT = "token_count";
    static final String START_LINE = "start_line";
    static final String END_LINE = "end_line";
    static final String SECTION = "section";
    static final String PAGE = "page";

    /** Vectors are normalised at write and query time, so the dot product is the cosine. */
    static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

    private LuceneFields() {
    }

    /** The term that names one document (and all its chunks) in one tenant. */
    static Term key(String tenant, String documentId) {
        return new Term(KEY, tenant.length() + ":" + tenant + ":" + documentId);
    }

    /** The header and chunk documents of one stored document, as one block. */
    static List<Document> block(StoredDocument d, List<StoredChunk> chunks) {
        List<Document> block = new ArrayList<>(chunks.size() + 1);
        Document header = new Document();
        common(header, d, DOC);
        header.add(new StringField(PATH, d.path(), Field.Store.YES));
        header.add(new StoredField(TITLE, d.title()));
        if (d.date() != null) {
            header.add(new StoredField(DATE, d.date().toString()));
        }
        if (d.ownerTag() != null) {
            header.add(new StoredField(OWNER_TAG, d.ownerTag()));
        }
        for (String link : d.links()) {
            header.add(new StoredField(LINK, link));
        }
        for (Map.Entry<String, String> e : d.metadata().entrySet()) {
            header.add(new StoredField(META_PAIR, e.getKey()));
            header.add(new StoredField(META_PAIR, e.getValue()));
        }
        header.add(new StoredField(CHAR_COUNT, d.charCount()));
        header.add(new BinaryDocValuesField(HEADER, headerBytes(header)));
        block.add(header);
        for (StoredChunk c : chunks) {
            Document chunk = new Document();
            common(chunk, d, CHUNK);
            float[] raw = c.embedding();
            if (raw == null) {
                throw new IllegalArgumentException("chunk " + c.sourceId() + " has no embedding");
            }
            chunk.add(new StringField(CHUNK_KEY, key(d.tenant(), d.id()).text() + ":" + c.index(), Field.Store.NO));
            chunk.add(new StoredField(INDEX, c.index()));
            chunk.add(new TextField(TEXT, c.text(), Field.Store.YES));
            chunk.add(new KnnFloatVectorField(VECTOR, normalized(raw), SIMILARITY));
            chunk.add(new StoredField(RAW_VECTOR, bytes(raw)));
            chunk.add(new StoredField(TOKEN_COUNT, c.tokenCount()));
            chunk.add(new StoredField(START_LINE, c.startLine()));
            chunk.add(new StoredField(END_LINE, c.endLine()));
            if (c.section() != null) {
                chunk.add(new StoredField(SECTION, c.section()));
            }
            if (c.page() != null) {
                chunk.add(new StoredField(PAGE, c.page()));
            }
            block.add(chunk);
        }
        return block;
    }

    /** The fields that both kinds carry: identity, and everything a filter looks at. */
    private static void common(Document doc, StoredDocument d, String kind) {
        doc.add(new StringField(KEY, key(d.tenant(), d.id()).text(), Field.Store.NO));
        doc.add(new StringField(KIND, kind, Field.Store.NO));
        doc.add(new StringField(TENANT, d.tenant(), Field.Store.YES));
        doc.add(new StringField(DOC_ID, d.id(), Field.Store.YES));
        if (d.docType() != null) {
            doc.add(new StringField(DOC_TYPE, d.docType(), Field.Store.YES));
        }
        doc.add(new IntPoint(PROMOTION, d.promotionLevel().ordinal()));
        doc.add(new StoredField(PROMOTION, d.promotionLevel().ordinal()));
        for (String tag : d.accessTags()) {
            doc.add(new StringField(TAG, tag, Field.Store.YES));
        }
        doc.add(new StringField(TAGGED, d.accessTags().isEmpty() ? "0" : "1", Field.Store.NO));
        MetadataTerms.Terms terms = MetadataTerms.of(d.metadata());
        terms.keyValues().forEach(t -> doc.add(new StringField(META_KV, t, Field.Store.NO)));
        terms.numbers().forEach(t -> doc.add(new StringField(META_NUM, t, Field.Store.NO)));
        terms.dates().forEach(t -> doc.add(new StringField(META_DATE, t, Field.Store.NO)));
    }

    /** @return the stored fields of a header document, in order, as {@link #HEADER} holds them */
    static BytesRef headerBytes(Document header) {
        ByteBuffersDataOutput out = new ByteBuffersDataOutput();
        try {
            out.writeByte(HEADER_VERSION);
            for (IndexableField f : header) {
                if (!f.fieldType().stored()) {
                    continue;
                }
                out.writeString(f.name());
                Number n = f.numericValue();
                if (n instanceof Integer i) {
                    out.writeByte(INT);
                    out.writeZInt(i);
                } else if (n instanceof Long l) {
                    out.writeByte(LONG);
                    out.writeZLong(l);
                } else if (n == null && f.stringValue() != null) {
                    out.writeByte(STRING);
                    out.writeString(f.stringValue());
                } else {
                    throw new IllegalStateException("header field " + f.name() + " is neither text nor a whole number");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);              // writing to memory
        }
        return new BytesRef(out.toArrayCopy());
    }

    /** @return the stored fields that {@link #headerBytes} encoded, as a document {@link #document} reads */
    static Document headerDocument(BytesRef bytes) {
        ByteArrayDataInput in = new ByteArrayDataInput(bytes.bytes, bytes.offset, bytes.length);
        if (bytes.length == 0 || in.readByte() != HEADER_VERSION) {
            throw damaged("a document header", new IllegalArgumentException("header doc values of an unknown version"));
        }
        Document doc = new Document();
        try {
            while (!in.eof()) {
                String name = in.readString();
                byte type = in.readByte();
                doc.add(switch (type) {
                    case STRING -> new StoredField(name, in.readString());
                    case INT -> new StoredField(name, in.readZInt());
                    case LONG -> new StoredField(name, in.readZLong());
                    default -> throw new IllegalArgumentException("header field " + name + " of type " + type);
                });
            }
        } catch (IOException | RuntimeException e) {
            throw damaged("a document header", e);
        }
        return doc;
    }

    /**
     * Reads header documents by index-wide document number, from {@link #HEADER} where the segment has it, else
     * from the stored fields. Within a segment, numbers must come in increasing order (doc values read forwards).
     */
    static final class HeaderReader {
        private final List<LeafReaderContext> leaves;
        private final StoredFields stored;
        private int leafIndex = -1;
        private @Nullable BinaryDocValues values;

        HeaderReader(IndexSearcher searcher) throws IOException {
            this(searcher, searcher.storedFields());
        }

        /** @param stored the searcher's stored fields, for a caller that already has them */
        HeaderReader(IndexSearcher searcher, StoredFields stored) {
            this.leaves = searcher.getIndexReader().leaves();
            this.stored = stored;
        }

        StoredDocument read(int doc) throws IOException {
            int li = ReaderUtil.subIndex(doc, leaves);
            LeafReaderContext leaf = leaves.get(li);
            if (li != leafIndex) {
                leafIndex = li;
                values = leaf.reader().getBinaryDocValues(HEADER);
            }
            BinaryDocValues v = values;
            if (v != null && v.advanceExact(doc - leaf.docBase)) {
                return document(headerDocument(v.binaryValue()));
            }
            return document(stored.document(doc));
        }
    }

    /** Reads a header document back. */
    static StoredDocument document(Document doc) {
        try {
            Map<String, String> metadata = new LinkedHashMap<>();
            String[] pairs = doc.getValues(META_PAIR);
            for (int i = 0; i + 1 < pairs.length; i += 2) {
                metadata.put(pairs[i], pairs[i + 1]);
            }
            String date = doc.get(DATE);
            List<String> tags = List.of(doc.getValues(TAG));
            return new StoredDocument(required(doc, DOC_ID), required(doc, PATH), required(doc, TITLE),
                    doc.get(DOC_TYPE), PromotionLevel.values()[number(doc, PROMOTION).intValue()],
                    date == null ? null : LocalDate.parse(date), new java.util.TreeSet<>(tags), doc.get(OWNER_TAG),
                    List.of(doc.getValues(LINK)), metadata, number(doc, CHAR_COUNT).longValue(), required(doc, TENANT));
        } catch (IllegalArgumentException | IndexOutOfBoundsException | DateTimeParseException e) {
            throw damaged("a document header", e);
        }
    }

    /** Reads a chunk document back, with its exact original vector or without one. */
    static StoredChunk chunk(Document doc, boolean withVector) {
        try {
            float[] vector = null;
            if (withVector) {
                BytesRef raw = doc.getBinaryValue(RAW_VECTOR);
                if (raw == null) {
                    throw new IllegalArgumentException("no stored vector");
                }
                vector = floats(raw);
            }
            Number page = doc.getField(PAGE) == null ? null : number(doc, PAGE);
            return new StoredChunk(required(doc, DOC_ID), number(doc, INDEX).intValue(), required(doc, TEXT), vector,
                    number(doc, TOKEN_COUNT).intValue(), number(doc, START_LINE).intValue(),
                    number(doc, END_LINE).intValue(), doc.get(SECTION), page == null ? null : page.intValue());
        } catch (IllegalArgumentException e) {
            throw damaged("a chunk", e);
        }
    }

    /** The stored original vector of a chunk document. */
    static float[] rawVector(Document doc) {
        BytesRef raw = doc.getBinaryValue(RAW_VECTOR);
        if (raw == null) {
            throw damaged("a chunk", new IllegalArgumentException("no stored vector"));
        }
        return floats(raw);
    }

    private static String required(Document doc, String field) {
        String value = doc.get(field);
        if (value == null) {
            throw new IllegalArgumentException("stored field '" + field + "' is missing");
        }
        return value;
    }

    private static Number number(Document doc, String field) {
        IndexableField f = doc.getField(field);
        Number n = f == null ? null : f.numericValue();
        if (n == null) {
            throw new IllegalArgumentException("stored field '" + field + "' is missing");
        }
        return n;
    }

    private static StoreException damaged(String what, Exception e) {
        return new StoreException("the index holds " + what + " this version cannot read (" + e.getMessage()
                + "); it was written by another program or is damaged: rebuild it (ragkit index --rebuild, or"
                + " delete the index directory and index again)", e, false);
    }

    static float[] normalized(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        double inv = 1 / Math.sqrt(norm);
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] * inv);
        }
        return out;
    }

    static byte[] bytes(float[] v) {
        ByteBuffer buffer = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asFloatBuffer().put(v);
        return buffer.array();
    }

    static float[] floats(BytesRef bytes) {
        if (bytes.length % Float.BYTES != 0) {
            throw new IllegalArgumentException("a stored vector of " + bytes.length + " bytes");
        }
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes.bytes, bytes.offset, bytes.length).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    /** The textbook cosine in double precision, clamped to [0, 1]. */
    static double similarity(float[] query, float @Nullable [] vector) {
        if (vector == null || vector.length != query.length) {
            return 0.0;
        }
        double dot = 0;
        double a = 0;
        double b = 0;
        for (int i = 0; i < query.length; i++) {
            dot += (double) query[i] * vector[i];
            a += (double) query[i] * query[i];
            b += (double) vector[i] * vector[i];
        }
        double cosine = dot / Math.sqrt(a * b);
        return Math.max(0.0, Math.min(1.0, cosine));
    }
}
