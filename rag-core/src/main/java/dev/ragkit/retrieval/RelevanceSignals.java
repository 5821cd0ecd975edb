package dev.ragkit.retrieval;

import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.internal.CodeLanguages;
import dev.ragkit.internal.QueryTerms;
import dev.ragkit.internal.Sentences;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The three signals the calibrated {@link RelevanceModel} weighs, for each of a question's hits: the similarity on
 * the embedder's scale, the question coverage of the hit's best sentence, and the keyword score relative to the best
 * one (see {@link #of}). Public so that the weights can be fitted again on other data ({@code ragkit eval
 * --signals}). Immutable.
 */
public final class RelevanceSignals {

    private final Map<String, String> asked;
    private final Map<String, Double> weights;
    private final double[][] values;
    private final boolean keywords;

    private RelevanceSignals(String query, List<SearchHit> hits, SimilarityScale scale) {
        this.asked = QueryTerms.words(query);
        Set<String> terms = asked.keySet();
        List<List<Set<String>>> sentences = new ArrayList<>(hits.size());
        List<Set<String>> passages = new ArrayList<>(hits.size());
        double bestKeyword = 0;
        for (SearchHit hit : hits) {
            List<Set<String>> perSentence = new ArrayList<>();
            Set<String> all = new HashSet<>();
            // a document the question names by its title is what every sentence of it is about: its title lifts a
            // sentence that matches, and makes none match ("What does textwrap.dedent do?" meets "def dedent(text):"
            // of textwrap.py); a title the question names in part ("Super Bowl LII" for "Super Bowl LI") lifts nothing
            Set<String> titled = titleWords(hit.document(), terms);
            for (Sentences.Sentence s : Sentences.of(hit.chunk().text(), hit.chunk().section(),
                    Sentences.Layout.of(hit.document()))) {
                Set<String> t = QueryTerms.inPassage(s.read());
                t.retainAll(terms);
                if (!t.isEmpty()) {
                    t.addAll(titled);
                }
                perSentence.add(t);
                all.addAll(t);
            }
            sentences.add(perSentence);
            passages.add(all);
            bestKeyword = hit.keywordScore() > bestKeyword ? hit.keywordScore() : bestKeyword;
        }
        this.weights = QueryTerms.rarity(terms, passages);
        this.keywords = bestKeyword > 0;
        this.values = new double[hits.size()][];
        for (int i = 0; i < hits.size(); i++) {
            SearchHit hit = hits.get(i);
            double z = Double.isNaN(hit.similarity()) ? 0 : scale.standardise(hit.similarity());
            double keyword = keywords && hit.keywordScore() > 0 ? hit.keywordScore() / bestKeyword : 0;
            values[i] = new double[] {z, coverage(sentences.get(i)), keyword};
        }
    }

    /**
     * Measures the signals of each hit:
     * <ol>
     *   <li>{@code z}: the cosine similarity on the embedder's {@link SimilarityScale} (0 without one);</li>
     *   <li>{@code coverage}: the share of the question's weight that the hit's best sentence ({@link Sentences})
     *       holds (a table row read under its header row; a sentence that holds any of the question's words, with
     *       the words of its document's title when the question names the whole title) — the question's content
     *       words, each weighted by its rarity among the hits,
     *       {@code ln((hits + 1) / (hits containing it + 0.5))};</li>
     *   <li>{@code keyword}: the BM25 score over the best BM25 score among the hits (0 without one).</li>
     * </ol>
     *
     * @param query the question
     * @param hits  the store's hits for it
     * @param scale the embedder's similarity scale
     * @return the signals
     */
    public static RelevanceSignals of(String query, List<SearchHit> hits, SimilarityScale scale) {
        return new RelevanceSignals(Objects.requireNonNull(query, "query"), Objects.requireNonNull(hits, "hits"),
                Objects.requireNonNull(scale, "scale"));
    }

    /**
     * @param hit the index of a hit
     * @return its {@code z}, {@code coverage} and {@code keyword} signals
     */
    public double[] of(int hit) {
        return values[hit].clone();
    }

    /** @return whether any hit has a keyword score (the store has a keyword index and the words matched) */
    public boolean keywords() {
        return keywords;
    }

    /**
     * @param text a passage
     * @return the question's words (as asked) that the passage lacks, the rarest among the hits first
     */
    public List<String> missingFrom(String text) {
        return missing(asked, weights, QueryTerms.inPassage(text));
    }

    /**
     * The question's words that one of its hits lacks, the rarest among the hits first; it needs no similarity, so
     * any relevance model's retrieval can say why its best hit fell short.
     *
     * @param query the question
     * @param hits  its hits
     * @param best  the index of the hit
     * @return the missing words as asked
     */
    static List<String> missingTerms(String query, List<SearchHit> hits, int best) {
        Map<String, String> asked = QueryTerms.words(query);
        List<Set<String>> passages = new ArrayList<>(hits.size());
        for (SearchHit hit : hits) {
            passages.add(QueryTerms.inPassage(hit.chunk().text()));
        }
        Map<String, Double> weights = QueryTerms.rarity(asked.keySet(), passages);
        Set<String> present = passages.get(best);
        if (present.stream().anyMatch(asked::containsKey)) {        // as the coverage reads it: with a named title
            present.addAll(titleWords(hits.get(best).document(), asked.keySet()));
        }
        return missing(asked, weights, present);
    }

    private static List<String> missing(Map<String, String> asked, Map<String, Double> weights, Set<String> present) {
        List<String> missing = new ArrayList<>();
        for (String term : asked.keySet()) {
            if (!present.contains(term)) {
                missing.add(term);
            }
        }
        missing.sort(Comparator.comparingDouble((String t) -> -weights.get(t)).thenComparing(t -> t));
        return missing.stream().map(asked::get).toList();
    }

    /**
     * The question's words that a document's title holds, when the question names the whole title (a file's name
     * without its extension); none otherwise.
     */
    private static Set<String> titleWords(StoredDocument document, Set<String> asked) {
        String title = document.title();
        String extension = CodeLanguages.extension(document.path());
        if (!extension.isEmpty() && title.toLowerCase(Locale.ROOT).endsWith("." + extension)) {
            title = title.substring(0, title.length() - extension.length() - 1);
        }
        Set<String> words = QueryTerms.names(asked, title) ? QueryTerms.inPassage(document.title()) : new HashSet<>();
        words.retainAll(asked);
        return words;
    }

    private double coverage(List<Set<String>> sentences) {
        double best = 0;
        for (Set<String> sentence : sentences) {
            best = Math.max(best, QueryTerms.coverage(weights, sentence));
        }
        return best;
    }
}
