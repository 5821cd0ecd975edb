package dev.ragkit.store;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/** How metadata values read as numbers and dates; see {@link MetadataFilter#number} and {@link MetadataFilter#date}. */
final class MetadataValues {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern DATE_START = Pattern.compile("[+-]?\\d{4,}-\\d{2}-\\d{2}.*");

    private MetadataValues() {
    }

    static OptionalDouble number(String value) {
        String v = value.strip();
        if (v.isEmpty() || v.length() > 64 || !DECIMAL.matcher(v).matches()) {
            return OptionalDouble.empty();
        }
        double d = Double.parseDouble(v);
        return Double.isFinite(d) ? OptionalDouble.of(d == 0.0 ? 0.0 : d) : OptionalDouble.empty();
    }

    static Optional<Instant> date(String value) {
        String v = value.strip();
        if (v.length() < 10 || v.length() > 64 || !DATE_START.matcher(v).matches()) {
            return Optional.empty();
        }
        try {
            Instant instant;
            if (v.indexOf('T') < 0 && v.indexOf('t') < 0) {
                instant = LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
            } else if (hasOffset(v)) {
                instant = OffsetDateTime.parse(v.toUpperCase(java.util.Locale.ROOT)).toInstant();
            } else {
                instant = LocalDateTime.parse(v.toUpperCase(java.util.Locale.ROOT)).toInstant(ZoneOffset.UTC);
            }
            return Optional.of(Instant.ofEpochMilli(instant.toEpochMilli()));
        } catch (DateTimeParseException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    private static boolean hasOffset(String v) {
        int t = Math.max(v.indexOf('T'), v.indexOf('t'));
        String time = v.substring(t + 1);
        return time.endsWith("Z") || time.endsWith("z") || time.indexOf('+') >= 0 || time.indexOf('-') >= 0;
    }
}
