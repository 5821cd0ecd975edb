package dev.ragkit.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns a question-answering file in the SQuAD JSON layout ({@code data[].paragraphs[].context/qas}) into the
 * question-answering set {@code ragkit eval} reads: {@code documents/} with one markdown file per article (its title as
 * a heading, each line of its contexts a paragraph) and {@code questions.jsonl}. Used for the sets in
 * {@code benchmarks/datasets/qa/README.md} (MLQA, Quoref, COVID-QA, TyDi QA, Natural Questions); see there for where
 * each file comes from.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.QaSetFromSquad &lt;file.json&gt; &lt;out-dir&gt;
 *      [--min-questions N] [--articles N] [--seed N] [--all-spans] [--merge-titles]
 * </pre>
 *
 * <ul>
 *   <li>{@code --min-questions N}: only articles with at least N usable questions (default 1);</li>
 *   <li>{@code --articles N}: at most N of them, picked by a shuffle seeded with {@code --seed} (default 7);</li>
 *   <li>{@code --all-spans}: the answers of a question are parts that all make up its answer (Quoref) rather than
 *       alternatives (SQuAD, MLQA): a question with more than one is left out;</li>
 *   <li>{@code --merge-titles}: entries with the same title are one article (TyDi QA's English dev repeats 27 titles
 *       with other passages); without it, two titles that make one file name are an error.</li>
 * </ul>
 * An article without a title (COVID-QA) takes the first line of its context as the title and {@code document_id} as
 * its file name. Questions whose answer is not in the written document (white space aside) are left out and counted.
 */
public final class QaSetFromSquad {

    private QaSetFromSquad() {
    }

    /** One article: its file name, its markdown text and its questions. */
    private record Article(String name, String text, List<ObjectNode> questions) {
    }

    /**
     * @param args {@code <file.json> <out-dir> [options]}
     * @throws IOException when a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: QaSetFromSquad <file.json> <out-dir> [--min-questions N] [--articles N] "
                    + "[--seed N] [--all-spans] [--merge-titles]");
            System.exit(2);
        }
        int minQuestions = 1;
        int maxArticles = Integer.MAX_VALUE;
        long seed = 7;
        boolean allSpans = false;
        boolean mergeTitles = false;
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--min-questions" -> minQuestions = Integer.parseInt(args[++i]);
                case "--articles" -> maxArticles = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--all-spans" -> allSpans = true;
                case "--merge-titles" -> mergeTitles = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode data = json.readTree(Path.of(args[0]).toFile()).get("data");
        if (mergeTitles) {
            data = mergedByTitle(json, data);
        }
        List<Article> articles = new ArrayList<>();
        int dropped = 0;
        for (JsonNode a : data) {
            List<String> lines = new ArrayList<>();
            List<ObjectNode> questions = new ArrayList<>();
            for (JsonNode p : a.get("paragraphs")) {
                for (String line : p.get("context").asText().split("\n")) {
                    if (!line.isBlank()) {
                        lines.add(line.strip());
                    }
                }
                for (JsonNode q : p.get("qas")) {
                    Set<String> answers = new LinkedHashSet<>();
                    q.get("answers").forEach(ans -> {
                        if (!ans.get("text").asText().isBlank()) {
                            answers.add(ans.get("text").asText().strip());
                        }
                    });
                    if (answers.isEmpty() || (allSpans && answers.size() > 1)) {
                        continue;
                    }
                    ObjectNode out = json.createObjectNode();
                    out.put("id", q.get("id").asText());
                    out.put("question", q.get("question").asText().strip());
                    out.set("answers", json.valueToTree(new ArrayList<>(answers)));
                    questions.add(out);
                }
            }
            String title;
            String name;
            if (a.hasNonNull("title")) {
                title = a.get("title").asText().replace('_', ' ');
                name = slug(title);
            } else {
                title = lines.remove(0).replaceAll(",$", "").strip();
                name = "article-" + a.get("paragraphs").get(0).path("document_id")
                        .asText(String.valueOf(articles.size()));
            }
            String text = "# " + title + "\n\n" + String.join("\n\n", lines) + "\n";
            String flat = text.replaceAll("\\s+", " ");
            List<ObjectNode> kept = new ArrayList<>();
            for (ObjectNode q : questions) {
                List<String> found = new ArrayList<>();
                q.get("answers").forEach(ans -> {
                    if (flat.contains(ans.asText().replaceAll("\\s+", " "))) {
                        found.add(ans.asText());
                    }
                });
                if (found.isEmpty()) {
                    dropped++;
                } else {
                    q.set("answers", json.valueToTree(found));
                    q.put("document", name + ".md");
                    kept.add(q);
                }
            }
            if (kept.size() >= minQuestions) {
                articles.add(new Article(name + ".md", text, kept));
            }
        }
        Collections.shuffle(articles, new Random(seed));
        TreeMap<String, Article> chosen = new TreeMap<>();
        for (Article a : articles.subList(0, Math.min(maxArticles, articles.size()))) {
            if (chosen.putIfAbsent(a.name(), a) != null) {
                throw new IllegalStateException("two articles make the file name " + a.name());
            }
        }
        Path out = Path.of(args[1]);
        Files.createDirectories(out.resolve("documents"));
        int count = 0;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out.resolve("questions.jsonl"),
                StandardCharsets.UTF_8))) {
            for (Article a : chosen.values()) {
                Files.writeString(out.resolve("documents").resolve(a.name()), a.text(), StandardCharsets.UTF_8);
                for (ObjectNode q : a.questions()) {
                    w.println(json.writeValueAsString(q));
                    count++;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d articles, %d questions (%d left out: answer not in the document)%n",
                chosen.size(), count, dropped);
    }

    /** One article per title, holding the paragraphs of every entry with that title, in the order they come. */
    private static JsonNode mergedByTitle(ObjectMapper json, JsonNode data) {
        Map<String, ObjectNode> byTitle = new LinkedHashMap<>();
        for (JsonNode a : data) {
            ObjectNode merged = byTitle.computeIfAbsent(a.get("title").asText(), t -> {
                ObjectNode n = json.createObjectNode();
                n.put("title", t);
                n.putArray("paragraphs");
                return n;
            });
            ((ArrayNode) merged.get("paragraphs")).addAll((ArrayNode) a.get("paragraphs"));
        }
        return json.valueToTree(new ArrayList<>(byTitle.values()));
    }

    private static String slug(String title) {
        String s = title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return s.length() > 60 ? s.substring(0, 60) : s;
    }
}
