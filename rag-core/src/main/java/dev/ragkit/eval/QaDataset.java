package dev.ragkit.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.audit.AuditRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A question-answering test set for measuring answers end to end: a folder of documents and questions whose answers
 * are known strings in one of them.
 *
 * <pre>
 * dir/documents/...     the documents, any format the indexer reads
 * dir/questions.jsonl   one JSON object per line: {"id", "question", "answers": ["...", ...], "document"}
 *                       ("document" is the path of the document holding the answer, relative to documents/)
 * </pre>
 *
 * To measure whether questions about documents that are <em>not</em> indexed are handed to a person,
 * {@link #leftOut(double)} picks a share of the documents to keep out of the index, by a fixed rule (the documents
 * ordered by the SHA-256 of their path), so every run and every embedder leaves out the same ones. Malformed input
 * throws {@link IllegalArgumentException} naming the file and line. Immutable and thread-safe.
 */
public final class QaDataset {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A question with its known answers.
     *
     * @param id       its id
     * @param text     the question
     * @param answers  strings any one of which is a correct answer (at least one)
     * @param document the path of the document that holds the answer, relative to the documents folder
     */
    public record Question(String id, String text, List<String> answers, String document) {
        /** Validates and copies the arguments. */
        public Question {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(text, "text");
            answers = List.copyOf(answers);
            if (answers.isEmpty()) {
                throw new IllegalArgumentException("question " + id + " has no answer");
            }
            Objects.requireNonNull(document, "document");
        }
    }

    private final Path documents;
    private final List<Question> questions;
    private final List<String> documentPaths;

    private QaDataset(Path documents, List<Question> questions, List<String> documentPaths) {
        this.documents = documents;
        this.questions = List.copyOf(questions);
        this.documentPaths = List.copyOf(documentPaths);
    }

    /**
     * @param dir a folder holding {@code documents/} and {@code questions.jsonl}
     * @return the test set
     * @throws IllegalArgumentException when a file is missing or malformed, or a question names a document that is
     *                                  not in the folder
     */
    public static QaDataset load(Path dir) {
        Path documents = dir.resolve("documents");
        Path questionsFile = dir.resolve("questions.jsonl");
        if (!Files.isDirectory(documents) || !Files.isRegularFile(questionsFile)) {
            throw new IllegalArgumentException(dir + " is not a question-answering set: it needs documents/ and "
                    + "questions.jsonl (see docs/evaluation.md)");
        }
        List<String> paths = new ArrayList<>();
        try (Stream<Path> files = Files.walk(documents)) {
            files.filter(Files::isRegularFile).map(p -> documents.relativize(p).toString().replace('\\', '/'))
                    .sorted().forEach(paths::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + documents, e);
        }
        Set<String> known = new TreeSet<>(paths);
        List<Question> questions = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(questionsFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + questionsFile, e);
        }
        Set<String> ids = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            String where = questionsFile + " line " + (i + 1);
            try {
                JsonNode q = JSON.readTree(line);
                List<String> answers = new ArrayList<>();
                q.path("answers").forEach(a -> answers.add(a.asText()));
                Question question = new Question(text(q, "id", where), text(q, "question", where), answers,
                        text(q, "document", where));
                if (!known.contains(question.document())) {
                    throw new IllegalArgumentException(where + ": document '" + question.document()
                            + "' is not in " + documents);
                }
                if (!ids.add(question.id())) {
                    throw new IllegalArgumentException(where + ": the id '" + question.id() + "' is used twice");
                }
                questions.add(question);
            } catch (IOException e) {
                throw new IllegalArgumentException(where + " is not JSON: " + e.getMessage(), e);
            }
        }
        if (questions.isEmpty()) {
            throw new IllegalArgumentException(questionsFile + " holds no question");
        }
        return new QaDataset(documents, questions, paths);
    }

    private static String text(JsonNode q, String field, String where) {
        JsonNode value = q.get(field);
        if (value == null || !value.isValueNode() || value.asText().isBlank()) {
            throw new IllegalArgumentException(where + ": \"" + field + "\" is missing or blank");
        }
        return value.asText();
    }

    /** @return the folder of documents */
    public Path documents() {
        return documents;
    }

    /** @return the questions, in file order */
    public List<Question> questions() {
        return questions;
    }

    /** @return the documents' paths relative to the folder, sorted */
    public List<String> documentPaths() {
        return documentPaths;
    }

    /**
     * The documents to keep out of the index: the first {@code round(share × documents)} in the order of the SHA-256
     * of their paths (at least one when {@code share > 0}).
     *
     * @param share the share of documents, in [0, 1)
     * @return their paths
     */
    public Set<String> leftOut(double share) {
        if (!(share >= 0 && share < 1)) {
            throw new IllegalArgumentException("the share left out must be in [0, 1), got " + share);
        }
        int n = share == 0 ? 0 : Math.max(1, (int) Math.round(share * documentPaths.size()));
        List<String> ordered = new ArrayList<>(documentPaths);
        ordered.sort(Comparator.comparing(AuditRecord::sha256).thenComparing(p -> p));
        return new TreeSet<>(ordered.subList(0, Math.min(n, ordered.size())));
    }

    @Override
    public String toString() {
        return "QaDataset[" + documents.getParent() + ": " + documentPaths.size() + " documents, " + questions.size()
                + " questions]";
    }
}
