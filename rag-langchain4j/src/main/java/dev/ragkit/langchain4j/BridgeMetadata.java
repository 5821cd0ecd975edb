package dev.ragkit.langchain4j;

import static dev.ragkit.langchain4j.LangChain4jDocumentStore.*;

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.store.embedding.filter.Filter;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A document's {@link dev.ragkit.store.StoredDocument#metadata()} as LangChain4j segment metadata, and a RagKit
 * {@link MetadataFilter} as a LangChain4j {@link Filter} over it. Each metadata entry {@code key = value} is written
 * as {@code ragkit_meta_<key>} (the text), and, when the value reads as a number or an ISO-8601 date,
 * {@code ragkit_num_<key>} (a {@code double}) or {@code ragkit_date_<key>} (epoch milliseconds, a {@code long}); keys
 * are escaped like tag keys. Every filter kind maps: equals and in onto {@code isEqualTo}/{@code isIn} of the text,
 * ranges onto {@code isGreaterThan(OrEqualTo)}/{@code isLessThan(OrEqualTo)} of the number or date key, and/or/not
 * onto {@link Filter#and}, {@link Filter#or}, {@link Filter#not}. A LangChain4j store whose filter support lacks one
 * of these fails the search with {@link UnsupportedOperationException} naming the filter.
 */
final class BridgeMetadata {
    static final String META = LangChain4jDocumentStore.KEY_PREFIX + "meta_";
    static final String NUM = LangChain4jDocumentStore.KEY_PREFIX + "num_";
    static final String DATE = LangChain4jDocumentStore.KEY_PREFIX + "date_";

    private BridgeMetadata() {
    }

    static void write(Metadata m, Map<String, String> metadata) {
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            m.put(key(META, e.getKey()), e.getValue());
            OptionalDouble n = MetadataFilter.number(e.getValue());
            if (n.isPresent()) {
                m.put(key(NUM, e.getKey()), n.getAsDouble());
            }
            Optional<Instant> d = MetadataFilter.date(e.getValue());
            d.ifPresent(instant -> m.put(key(DATE, e.getKey()), instant.toEpochMilli()));
        }
    }

    static Filter filter(MetadataFilter f) {
        if (f instanceof MetadataFilter.Equals eq) {
            return metadataKey(key(META, eq.key())).isEqualTo(eq.value());
        }
        if (f instanceof MetadataFilter.In in) {
            return metadataKey(key(META, in.key())).isIn(in.values());
        }
        if (f instanceof MetadataFilter.NumberRange r) {
            return range(key(NUM, r.key()), r.lower(), r.lowerInclusive(), r.upper(), r.upperInclusive());
        }
        if (f instanceof MetadataFilter.DateRange r) {
            return range(key(DATE, r.key()), r.lower() == null ? null : r.lower().toEpochMilli(), r.lowerInclusive(),
                    r.upper() == null ? null : r.upper().toEpochMilli(), r.upperInclusive());
        }
        if (f instanceof MetadataFilter.And and) {
            return and.operands().stream().map(BridgeMetadata::filter).reduce((a, b) -> Filter.and(a, b)).orElseThrow();
        }
        if (f instanceof MetadataFilter.Or or) {
            return or.operands().stream().map(BridgeMetadata::filter).reduce((a, b) -> Filter.or(a, b)).orElseThrow();
        }
        return Filter.not(filter(((MetadataFilter.Not) f).operand()));
    }

    private static Filter range(String key, @org.jspecify.annotations.Nullable Number lower, boolean lowerInclusive,
            @org.jspecify.annotations.Nullable Number upper, boolean upperInclusive) {
        Filter lo = lower == null ? null : lowerInclusive ? greaterOrEqual(key, lower) : greater(key, lower);
        Filter hi = upper == null ? null : upperInclusive ? lessOrEqual(key, upper) : less(key, upper);
        return lo == null ? hi : hi == null ? lo : Filter.and(lo, hi);
    }

    private static Filter greater(String key, Number n) {
        return n instanceof Long l ? metadataKey(key).isGreaterThan(l) : metadataKey(key).isGreaterThan(n.doubleValue());
    }

    private static Filter greaterOrEqual(String key, Number n) {
        return n instanceof Long l ? metadataKey(key).isGreaterThanOrEqualTo(l)
                : metadataKey(key).isGreaterThanOrEqualTo(n.doubleValue());
    }

    private static Filter less(String key, Number n) {
        return n instanceof Long l ? metadataKey(key).isLessThan(l) : metadataKey(key).isLessThan(n.doubleValue());
    }

    private static Filter lessOrEqual(String key, Number n) {
        return n instanceof Long l ? metadataKey(key).isLessThanOrEqualTo(l)
                : metadataKey(key).isLessThanOrEqualTo(n.doubleValue());
    }

    /** {@code prefix} and the key with letters, digits and {@code -} kept, {@code _} doubled, others as hex. */
    static String key(String prefix, String key) {
        StringBuilder out = new StringBuilder(prefix);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 128 && (Character.isLetterOrDigit(c) || c == '-')) {
                out.append(c);
            } else if (c == '_') {
                out.append("__");
            } else {
                out.append('_').append(String.format(Locale.ROOT, "%04x", (int) c));
            }
        }
        return out.toString();
    }

    /** The metadata of one chunk's segment: the chunk's fields and, denormalised, its document's. */
    static Metadata segment(StoredDocument document, StoredChunk chunk, String version) {
        Metadata m = new Metadata();
        m.put(TENANT, document.tenant());
        m.put(DOCUMENT_ID, document.id());
        m.put(VERSION, version);
        m.put(CHUNK_INDEX, chunk.index());
        m.put(SOURCE_ID, chunk.sourceId());
        m.put(PATH, document.path());
        m.put(TITLE, document.title());
        if (document.docType() != null) {
            m.put(DOC_TYPE, document.docType());
        }
        m.put(PROMOTION, document.promotionLevel().ordinal());
        if (document.ownerTag() != null) {
            m.put(OWNER_TAG, document.ownerTag());
        }
        if (document.date() != null) {
            m.put(LangChain4jDocumentStore.DATE, document.date().toString());
        }
        m.put(START_LINE, chunk.startLine());
        m.put(END_LINE, chunk.endLine());
        m.put(TOKEN_COUNT, chunk.tokenCount());
        if (chunk.section() != null) {
            m.put(SECTION, chunk.section());
        }
        if (chunk.page() != null) {
            m.put(PAGE, chunk.page().intValue());
        }
        write(m, document.metadata());
        m.put(TAGGED, document.accessTags().isEmpty() ? 0 : 1);
        for (String tag : document.accessTags()) {
            m.put(LangChain4jDocumentStore.tagKey(tag), 1);
        }
        return m;
    }

    /** The chunk a segment holds, read back from its metadata. */
    static StoredChunk chunkOf(EmbeddingMatch<TextSegment> match, String documentId, float @Nullable [] vector) {
        TextSegment segment = Objects.requireNonNull(match.embedded());
        Metadata m = segment.metadata();
        Integer index = m.getInteger(CHUNK_INDEX);
        Integer start = m.getInteger(START_LINE);
        Integer end = m.getInteger(END_LINE);
        Integer tokens = m.getInteger(TOKEN_COUNT);
        if (index == null || start == null || end == null || tokens == null) {
            throw new StoreException("segment " + match.embeddingId() + " lacks the chunk fields the bridge writes"
                    + " (" + CHUNK_INDEX + ", " + START_LINE + ", " + END_LINE + ", " + TOKEN_COUNT + ")", false);
        }
        return new StoredChunk(documentId, index, segment.text(), vector, tokens, start, end,
                m.getString(SECTION), m.getInteger(PAGE));
    }
}
