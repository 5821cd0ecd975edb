package dev.ragkit.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * A portable filter on {@link StoredDocument#metadata()}: equals, in, ranges over numbers and dates, and their
 * {@code and}, {@code or} and {@code not}. A {@link SearchRequest} may carry one; every store applies it inside
 * the search, before the top-{@code k} cut, on top of the scope (it can only narrow what a scope sees, never
 * widen it).
 *
 * <h2>Semantics</h2>
 * <ul>
 *   <li>{@link Equals} and {@link In} compare the metadata value as text, exactly (case-sensitive).</li>
 *   <li>{@link NumberRange} matches a value that reads as a decimal number ({@link #number(String)}: an optional
 *       sign, digits, an optional fraction and exponent; no {@code NaN}, {@code Infinity} or hex).</li>
 *   <li>{@link DateRange} matches a value that reads as an ISO-8601 date ({@code 2024-05-17}) or date-time
 *       ({@code 2024-05-17T10:15:30Z}, {@code 2024-05-17T10:15:30+02:00}, {@code 2024-05-17T10:15}); see
 *       {@link #date(String)}. A date stands for the start of that day in UTC; a date-time without an offset is
 *       read as UTC; comparisons are to the millisecond.</li>
 *   <li>A document without the key, or whose value does not read as the range's kind, matches none of the
 *       four leaf filters; {@link Not} is plain negation, so {@code not year = 2024} (and {@code year != 2024})
 *       matches documents without a {@code year}.</li>
 * </ul>
 *
 * <p>Build filters with the static factories ({@link #eq}, {@link #in}, {@link #atLeast}, {@link #between},
 * {@link #dateRange}, {@link #and}, {@link #or}, {@link #not}) or parse the small text syntax with
 * {@link #parse(String)}, e.g. {@code year >= 2024 and (product = x or product in (y, z))}. {@code toString()}
 * writes that syntax back: {@code parse(f.toString())} matches exactly the documents {@code f} matches (a
 * two-sided range comes back as the {@code and} of two one-sided ones).
 *
 * <p>Every factory and record constructor validates at once: a {@code null} argument throws
 * {@link NullPointerException} naming it, any other bad value (a blank key, an empty {@code in} list, a
 * {@code NaN} bound, a range without bounds or with its bounds crossed) throws {@link IllegalArgumentException}
 * saying how to fix it. Filters are immutable and thread-safe.
 */
public sealed interface MetadataFilter
        permits MetadataFilter.Equals, MetadataFilter.In, MetadataFilter.NumberRange, MetadataFilter.DateRange,
        MetadataFilter.And, MetadataFilter.Or, MetadataFilter.Not {

    /**
     * The deepest nesting {@link #parse(String)} reads: at most this many parentheses and {@code not}s around any
     * point of the text. Deeper text is refused (a {@link MetadataFilterSyntaxException}) instead of exhausting
     * the stack; no hand-written filter comes near it.
     */
    int MAX_NESTING = 64;

    /**
     * The most conditions {@link #parse(String)} reads: each comparison counts one, and each {@code not} one
     * more (also the one inside {@code !=} and {@code not in}); {@code key in (a, b, c)} is one condition however
     * many values it lists. More are refused (a {@link MetadataFilterSyntaxException}): a store turns every
     * condition into at least one query clause, and Lucene refuses a query of more than 1,024 clauses, of which
     * a search's own text takes up to 512.
     */
    int MAX_CONDITIONS = 256;

    /**
     * Whether a document with this metadata passes the filter.
     *
     * @param metadata a document's metadata
     * @return {@code true} when it matches
     */
    boolean test(Map<String, String> metadata);

    // ------------------------------------------------------------------------------------------------ factories

    /**
     * @param key   the metadata key, not blank
     * @param value the exact value
     * @return {@code key = value}
     */
    static MetadataFilter eq(String key, String value) {
        return new Equals(key, value);
    }

    /**
     * @param key   the metadata key, not blank
     * @param value the exact value
     * @return {@code key != value}, i.e. {@code not key = value} (also true when the key is absent)
     */
    static MetadataFilter notEq(String key, String value) {
        return new Not(new Equals(key, value));
    }

    /**
     * @param key    the metadata key, not blank
     * @param values the accepted values, at least one
     * @return {@code key in (values)}
     */
    static MetadataFilter in(String key, Collection<String> values) {
        return new In(key, new TreeSet<>(Objects.requireNonNull(values, "values")));
    }

    /**
     * @param key    the metadata key, not blank
     * @param values the accepted values, at least one
     * @return {@code key in (values)}
     */
    static MetadataFilter in(String key, String... values) {
        return in(key, List.of(Objects.requireNonNull(values, "values")));
    }

    /**
     * @param key   the metadata key
     * @param lower the smallest accepted number, finite
     * @return {@code key >= lower}
     */
    static MetadataFilter atLeast(String key, double lower) {
        return new NumberRange(key, lower, true, null, false);
    }

    /**
     * @param key   the metadata key
     * @param lower the bound, finite
     * @return {@code key > lower}
     */
    static MetadataFilter greaterThan(String key, double lower) {
        return new NumberRange(key, lower, false, null, false);
    }

    /**
     * @param key   the metadata key
     * @param upper the largest accepted number, finite
     * @return {@code key <= upper}
     */
    static MetadataFilter atMost(String key, double upper) {
        return new NumberRange(key, null, false, upper, true);
    }

    /**
     * @param key   the metadata key
     * @param upper the bound, finite
     * @return {@code key < upper}
     */
    static MetadataFilter lessThan(String key, double upper) {
        return new NumberRange(key, null, false, upper, false);
    }

    /**
     * @param key   the metadata key
     * @param lower the smallest accepted number
     * @param upper the largest accepted number, not below {@code lower}
     * @return {@code key >= lower and key <= upper}, as one range
     */
    static MetadataFilter between(String key, double lower, double upper) {
        return new NumberRange(key, lower, true, upper, true);
    }

    /**
     * A range over ISO-8601 dates or date-times; see {@link #date(String)} for what reads as one.
     *
     * @param key            the metadata key
     * @param from           the lower bound as ISO-8601 text, or {@code null} for none
     * @param fromInclusive  whether the lower bound itself matches
     * @param to             the upper bound as ISO-8601 text, or {@code null} for none
     * @param toInclusive    whether the upper bound itself matches
     * @return the range
     * @throws IllegalArgumentException when a bound is not ISO-8601, or both are missing
     */
    static MetadataFilter dateRange(String key, @Nullable String from, boolean fromInclusive, @Nullable String to,
            boolean toInclusive) {
        return new DateRange(key, from == null ? null : requireDate(from, "from"), fromInclusive,
                to == null ? null : requireDate(to, "to"), toInclusive);
    }

    /**
     * @param operands at least two filters
     * @return a filter matching when all of them match
     */
    static MetadataFilter and(MetadataFilter... operands) {
        return new And(List.of(Objects.requireNonNull(operands, "operands")));
    }

    /**
     * @param operands at least two filters
     * @return a filter matching when any of them matches
     */
    static MetadataFilter or(MetadataFilter... operands) {
        return new Or(List.of(Objects.requireNonNull(operands, "operands")));
    }

    /**
     * @param operand a filter
     * @return a filter matching exactly when {@code operand} does not
     */
    static MetadataFilter not(MetadataFilter operand) {
        return new Not(operand);
    }

    /**
     * Parses the filter syntax: comparisons {@code key = value}, {@code key != value}, {@code key < value},
     * {@code <=}, {@code >}, {@code >=} (numbers or ISO-8601 dates), {@code key in (a, b)},
     * {@code key not in (a, b)}, joined with {@code and}, {@code or}, {@code not} (case-insensitive; {@code and}
     * binds tighter than {@code or}) and parentheses. Keys and values are bare words (anything but blanks and
     * {@code ( ) , = ! < > ' "}) or quoted with {@code '…'} or {@code "…"} (a backslash escapes the next
     * character). The text may nest at most {@link #MAX_NESTING} parentheses and {@code not}s deep and hold at
     * most {@link #MAX_CONDITIONS} conditions.
     *
     * @param text the filter, e.g. {@code year >= 2024 and product = x}
     * @return the filter
     * @throws MetadataFilterSyntaxException when the text is not a filter, or goes beyond one of the limits; its
     *                                       message names the column (and the limit)
     */
    static MetadataFilter parse(String text) {
        return new MetadataFilterParser(Objects.requireNonNull(text, "text")).parse();
    }

    // ------------------------------------------------------------------------------------------------ values

    /**
     * How a metadata value reads as a number for {@link NumberRange}: a decimal number such as {@code 2024},
     * {@code -3.5} or {@code 1e6}, after trimming blanks.
     *
     * @param value a metadata value
     * @return the number, or empty when the value is not a decimal number
     */
    static OptionalDouble number(String value) {
        return MetadataValues.number(value);
    }

    /**
     * How a metadata value reads as a date for {@link DateRange}: an ISO-8601 date (the start of that day in UTC),
     * a date-time with an offset or {@code Z}, or a date-time without one (read as UTC); truncated to milliseconds.
     *
     * @param value a metadata value
     * @return the instant, or empty when the value is not ISO-8601
     */
    static Optional<Instant> date(String value) {
        return MetadataValues.date(value);
    }

    private static Instant requireDate(String text, String name) {
        return date(Objects.requireNonNull(text, name)).orElseThrow(() -> new IllegalArgumentException(name
                + " bound '" + text + "' is not an ISO-8601 date or date-time; write e.g. 2024-05-17 or"
                + " 2024-05-17T10:15:30Z"));
    }

    private static String requireKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank()) {
            throw new IllegalArgumentException("a metadata filter key must not be blank; name the metadata field,"
                    + " e.g. year");
        }
        return key;
    }

    // ------------------------------------------------------------------------------------------------ records

    /**
     * {@code key = value}: the document's value for {@code key} is exactly {@code value}.
     *
     * @param key   the metadata key, not blank
     * @param value the value
     */
    record Equals(String key, String value) implements MetadataFilter {
        /** Validates the arguments. */
        public Equals {
            key = requireKey(key);
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            return value.equals(metadata.get(key));
        }

        @Override
        public String toString() {
            return MetadataFilterParser.quoteIfNeeded(key) + " = " + MetadataFilterParser.quoteIfNeeded(value);
        }
    }

    /**
     * {@code key in (values)}: the document's value for {@code key} is one of {@code values}.
     *
     * @param key    the metadata key, not blank
     * @param values the values (immutable, sorted), at least one
     */
    record In(String key, SortedSet<String> values) implements MetadataFilter {
        /** Validates and copies the arguments. */
        public In {
            key = requireKey(key);
            TreeSet<String> copy = new TreeSet<>();
            for (String v : Objects.requireNonNull(values, "values")) {
                copy.add(Objects.requireNonNull(v, "value"));
            }
            if (copy.isEmpty()) {
                throw new IllegalArgumentException("'" + key + " in (...)' needs at least one value; an empty list"
                        + " would match nothing, drop the filter or list the values");
            }
            values = Collections.unmodifiableSortedSet(copy);
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            String v = metadata.get(key);
            return v != null && values.contains(v);
        }

        @Override
        public String toString() {
            List<String> quoted = new ArrayList<>();
            values.forEach(v -> quoted.add(MetadataFilterParser.quoteIfNeeded(v)));
            return MetadataFilterParser.quoteIfNeeded(key) + " in (" + String.join(", ", quoted) + ")";
        }
    }

    /** Whether {@code n} lies between the bounds: the one test both ranges make. */
    private static boolean within(double n, @Nullable Double lower, boolean lowerInclusive, @Nullable Double upper,
            boolean upperInclusive) {
        if (lower != null && (lowerInclusive ? n < lower : n <= lower)) {
            return false;
        }
        return upper == null || (upperInclusive ? n <= upper : n < upper);
    }

    /**
     * A range of numbers; at least one bound is given.
     *
     * @param key            the metadata key, not blank
     * @param lower          the lower bound (finite), or {@code null} for none
     * @param lowerInclusive whether the lower bound itself matches ({@code false} when there is none)
     * @param upper          the upper bound (finite), or {@code null} for none
     * @param upperInclusive whether the upper bound itself matches ({@code false} when there is none)
     */
    record NumberRange(String key, @Nullable Double lower, boolean lowerInclusive, @Nullable Double upper,
                       boolean upperInclusive) implements MetadataFilter {
        /** Validates the arguments. */
        public NumberRange {
            key = requireKey(key);
            if (lower == null && upper == null) {
                throw new IllegalArgumentException("the number range on '" + key + "' has no bounds; give a lower"
                        + " bound, an upper bound or both (e.g. " + key + " >= 2024)");
            }
            for (Double bound : new Double[] {lower, upper}) {
                if (bound != null && !Double.isFinite(bound)) {
                    throw new IllegalArgumentException("the number range on '" + key + "' has the bound " + bound
                            + "; bounds must be finite numbers (leave a side open instead of using infinity)");
                }
            }
            if (lower != null && upper != null && lower > upper) {
                throw new IllegalArgumentException("the number range on '" + key + "' has its lower bound " + lower
                        + " above its upper bound " + upper + "; swap them");
            }
            if (lower != null && lower == 0.0) {
                lower = 0.0; // one zero: -0.0 and 0.0 are the same bound
            }
            if (upper != null && upper == 0.0) {
                upper = 0.0;
            }
            lowerInclusive = lower != null && lowerInclusive;
            upperInclusive = upper != null && upperInclusive;
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            String v = metadata.get(key);
            if (v == null) {
                return false;
            }
            OptionalDouble n = number(v);
            return n.isPresent() && contains(n.getAsDouble());
        }

        /**
         * @param n a number
         * @return whether it lies in this range
         */
        public boolean contains(double n) {
            return within(n, lower, lowerInclusive, upper, upperInclusive);
        }

        @Override
        public String toString() {
            return MetadataFilterParser.rangeText(key, lower == null ? null : MetadataFilterParser.number(lower),
                    lowerInclusive, upper == null ? null : MetadataFilterParser.number(upper), upperInclusive);
        }
    }

    /**
     * A range of instants; at least one bound is given. Values are read with {@link MetadataFilter#date(String)}.
     *
     * @param key            the metadata key, not blank
     * @param lower          the lower bound (millisecond precision), or {@code null} for none
     * @param lowerInclusive whether the lower bound itself matches ({@code false} when there is none)
     * @param upper          the upper bound (millisecond precision), or {@code null} for none
     * @param upperInclusive whether the upper bound itself matches ({@code false} when there is none)
     */
    record DateRange(String key, @Nullable Instant lower, boolean lowerInclusive, @Nullable Instant upper,
                     boolean upperInclusive) implements MetadataFilter {
        /** Validates the arguments and truncates the bounds to milliseconds. */
        public DateRange {
            key = requireKey(key);
            if (lower == null && upper == null) {
                throw new IllegalArgumentException("the date range on '" + key + "' has no bounds; give a lower"
                        + " bound, an upper bound or both (e.g. " + key + " >= 2024-01-01)");
            }
            lower = lower == null ? null : Instant.ofEpochMilli(lower.toEpochMilli());
            upper = upper == null ? null : Instant.ofEpochMilli(upper.toEpochMilli());
            if (lower != null && upper != null && lower.isAfter(upper)) {
                throw new IllegalArgumentException("the date range on '" + key + "' starts at " + lower
                        + " after it ends at " + upper + "; swap the bounds");
            }
            lowerInclusive = lower != null && lowerInclusive;
            upperInclusive = upper != null && upperInclusive;
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            String v = metadata.get(key);
            if (v == null) {
                return false;
            }
            Optional<Instant> d = date(v);
            return d.isPresent() && contains(d.get().toEpochMilli());
        }

        /**
         * @param epochMilli an instant in milliseconds since the epoch
         * @return whether it lies in this range
         */
        public boolean contains(long epochMilli) {
            // milliseconds are exact as doubles for ±285,000 years
            return within(epochMilli, lower == null ? null : (double) lower.toEpochMilli(), lowerInclusive,
                    upper == null ? null : (double) upper.toEpochMilli(), upperInclusive);
        }

        @Override
        public String toString() {
            return MetadataFilterParser.rangeText(key, lower == null ? null : lower.toString(), lowerInclusive,
                    upper == null ? null : upper.toString(), upperInclusive);
        }
    }

    /**
     * All operands match.
     *
     * @param operands at least two filters (immutable)
     */
    record And(List<MetadataFilter> operands) implements MetadataFilter {
        /** Validates and copies the operands. */
        public And {
            operands = MetadataFilterParser.operands(operands, "and");
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            for (MetadataFilter f : operands) {
                if (!f.test(metadata)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            return MetadataFilterParser.join(operands, " and ");
        }
    }

    /**
     * At least one operand matches.
     *
     * @param operands at least two filters (immutable)
     */
    record Or(List<MetadataFilter> operands) implements MetadataFilter {
        /** Validates and copies the operands. */
        public Or {
            operands = MetadataFilterParser.operands(operands, "or");
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            for (MetadataFilter f : operands) {
                if (f.test(metadata)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String toString() {
            return MetadataFilterParser.join(operands, " or ");
        }
    }

    /**
     * The operand does not match (also when the document lacks the operand's keys).
     *
     * @param operand the negated filter
     */
    record Not(MetadataFilter operand) implements MetadataFilter {
        /** Validates the operand. */
        public Not {
            Objects.requireNonNull(operand, "operand");
        }

        @Override
        public boolean test(Map<String, String> metadata) {
            return !operand.test(metadata);
        }

        @Override
        public String toString() {
            boolean leaf = !(operand instanceof And || operand instanceof Or);
            return leaf ? "not " + operand : "not (" + operand + ")";
        }
    }
}
