package dev.ragkit.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fits the weights of RagKit's calibrated relevance model ({@code CalibratedRelevance}) again, from the relevance
 * signals that {@code ragkit eval <qa-set> --signals <file>} writes: one JSON line per question with its hits, each
 * hit {@code [z, coverage, keyword, holdsAnswer]}. Logistic regression with a small L2 penalty by gradient descent on
 * standardised signals, over each question's candidates (its best 15 hits by similarity and its best 15 by keyword
 * score), on the even-numbered questions of every file together; then, per file, on the odd-numbered
 * ones (held out), how well the best hit's relevance separates questions whose document was indexed from questions
 * whose document was left out (AUC) and what a threshold of 0.3 does.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.RelevanceFit [--without-keywords] signals.jsonl...
 * java -cp benchmarks/target/benchmarks.jar dev.ragkit.benchmarks.RelevanceFit --quoted details.jsonl...
 * </pre>
 *
 * Prints the weights of z, coverage and keyword (0 with {@code --without-keywords}) and the bias, in the order
 * {@code CalibratedRelevance} holds them. With {@code --quoted}, fits the extractive answer's confidence instead
 * ({@code HybridConfidenceScorer.QUOTED}) from the {@code --details} files: on the questions that passed the relevance
 * bar, whether the lines the answer cites hold a known answer, from the relevance of the quoted blocks.
 */
public final class RelevanceFit {

    private static final double L2 = 1e-2;
    private static final int STEPS = 3000;
    private static final double RATE = 0.5;

    private RelevanceFit() {
    }

    /** One question: the signals of its hits, which hold the answer, and whether its document was indexed. */
    private record Question(double[][] hits, boolean[] gold, boolean answerable, int number) {
    }

