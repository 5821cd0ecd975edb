package dev.ragkit.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * For store implementations: one way to index {@link StoredDocument#metadata()} as plain string terms, so that
 * every {@link MetadataFilter} becomes term and term-range queries on three multi-valued string fields, in any
 * engine that compares strings by their UTF-16 code units or bytes (Lucene, Solr, most databases).
 *
 * <ul>
 *   <li>{@link #keyValue}: {@code key=value} for {@link MetadataFilter.Equals} and {@link MetadataFilter.In};</li>
 *   <li>{@link #number}: {@code key=} and 16 hex digits that sort like the number, for
 *       {@link MetadataFilter.NumberRange}, written only for values that {@link MetadataFilter#number} reads;</li>
 *   <li>{@link #date}: {@code key=} and 16 hex digits that sort like the epoch milliseconds, for
 *       {@link MetadataFilter.DateRange}, written only for values that {@link MetadataFilter#date} reads.</li>
 * </ul>
 * In the key, {@code \} and {@code =} are escaped with a backslash, so the first unescaped {@code =} ends it and
 * no two (key, value) pairs share a term. The hex digits are lower case and fixed-width, so the terms of one key
 * lie between {@link #lowest} and {@link #highest} and sort in numeric order.
 */
public final class MetadataTerms {

    private MetadataTerms() {
    }

    /**
     * @param key   a metadata key
     * @param value its value
     * @return the exact-match term {@code key=value}
     */
    public static String keyValue(String key, String value) {
        return escapeKey(key) + "=" + value;
    }

    /**
     * @param key    a metadata key
     * @param number a finite number
     * @return the sortable number term of {@code key}
     */
    public static String number(String key, double number) {
        double d = number == 0.0 ? 0.0 : number;
        long bits = Double.doubleToLongBits(d);
        bits = bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
        return escapeKey(key) + "=" + hex(bits);
    }

    /**
     * @param key        a metadata key
     * @param epochMilli an instant in milliseconds since the epoch
     * @return the sortable date term of {@code key}
     */
    public static String date(String key, long epochMilli) {
        return escapeKey(key) + "=" + hex(epochMilli ^ Long.MIN_VALUE);
    }

    /**
     * @param key a metadata key
     * @return a term at or below every number or date term of {@code key}
     */
    public static String lowest(String key) {
        return escapeKey(key) + "=" + "0".repeat(16);
    }

    /**
     * @param key a metadata key
     * @return a term at or above every number or date term of {@code key}
     */
    public static String highest(String key) {
        return escapeKey(key) + "=" + "f".repeat(16);
    }

    /**
     * The terms to index for a document's metadata.
     *
     * @param metadata a document's metadata
     * @return its key-value terms, number terms and date terms
     */
    public static Terms of(Map<String, String> metadata) {
        List<String> keyValues = new ArrayList<>(metadata.size());
        List<String> numbers = new ArrayList<>();
        List<String> dates = new ArrayList<>();
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            keyValues.add(keyValue(e.getKey(), e.getValue()));
            OptionalDouble n = MetadataFilter.number(e.getValue());
            if (n.isPresent()) {
                numbers.add(number(e.getKey(), n.getAsDouble()));
            }
            Optional<Instant> d = MetadataFilter.date(e.getValue());
            d.ifPresent(instant -> dates.add(date(e.getKey(), instant.toEpochMilli())));
        }
        return new Terms(List.copyOf(keyValues), List.copyOf(numbers), List.copyOf(dates));
    }

    /**
     * The terms of one document's metadata.
     *
     * @param keyValues exact-match terms
     * @param numbers   sortable number terms
     * @param dates     sortable date terms
     */
    public record Terms(List<String> keyValues, List<String> numbers, List<String> dates) {
    }

    private static String escapeKey(String key) {
        return key.replace("\\", "\\\\").replace("=", "\\=");
    }

    private static String hex(long v) {
        String h = Long.toHexString(v);
        return "0".repeat(16 - h.length()) + h;
    }
}
