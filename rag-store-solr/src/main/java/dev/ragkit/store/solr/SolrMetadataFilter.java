package dev.ragkit.store.solr;

import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.MetadataTerms;
import java.util.ArrayList;
import java.util.List;
import org.apache.solr.common.SolrInputDocument;

/**
 * Metadata filters in Solr: every document and chunk carries its metadata as {@link MetadataTerms} in three
 * multi-valued string fields ({@code meta_kv}, {@code meta_num}, {@code meta_date}), and a {@link MetadataFilter}
 * becomes one filter query of term and term-range clauses over them, so it applies inside the k-NN and BM25
 * queries, before the top-k cut.
 */
final class SolrMetadataFilter {

    private SolrMetadataFilter() {
    }

    static void addFields(SolrInputDocument s, java.util.Map<String, String> metadata) {
        MetadataTerms.Terms terms = MetadataTerms.of(metadata);
        terms.keyValues().forEach(t -> s.addField("meta_kv", t));
        terms.numbers().forEach(t -> s.addField("meta_num", t));
        terms.dates().forEach(t -> s.addField("meta_date", t));
    }

    /** The filter as a query in Solr's standard syntax. */
    static String query(MetadataFilter f) {
        if (f instanceof MetadataFilter.Equals eq) {
            return "meta_kv:" + SolrDocumentStore.quote(MetadataTerms.keyValue(eq.key(), eq.value()));
        }
        if (f instanceof MetadataFilter.In in) {
            List<String> terms = new ArrayList<>();
            in.values().forEach(v -> terms.add(SolrDocumentStore.quote(MetadataTerms.keyValue(in.key(), v))));
            return "meta_kv:(" + String.join(" OR ", terms) + ")";
        }
        if (f instanceof MetadataFilter.NumberRange r) {
            return range("meta_num", r.key(), r.lower() == null ? null : MetadataTerms.number(r.key(), r.lower()),
                    r.lowerInclusive(), r.upper() == null ? null : MetadataTerms.number(r.key(), r.upper()),
                    r.upperInclusive());
        }
        if (f instanceof MetadataFilter.DateRange r) {
            return range("meta_date", r.key(),
                    r.lower() == null ? null : MetadataTerms.date(r.key(), r.lower().toEpochMilli()), r.lowerInclusive(),
                    r.upper() == null ? null : MetadataTerms.date(r.key(), r.upper().toEpochMilli()),
                    r.upperInclusive());
        }
        if (f instanceof MetadataFilter.And and) {
            return join(and.operands(), " AND ");
        }
        if (f instanceof MetadataFilter.Or or) {
            return join(or.operands(), " OR ");
        }
        return "(*:* -" + query(((MetadataFilter.Not) f).operand()) + ")";
    }

    private static String range(String field, String key, @org.jspecify.annotations.Nullable String lower,
            boolean lowerInclusive, @org.jspecify.annotations.Nullable String upper, boolean upperInclusive) {
        String lo = lower == null ? MetadataTerms.lowest(key) : lower;
        String hi = upper == null ? MetadataTerms.highest(key) : upper;
        return field + ":" + (lower == null || lowerInclusive ? "[" : "{") + SolrDocumentStore.quote(lo) + " TO "
                + SolrDocumentStore.quote(hi) + (upper == null || upperInclusive ? "]" : "}");
    }

    private static String join(List<MetadataFilter> operands, String operator) {
        List<String> parts = new ArrayList<>(operands.size());
        operands.forEach(o -> parts.add(query(o)));
        return "(" + String.join(operator, parts) + ")";
    }
}
