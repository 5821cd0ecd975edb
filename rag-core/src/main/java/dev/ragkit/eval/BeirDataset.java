package dev.ragkit.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A retrieval test collection in the BEIR file layout, read into memory.
 *
 * <pre>
 * dir/corpus.jsonl        one JSON object per line: {"_id", "title", "text"} ("title" may be absent)
 * dir/queries.jsonl       one JSON object per line: {"_id", "text"}
 * dir/qrels/&lt;split&gt;.tsv  header "query-id\tcorpus-id\tscore", then one graded judgement per line
 * </pre>
 *
 * Blank lines are ignored. Grades are integers; a grade of 0 or below means "judged not relevant" and is kept
 * as judged (metrics treat only grades above 0 as relevant). Queries with no judgement in the split are left
 * out of {@link #queries()} and counted in {@link #skippedQueries()}; judgements for queries absent from
 * {@code queries.jsonl} are ignored. Malformed input throws {@link IllegalArgumentException} naming the file
 * and the 1-based line; unreadable files throw {@link UncheckedIOException} naming the file.
 *
 * <p>Immutable and thread-safe.
 */
public final class BeirDataset {

    /** The default qrels split. */
    public static final String DEFAULT_SPLIT = "test";

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A corpus document.
     *
     * @param id    the corpus id ({@code _id})
     * @param title the title, empty when absent
     * @param text  the text
     */
    public record CorpusDocument(String id, String title, String text) {
        /** Validates the arguments. */
        public CorpusDocument {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(text, "text");
        }

        /** @return what is indexed of the document: its title, a line break and its text (the text alone without one) */
        public String fullText() {
            return title.isBlank() ? text : title + "\n" + text;
        }
    }

    /**
     * A judged query.
     *
     * @param id   the query id ({@code _id})
     * @param text the query text
     */
    public record Query(String id, String text) {
        /** Validates the arguments. */
        public Query {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(text, "text");
        }
    }

    private final String split;
    private final Map<String, CorpusDocument> corpus;
    private final List<Query> queries;
    private final Map<String, Map<String, Integer>> qrels;
    private final int skippedQueries;

    private BeirDataset(String split, Map<String, CorpusDocument> corpus, List<Query> queries,
                        Map<String, Map<String, Integer>> qrels, int skippedQueries) {
        this.split = split;
        this.corpus = Collections.unmodifiableMap(corpus);
        this.queries = List.copyOf(queries);
        this.qrels = Collections.unmodifiableMap(qrels);
        this.skippedQueries = skippedQueries;
    }

    /**
     * Loads the {@code test} split of the dataset in {@code dir}.
     *
     * @param dir the dataset directory
     * @return the dataset
     * @throws IllegalArgumentException when a file is missing or malformed (message names file and line)
     * @throws UncheckedIOException     when a file cannot be read
     */
    public static BeirDataset load(Path dir) {
        return load(dir, DEFAULT_SPLIT);
    }

    /**
     * Loads one split of the dataset in {@code dir}.
     *
     * @param dir   the dataset directory
     * @param split the qrels split, e.g. {@code test} or {@code dev}: reads {@code qrels/<split>.tsv}
     * @return the dataset
     * @throws IllegalArgumentException when a file is missing or malformed (message names file and line)
     * @throws UncheckedIOException     when a file cannot be read
     */
    public static BeirDataset load(Path dir, String split) {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(split, "split");
        if (split.isBlank() || split.contains("/") || split.contains("\\")) {
            throw new IllegalArgumentException("split must be a plain name such as 'test', got '" + split + "'");
        }
        Map<String, CorpusDocument> corpus = readCorpus(dir.resolve("corpus.jsonl"));
        Map<String, String> allQueries = readQueries(dir.resolve("queries.jsonl"));
        Map<String, Map<String, Integer>> allQrels = readQrels(dir.resolve("qrels").resolve(split + ".tsv"));
        List<Query> judged = new ArrayList<>();
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        int skipped = 0;
        for (Map.Entry<String, String> q : allQueries.entrySet()) {
            Map<String, Integer> judgements = allQrels.get(q.getKey());
            if (judgements == null || judgements.isEmpty()) {
                skipped++;
            } else {
                judged.add(new Query(q.getKey(), q.getValue()));
                qrels.put(q.getKey(), Collections.unmodifiableMap(judgements));
            }
        }
        return new BeirDataset(split, corpus, judged, qrels, skipped);
    }

    /** @return the qrels split this dataset was loaded with */
    public String split() {
        return split;
    }

    /** @return the corpus by id, in file order (immutable) */
    public Map<String, CorpusDocument> corpus() {
        return corpus;
    }

    /** @return the queries that have at least one judgement in the split, in file order (immutable) */
    public List<Query> queries() {
        return queries;
    }

    /** @return how many queries of {@code queries.jsonl} have no judgement in the split */
    public int skippedQueries() {
        return skippedQueries;
    }

    /**
     * The judgements of one query.
     *
     * @param queryId the query id
     * @return corpus id to grade (immutable); empty for an unknown or skipped query
     */
    public Map<String, Integer> judgements(String queryId) {
        return qrels.getOrDefault(queryId, Map.of());
    }

    @Override
    public String toString() {
        return "BeirDataset[split=" + split + ", documents=" + corpus.size() + ", queries=" + queries.size()
                + ", skippedQueries=" + skippedQueries + "]";
    }

    // ------------------------------------------------------------------------------------------------ reading

    private static Map<String, CorpusDocument> readCorpus(Path file) {
        Map<String, CorpusDocument> corpus = new LinkedHashMap<>();
        forEachLine(file, (line, number) -> {
            JsonNode node = parseObject(file, number, line);
            String id = requiredString(file, number, node, "_id");
            String title = optionalString(file, number, node, "title");
            String text = requiredString(file, number, node, "text");
            if (corpus.putIfAbsent(id, new CorpusDocument(id, title, text)) != null) {
                throw malformed(file, number, "duplicate _id '" + id + "'");
            }
        });
        return corpus;
    }

    private static Map<String, String> readQueries(Path file) {
        Map<String, String> queries = new LinkedHashMap<>();
        forEachLine(file, (line, number) -> {
            JsonNode node = parseObject(file, number, line);
            String id = requiredString(file, number, node, "_id");
            String text = requiredString(file, number, node, "text");
            if (queries.putIfAbsent(id, text) != null) {
                throw malformed(file, number, "duplicate _id '" + id + "'");
            }
        });
        return queries;
    }

    private static Map<String, Map<String, Integer>> readQrels(Path file) {
        Map<String, Map<String, Integer>> qrels = new LinkedHashMap<>();
        int[] columns = new int[3];
        boolean[] headerSeen = {false};
        forEachLine(file, (line, number) -> {
            String[] fields = line.split("\t", -1);
            if (!headerSeen[0]) {
                headerSeen[0] = true;
                List<String> names = new ArrayList<>();
                for (String f : fields) {
                    names.add(f.strip());
                }
                String[] wanted = {"query-id", "corpus-id", "score"};
                for (int i = 0; i < wanted.length; i++) {
                    columns[i] = names.indexOf(wanted[i]);
                    if (columns[i] < 0) {
                        throw malformed(file, number, "header lacks column '" + wanted[i]
                                + "'; expected tab-separated query-id, corpus-id, score, got '" + line + "'");
                    }
                }
                return;
            }
            int needed = Math.max(columns[0], Math.max(columns[1], columns[2])) + 1;
            if (fields.length < needed) {
                throw malformed(file, number, "expected " + needed + " tab-separated columns, got "
                        + fields.length + ": '" + line + "'");
            }
            String queryId = fields[columns[0]].strip();
            String corpusId = fields[columns[1]].strip();
            String scoreText = fields[columns[2]].strip();
            if (queryId.isEmpty() || corpusId.isEmpty()) {
                throw malformed(file, number, "empty query-id or corpus-id");
            }
            int score;
            try {
                score = Integer.parseInt(scoreText);
            } catch (NumberFormatException e) {
                throw malformed(file, number, "score must be an integer, got '" + scoreText + "'");
            }
            Map<String, Integer> judgements = qrels.computeIfAbsent(queryId, q -> new LinkedHashMap<>());
            if (judgements.putIfAbsent(corpusId, score) != null) {
                throw malformed(file, number, "duplicate judgement for query '" + queryId + "' and document '"
                        + corpusId + "'");
            }
        });
        if (!headerSeen[0]) {
            throw new IllegalArgumentException(file + ": empty; expected a header line query-id\\tcorpus-id\\tscore");
        }
        return qrels;
    }

    @FunctionalInterface
    private interface LineHandler {
        void accept(String line, int number);
    }

    private static void forEachLine(Path file, LineHandler handler) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file + ": no such file; a BEIR dataset needs corpus.jsonl,"
                    + " queries.jsonl and qrels/<split>.tsv");
        }
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (number == 1 && !line.isEmpty() && line.charAt(0) == '\uFEFF') {
                    line = line.substring(1);
                }
                if (!line.isBlank()) {
                    handler.accept(line, number);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static JsonNode parseObject(Path file, int number, String line) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw malformed(file, number, "malformed JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw malformed(file, number, "expected a JSON object");
        }
        return node;
    }

    private static String requiredString(Path file, int number, JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw malformed(file, number, "missing field '" + field + "'");
        }
        String text = scalar(file, number, value, field);
        if (field.equals("_id") && text.isBlank()) {
            throw malformed(file, number, "blank _id");
        }
        return text;
    }

    private static String optionalString(Path file, int number, JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? "" : scalar(file, number, value, field);
    }

    private static String scalar(Path file, int number, JsonNode value, String field) {
        // BEIR ids are sometimes written as numbers; accept any scalar and use its text.
        if (!value.isValueNode()) {
            throw malformed(file, number, "field '" + field + "' must be a string, got " + value.getNodeType());
        }
        return value.asText();
    }

    private static IllegalArgumentException malformed(Path file, int number, String message) {
        return new IllegalArgumentException(file + ":" + number + ": " + message);
    }
}
