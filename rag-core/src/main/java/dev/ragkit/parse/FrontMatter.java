package dev.ragkit.parse;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.ragkit.error.IngestException;
import dev.ragkit.store.PromotionLevel;
import java.io.IOException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A markdown document's YAML front matter, read with a real YAML parser: the known keys checked and converted, every
 * other key kept as metadata, and every error translated into an {@link IngestException} that names the file's line
 * (YAML positions count from the front matter's first line, which is the file's line 2). Aliases ({@code *name})
 * are refused: Jackson would report them as the anchor's name.
 */
final class FrontMatter {
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final Pattern YAML_MARK = Pattern.compile("in 'reader', line (\\d+), column \\d+");
    private static final Set<String> KNOWN_KEYS =
            Set.of("title", "doc_type", "promotion_level", "date", "tags", "owner", "summary");
    private static final YAMLFactory YAML = YAMLFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL) // "key:" is null; "key: ''" stays an empty string
            .build();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Nullable String title;
    @Nullable String docType;
    PromotionLevel promotionLevel = PromotionLevel.STANDARD;
    @Nullable LocalDate date;
    SortedSet<String> tags = new TreeSet<>();
    @Nullable String owner;
    @Nullable String summary;
    Map<String, String> metadata = new LinkedHashMap<>();



    /**
     * Reads the YAML between the fences.
     *
     * @param closingLine the file line (1-based) of the closing fence; YAML line {@code n} is file line
     *                    {@code n + 1}
     */
    static FrontMatter read(String path, String yamlText, int closingLine) {
        ObjectNode fields = JsonNodeFactory.instance.objectNode();
        Map<String, Integer> keyLines = new HashMap<>();
        try (JsonParser parser = YAML.createParser(yamlText)) {
            JsonToken first = parser.nextToken();
            if (first == null || first == JsonToken.VALUE_NULL) {
                return new FrontMatter();
            }
            if (first != JsonToken.START_OBJECT) {
                throw new IngestException(path, fileLine(parser.currentTokenLocation(), closingLine),
                        "the front matter must be a mapping of 'key: value' lines, found "
                        + describe(first), null);
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                keyLines.put(key, fileLine(parser.currentTokenLocation(), closingLine));
                parser.nextToken();
                fields.set(key, readValue(parser));
            }
        } catch (AliasException e) {
            throw new IngestException(path, fileLine(e.location, closingLine), "the front matter uses the YAML alias '*"
                    + e.name + "', which is not supported; write the value out in full instead of an anchor (&"
                    + e.name + ") and an alias", null);
        } catch (JsonProcessingException e) {
            throw new IngestException(path, yamlErrorLine(e, closingLine),
                    "invalid YAML in the front matter: " + yamlProblem(e.getOriginalMessage()), e);
        } catch (IOException | RuntimeException e) {
            if (e instanceof IngestException) {
                throw (IngestException) e;
            }
            throw new IngestException(path, 1, "the front matter cannot be read as YAML: " + e.getMessage(), e);
        }

        FrontMatter result = new FrontMatter();
        result.title = text(path, fields, keyLines, "title");
        result.docType = text(path, fields, keyLines, "doc_type");
        result.owner = text(path, fields, keyLines, "owner");
        result.summary = text(path, fields, keyLines, "summary");
        String level = text(path, fields, keyLines, "promotion_level");
        if (level != null) {
            try {
                result.promotionLevel = PromotionLevel.parse(level);
            } catch (IllegalArgumentException e) {
                throw new IngestException(path, keyLine(keyLines, "promotion_level"),
                        "front matter promotion_level: " + e.getMessage(), e);
            }
        }
        String date = text(path, fields, keyLines, "date");
        if (date != null) {
            try {
                result.date = LocalDate.parse(date);
            } catch (DateTimeParseException e) {
                throw new IngestException(path, keyLine(keyLines, "date"), "front matter date '" + date
                        + "' is not a valid date; write it as YYYY-MM-DD, e.g. 2024-05-31", e);
            }
        }
        result.tags = tags(path, fields, keyLines);
        for (Map.Entry<String, JsonNode> field : fields.properties()) {
            JsonNode value = field.getValue();
            if (KNOWN_KEYS.contains(field.getKey()) || value.isNull()) {
                continue;
            }
            result.metadata.put(field.getKey(), value.isContainerNode() ? writeJson(value) : scalarText(value));
        }
        return result;
    }

    /**
     * Reads the value at the parser's current token. Scalars become text nodes holding the text as written,
     * except JSON-compatible numbers (raw JSON, unchanged) and {@code true}/{@code false}.
     */
    private static JsonNode readValue(JsonParser parser) throws IOException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        JsonToken token = parser.currentToken();
        if (parser instanceof YAMLParser && ((YAMLParser) parser).isCurrentAlias()) {
            // Jackson reports an alias (*name) as a scalar holding the anchor's name: never let that be a value
            throw new AliasException(parser.currentTokenLocation(), parser.getText());
        }
        if (token == JsonToken.START_OBJECT) {
            ObjectNode object = nodes.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String key = parser.currentName();
                parser.nextToken();
                object.set(key, readValue(parser));
            }
            return object;
        }
        if (token == JsonToken.START_ARRAY) {
            ArrayNode array = nodes.arrayNode();
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                array.add(readValue(parser));
            }
            return array;
        }
        if (token == JsonToken.VALUE_NULL) {
            return nodes.nullNode();
        }
        String text = parser.getText();
        if ((token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT)
                && JSON_NUMBER.matcher(text).matches()) {
            return nodes.rawValueNode(new RawValue(text));
        }
        if ((token == JsonToken.VALUE_TRUE && text.equals("true"))
                || (token == JsonToken.VALUE_FALSE && text.equals("false"))) {
            return nodes.booleanNode(token == JsonToken.VALUE_TRUE);
        }
        return nodes.textNode(text);
    }

    /** A YAML alias in the front matter, with where it is and the anchor it names. */
    private static final class AliasException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient JsonLocation location;
        final String name;

        AliasException(JsonLocation location, String name) {
            super("YAML alias *" + name, null, false, false);
            this.location = location;
            this.name = name;
        }
    }

    /** A scalar field as stripped text, or null when absent, null or blank. */
    private static @Nullable String text(String path, ObjectNode fields, Map<String, Integer> keyLines,
            String key) {
        JsonNode value = fields.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isContainerNode()) {
            throw new IngestException(path, keyLine(keyLines, key), "front matter " + key
                    + " must be a single value, found " + (value.isArray() ? "a list" : "a mapping")
                    + "; write it as '" + key + ": <value>'", null);
        }
        String text = scalarText(value).strip();
        return text.isEmpty() ? null : text;
    }

    private static SortedSet<String> tags(String path, ObjectNode fields, Map<String, Integer> keyLines) {
        SortedSet<String> tags = new TreeSet<>();
        JsonNode value = fields.get("tags");
        if (value == null || value.isNull()) {
            return tags;
        }
        if (value.isObject()) {
            throw new IngestException(path, keyLine(keyLines, "tags"), "front matter tags must be a list of"
                    + " tags or a comma-separated string, found a mapping; write e.g. 'tags: [hr, finance]'", null);
        }
        if (value.isArray()) {
            for (JsonNode element : value) {
                if (element.isContainerNode()) {
                    throw new IngestException(path, keyLine(keyLines, "tags"),
                            "front matter tags must be a list of plain tags, found a nested list or mapping;"
                                    + " write e.g. 'tags: [hr, finance]'", null);
                }
                if (!element.isNull()) {
                    addTags(tags, scalarText(element));
                }
            }
        } else {
            addTags(tags, scalarText(value));
        }
        return tags;
    }

    /** Adds the comma-separated, stripped, non-empty parts of {@code text}. */
    private static void addTags(Set<String> tags, String text) {
        for (String tag : text.split(",")) {
            String stripped = tag.strip();
            if (!stripped.isEmpty()) {
                tags.add(stripped);
            }
        }
    }

    /** The text of a scalar node as {@link #readValue} made it. */
    private static String scalarText(JsonNode value) {
        if (value.isPojo() && ((POJONode) value).getPojo() instanceof RawValue) {
            return String.valueOf(((RawValue) ((POJONode) value).getPojo()).rawValue());
        }
        return value.asText();
    }

    private static int keyLine(Map<String, Integer> keyLines, String key) {
        return keyLines.getOrDefault(key, 1);
    }

    private static String writeJson(JsonNode value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a YAML value could not be written as JSON", e);
        }
    }

    /** The file line of a YAML location (front matter starts at file line 2), kept within the front matter. */
    private static int fileLine(@Nullable JsonLocation location, int closingLine) {
        if (location == null || location.getLineNr() < 1) {
            return 1;
        }
        return Math.min(location.getLineNr() + 1, closingLine);
    }

    /**
     * The file line of a YAML error: the YAML parser's problem position (the last position its message gives),
     * which is more exact than the location of the last token read, which Jackson reports.
     */
    private static int yamlErrorLine(JsonProcessingException e, int closingLine) {
        Matcher mark = YAML_MARK.matcher(e.getOriginalMessage());
        int yamlLine = 0;
        while (mark.find()) {
            yamlLine = Integer.parseInt(mark.group(1));
        }
        if (yamlLine < 1) {
            return fileLine(e.getLocation(), closingLine);
        }
        return Math.min(yamlLine + 1, closingLine);
    }

    private static String describe(JsonToken token) {
        switch (token) {
            case START_ARRAY:
                return "a list";
            default:
                return "a single value";
        }
    }

    /**
     * The YAML parser's message without its position notes ("in 'reader', line 2, column 4:" and the quoted line
     * with a caret below it), which count lines from the start of the front matter, not of the file.
     */
    private static String yamlProblem(String message) {
        List<String> kept = new ArrayList<>();
        String[] parts = message.split("\\R");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            if (part.startsWith("in 'reader'")) {
                i += 2; // skip the quoted line and the caret
            } else if (!part.isEmpty()) {
                kept.add(part);
            }
        }
        return kept.isEmpty() ? message.strip() : String.join("; ", kept);
    }
}