    /**
     * @param args {@code [--without-keywords] file...}
     * @throws IOException when a file cannot be read
     */
    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("--quoted")) {
            quoted(java.util.Arrays.stream(args, 1, args.length).map(Path::of).toList());
            return;
        }
        boolean withoutKeywords = args.length > 0 && args[0].equals("--without-keywords");
        List<Path> files = new ArrayList<>();
        for (int i = withoutKeywords ? 1 : 0; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        if (files.isEmpty()) {
            System.err.println("usage: RelevanceFit [--without-keywords] signals.jsonl...");
            System.exit(2);
        }
        int features = withoutKeywords ? 2 : 3;
        List<List<Question>> sets = new ArrayList<>();
        List<double[]> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Path file : files) {
            List<Question> questions = read(file);
            sets.add(questions);
            for (Question q : questions) {
                if (q.number() % 2 == 0) {
                    for (int h : candidates(q)) {
                        x.add(java.util.Arrays.copyOf(q.hits()[h], features));
                        y.add(q.gold()[h] ? 1.0 : 0.0);
                    }
                }
            }
        }
        double[] w = fit(x, y, features);
        System.out.printf(Locale.ROOT, "weights z %.3f, coverage %.3f, keyword %.3f, bias %.3f (%d hits of %d "
                + "questions)%n", w[0], w[1], withoutKeywords ? 0 : w[2], w[features], x.size(),
                sets.stream().mapToInt(List::size).sum() / 2);
        for (int f = 0; f < files.size(); f++) {
            List<Double> in = new ArrayList<>();
            List<Double> out = new ArrayList<>();
            for (Question q : sets.get(f)) {
                if (q.number() % 2 == 1) {
                    double best = 0;
                    for (double[] h : q.hits()) {
                        best = Math.max(best, relevance(w, h, features));
                    }
                    (q.answerable() ? in : out).add(best);
                }
            }
            System.out.printf(Locale.ROOT, "%s: held out %d answerable, %d left out; AUC %.3f; at 0.3: %.3f of "
                    + "left-out routed, %.3f of answerable pass%n", files.get(f).getFileName(), in.size(), out.size(),
                    auc(in, out), share(out, v -> v < 0.3), share(in, v -> v >= 0.3));
        }
    }

    /** Fits the extractive answer's confidence on the questions that passed the relevance bar. */
    private static void quoted(List<Path> files) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<double[]> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Path file : files) {
            for (String line : Files.readAllLines(file)) {
                JsonNode q = line.isBlank() ? null : json.readTree(line);
                if (q == null || !q.path("explanation").asText().startsWith("extractive answer")) {
                    continue;                                    // routed before an answer: no quote to score
                }
                x.add(new double[] {q.get("retrieval").asDouble()});
                y.add(q.get("answerable").asBoolean() && q.get("citedHit").asBoolean() ? 1.0 : 0.0);
            }
        }
        double[] w = fit(x, y, 1);
        List<Double> hit = new ArrayList<>();
        List<Double> miss = new ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            (y.get(i) == 1 ? hit : miss).add(relevance(w, x.get(i), 1));
        }
        System.out.printf(Locale.ROOT, "weights retrieval %.3f, bias %.3f (%d answers, %.3f with the answer in the "
                + "cited lines); AUC %.3f; at 0.6: %.3f of those and %.3f of the others pass%n", w[0], w[1], x.size(),
                hit.size() / (double) x.size(), auc(hit, miss), share(hit, v -> v >= 0.6), share(miss, v -> v >= 0.6));
    }

    /**
     * The hits a threshold decides about: the best {@value #CANDIDATES} by similarity and the best by keyword score
     * (the store's own rankings), not the long tail of a union of two searches. The share of gold among them, and so
     * the bias, is what it is among the passages retrieval weighs.
     */
    private static java.util.Set<Integer> candidates(Question q) {
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        for (int signal : new int[] {0, 2}) {
            Integer[] order = new Integer[q.hits().length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (a, b) -> Double.compare(q.hits()[b][signal], q.hits()[a][signal]));
            for (int i = 0; i < Math.min(CANDIDATES, order.length); i++) {
                out.add(order[i]);
            }
        }
        return out;
    }

    /** Hits per ranking a threshold decides about: as many as the retriever's candidates (15). */
    private static final int CANDIDATES = 15;

    private static List<Question> read(Path file) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Question> questions = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode q = json.readTree(line);
            JsonNode hits = q.get("hits");
            double[][] signals = new double[hits.size()][3];
            boolean[] gold = new boolean[hits.size()];
            for (int h = 0; h < hits.size(); h++) {
                for (int s = 0; s < 3; s++) {
                    signals[h][s] = hits.get(h).get(s).asDouble();
                }
                gold[h] = hits.get(h).get(3).asInt() == 1;
            }
            questions.add(new Question(signals, gold, q.get("answerable").asBoolean(), questions.size()));
        }
        return questions;
    }

    /** Gradient descent on standardised signals; returns the weights in the signals' own units, bias last. */
    private static double[] fit(List<double[]> x, List<Double> y, int features) {
        int n = x.size();
        double[] mean = new double[features];
        double[] sd = new double[features];
        for (double[] row : x) {
            for (int f = 0; f < features; f++) {
                mean[f] += row[f] / n;
            }
        }
        for (double[] row : x) {
            for (int f = 0; f < features; f++) {
                sd[f] += (row[f] - mean[f]) * (row[f] - mean[f]) / n;
            }
        }
        for (int f = 0; f < features; f++) {
            sd[f] = Math.sqrt(sd[f]) + 1e-9;
        }
        double[] w = new double[features + 1];
        for (int step = 0; step < STEPS; step++) {
            double[] grad = new double[features + 1];
            for (int i = 0; i < n; i++) {
                double logit = w[features];
                for (int f = 0; f < features; f++) {
                    logit += w[f] * (x.get(i)[f] - mean[f]) / sd[f];
                }
                double error = 1 / (1 + Math.exp(-logit)) - y.get(i);
                for (int f = 0; f < features; f++) {
                    grad[f] += error * (x.get(i)[f] - mean[f]) / sd[f] / n;
                }
                grad[features] += error / n;
            }
            for (int f = 0; f < features; f++) {
                w[f] -= RATE * (grad[f] + L2 * w[f]);
            }
            w[features] -= RATE * grad[features];
        }
        double[] raw = new double[features + 1];
        raw[features] = w[features];
        for (int f = 0; f < features; f++) {
            raw[f] = w[f] / sd[f];
            raw[features] -= w[f] * mean[f] / sd[f];
        }
        return raw;
    }

    private static double relevance(double[] w, double[] signals, int features) {
        double logit = w[features];
        for (int f = 0; f < features; f++) {
            logit += w[f] * signals[f];
        }
        return 1 / (1 + Math.exp(-logit));
    }

    private static double auc(List<Double> positive, List<Double> negative) {
        double wins = 0;
        for (double p : positive) {
            for (double q : negative) {
                wins += p > q ? 1 : p == q ? 0.5 : 0;
            }
        }
        return wins / Math.max(1, (double) positive.size() * negative.size());
    }

    private static double share(List<Double> values, java.util.function.DoublePredicate test) {
        return values.isEmpty() ? Double.NaN : values.stream().filter(test::test).count() / (double) values.size();
    }
}
