package dev.ragkit.store.solr;

import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * How stored documents and chunks are written to Solr documents and read back: the field layout the config set
 * declares ({@link SolrConfigSet}), the ids, the vector literal of k-NN queries and the exact cosine.
 */
final class SolrFields {
    private SolrFields() {
    }

    static SolrInputDocument header(StoredDocument d, long version) {
        SolrInputDocument s = base(d, "doc", version);
        s.addField("id", solrId("doc", d.tenant(), d.id(), -1));
        return s;
    }

    static SolrInputDocument chunk(StoredDocument d, StoredChunk c, float[] v, long version) {
        SolrInputDocument s = base(d, "chunk", version);
        s.addField("id", solrId("chunk", d.tenant(), d.id(), c.index()));
        s.addField("chunk_index", c.index());
        s.addField("text", c.text());
        List<Float> vector = new ArrayList<>(v.length);
        for (float x : v) {
            vector.add(x);
        }
        s.addField("vector", vector);
        s.addField("token_count", c.tokenCount());
        s.addField("start_line", c.startLine());
        s.addField("end_line", c.endLine());
        if (c.section() != null) {
            s.addField("section", c.section());
        }
        if (c.page() != null) {
            s.addField("page", c.page());
        }
        return s;
    }

    static SolrInputDocument base(StoredDocument d, String kind, long version) {
        SolrInputDocument s = new SolrInputDocument();
        s.addField("kind", kind);
        s.addField("doc_version", version);
        s.addField("tenant", d.tenant());
        s.addField("doc_id", d.id());
        s.addField("path", d.path());
        s.addField("title", d.title());
        if (d.docType() != null) {
            s.addField("doc_type", d.docType());
        }
        s.addField("promotion", d.promotionLevel().ordinal());
        if (d.date() != null) {
            s.addField("date", d.date().toString());
        }
        for (String tag : d.accessTags()) {
            s.addField("tags", tag);
        }
        s.addField("tagged", !d.accessTags().isEmpty());
        if (d.ownerTag() != null) {
            s.addField("owner_tag", d.ownerTag());
        }
        for (String link : d.links()) {
            s.addField("links", link);
        }
        for (Map.Entry<String, String> e : d.metadata().entrySet()) {
            s.addField("metadata", e.getKey());
            s.addField("metadata", e.getValue());
        }
        SolrMetadataFilter.addFields(s, d.metadata());
        s.addField("char_count", d.charCount());
        return s;
    }

    /**
     * {@code <document route>!<uuid>}: the compositeId router puts a document's header and chunks on one shard,
     * so that the commit after a replacement shows the whole new version at once (commits are per shard, not
     * atomic across shards). Both parts are name-based UUIDs, so no character of a tenant or id can upset the
     * routing.
     */
    static String solrId(String kind, String tenant, String documentId, int index) {
        String document = tenant.length() + ":" + tenant + "|" + documentId;
        String route = UUID.nameUUIDFromBytes(document.getBytes(StandardCharsets.UTF_8)).toString();
        String key = kind + "|" + document + "|" + index;
        return route + "!" + UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reads

    static String vectorLiteral(float[] v) {
        StringBuilder b = new StringBuilder(v.length * 12).append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                b.append(',');
            }
            b.append(v[i]);
        }
        return b.append(']').toString();
    }

    static float[] vectorOf(SolrDocument d) {
        Collection<Object> values = d.getFieldValues("vector");
        float[] v = new float[values == null ? 0 : values.size()];
        int i = 0;
        if (values != null) {
            for (Object o : values) {
                v[i++] = ((Number) o).floatValue();
            }
        }
        return v;
    }

    static double cosine(float[] a, float[] b) {
        if (a.length != b.length || a.length == 0) {
            return Double.NaN;
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Mapping back

    static StoredDocument documentOf(SolrDocument d) {
        Map<String, String> metadata = new LinkedHashMap<>();
        List<String> kv = strings(d, "metadata");
        for (int i = 0; i + 1 < kv.size(); i += 2) {
            metadata.put(kv.get(i), kv.get(i + 1));
        }
        String date = (String) d.getFirstValue("date");
        return StoredDocument.builder()
                .id((String) d.getFirstValue("doc_id"))
                .tenant((String) d.getFirstValue("tenant"))
                .path((String) d.getFirstValue("path"))
                .title((String) d.getFirstValue("title"))
                .docType((String) d.getFirstValue("doc_type"))
                .promotionLevel(PromotionLevel.values()[((Number) d.getFirstValue("promotion")).intValue()])
                .date(date == null ? null : LocalDate.parse(date))
                .accessTags(strings(d, "tags"))
                .ownerTag((String) d.getFirstValue("owner_tag"))
                .links(strings(d, "links"))
                .metadata(metadata)
                .charCount(((Number) d.getFirstValue("char_count")).longValue())
                .build();
    }

    static StoredChunk chunkOf(SolrDocument d, boolean withVector) {
        Object page = d.getFirstValue("page");
        return new StoredChunk((String) d.getFirstValue("doc_id"), ((Number) d.getFirstValue("chunk_index")).intValue(),
                (String) d.getFirstValue("text"), withVector ? vectorOf(d) : null,
                ((Number) d.getFirstValue("token_count")).intValue(),
                ((Number) d.getFirstValue("start_line")).intValue(), ((Number) d.getFirstValue("end_line")).intValue(),
                (String) d.getFirstValue("section"), page == null ? null : ((Number) page).intValue());
    }

    static List<String> strings(SolrDocument d, String field) {
        Collection<Object> values = d.getFieldValues(field);
        List<String> out = new ArrayList<>(values == null ? 0 : values.size());
        if (values != null) {
            values.forEach(v -> out.add((String) v));
        }
        return out;
    }
}
