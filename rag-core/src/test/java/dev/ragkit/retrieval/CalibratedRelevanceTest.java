package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class CalibratedRelevanceTest {

    private static final String QUESTION = "How often do the API keys rotate?";
    private static final String[] TEXTS = {"API keys rotate every ninety days.", "Vacation needs approval.",
        "The rotate command replaces a key early.", "Printers are on every floor."};

    /** Hits of {@link #TEXTS} with these cosines (on some embedder's scale) and BM25 scores. */
    private static List<SearchHit> hits(double[] cosines, double[] bm25) {
        return hits(TEXTS, cosines, bm25);
    }

    /** Hits of these texts, one document each, with these cosines and BM25 scores. */
    private static List<SearchHit> hits(String[] texts, double[] cosines, double[] bm25) {
        List<SearchHit> hits = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            StoredDocument d = StoredDocument.builder().tenant("t").path("d" + i + ".md").title("d" + i).build();
            StoredChunk c = new StoredChunk(d.id(), 0, texts[i], null, 8, 1, 1, null, null);
            hits.add(new SearchHit(c, d, cosines[i], bm25[i]));
        }
        return hits;
    }

    @Test
    void relevance_sameEvidenceOnTwoCosineScales_isTheSame() {
        SimilarityScale minilm = new SimilarityScale(0.06, 0.09);
        SimilarityScale bge = new SimilarityScale(0.40, 0.06);
        double[] z = {6, 0.5, 3, -0.5};
        double[] onMinilm = new double[z.length];
        double[] onBge = new double[z.length];
        for (int i = 0; i < z.length; i++) {
            onMinilm[i] = minilm.centre() + z[i] * minilm.spread();
            onBge[i] = bge.centre() + z[i] * bge.spread();
        }
        double[] bm25 = {4.2, 0, 1.3, 0};

        double[] a = RelevanceModel.calibrated(minilm).relevance(QUESTION, hits(onMinilm, bm25),
                RetrievalOptions.chunkQa());
        double[] b = RelevanceModel.calibrated(bge).relevance(QUESTION, hits(onBge, bm25), RetrievalOptions.chunkQa());

        for (int i = 0; i < a.length; i++) {
            assertThat(a[i]).isCloseTo(b[i], within(1e-9));
        }
        // the raw cosines differ a lot: 0.33 against 0.43 for the answer, 0.105 against 0.43 for unrelated text
        assertThat(a[0]).isGreaterThan(0.5);
        assertThat(a[1]).isLessThan(0.1);
        assertThat(a[3]).isLessThan(a[1]);
    }

    @Test
    void relevance_moreOfTheQuestionInASentence_scoresHigher_andKeywordsCountWhenPresent() {
        SimilarityScale scale = new SimilarityScale(0.06, 0.09);
        double[] cosines = {0.4, 0.4, 0.4, 0.4};

        double[] withKeywords = RelevanceModel.calibrated(scale).relevance(QUESTION,
                hits(cosines, new double[] {3, 0, 1, 0}), RetrievalOptions.chunkQa());
        double[] noKeywordIndex = RelevanceModel.calibrated(scale).relevance(QUESTION,
                hits(cosines, new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN}),
                RetrievalOptions.chunkQa());

        assertThat(withKeywords[0]).isGreaterThan(withKeywords[2]).isGreaterThan(withKeywords[1]);
        assertThat(noKeywordIndex[0]).isGreaterThan(noKeywordIndex[1]);
        for (double r : noKeywordIndex) {
            assertThat(r).isBetween(0.0, 1.0);
        }
    }

    @Test
    void signals_sayWhichWordsTheBestPassageLacks() {
        List<SearchHit> hits = hits(new double[] {0.4, 0.1, 0.3, 0.1}, new double[] {2, 0, 1, 0});

        RelevanceSignals s = RelevanceSignals.of("How often do Norman keys rotate?", hits,
                new SimilarityScale(0.06, 0.09));

        assertThat(s.missingFrom(TEXTS[0])).containsExactly("norman");
        assertThat(s.of(0)[1]).isBetween(0.0, 0.99);             // "norman" is missing from the best sentence
        assertThat(s.keywords()).isTrue();
    }

    @Test
    void signals_aSentenceHoldingTheQuestionsWords_holdsItsDocumentsTitleToo() {
        // "What does textwrap.dedent do?" was routed: no passage "mentioned 'textwrap'", the file's name
        List<SearchHit> hits = new ArrayList<>();
        String[][] files = {{"textwrap.py", "def dedent(text):\n    return text"},
            {"textwrap.py", "def indent(text, prefix):\n    return prefix + text"},
            {"other.py", "def dedent(lines):\n    return lines"}};
        for (String[] file : files) {
            StoredDocument d = StoredDocument.builder().tenant("t").path("lib/" + file[0]).title(file[0]).build();
            hits.add(new SearchHit(new StoredChunk(d.id(), 0, file[1], null, 8, 1, 2, null, null), d, 0.4, 1));
        }

        RelevanceSignals s = RelevanceSignals.of("What does textwrap.dedent do?", hits,
                new SimilarityScale(0.06, 0.09));

        assertThat(s.of(0)[1]).isEqualTo(1.0);                  // "dedent" in the sentence, "textwrap" in the title
        assertThat(s.of(1)[1]).isEqualTo(0.0);                  // the title makes no sentence match on its own
        assertThat(s.of(2)[1]).isBetween(0.01, 0.99);           // "dedent" of another module
        // and the reason a hand-off gives reads the title as the coverage does
        assertThat(RelevanceSignals.missingTerms("What does textwrap.dedent do?", hits, 0)).isEmpty();
        assertThat(RelevanceSignals.missingTerms("What does textwrap.dedent do?", hits, 2)).containsExactly("textwrap");

        // a title the question names only in part is another subject: Super Bowl LII is not "Super Bowl LI"
        StoredDocument lii = StoredDocument.builder().tenant("t").path("lii.md").title("Super Bowl LII halftime show")
                .build();
        List<SearchHit> show = List.of(new SearchHit(new StoredChunk(lii.id(), 0, "Justin Timberlake headlined it.",
                null, 8, 1, 1, null, null), lii, 0.4, 1));
        SimilarityScale scale = new SimilarityScale(0.06, 0.09);
        double other = RelevanceSignals.of("Who headlined the halftime show at Super Bowl LI?", show, scale).of(0)[1];
        double named = RelevanceSignals.of("Who headlined the halftime show at Super Bowl LII?", show, scale).of(0)[1];
        assertThat(named).isEqualTo(1.0);
        assertThat(other).isLessThan(0.5);                       // "headlined" alone
    }

    @Test
    void signals_aQuestionAskingForANameIsCoveredByThePassageThatStatesIt() {
        // The answer states the founder; it never says "full name" or "person", words that frame the answer.
        List<SearchHit> hits = hits(new String[] {"Acme Rockets was founded by Jane Doe in 1951.",
            "Green tea is picked in spring."}, new double[] {0.5, 0.1}, new double[] {3, 0});

        RelevanceSignals s = RelevanceSignals.of("What is the full name of the person who founded Acme Rockets?", hits,
                new SimilarityScale(0.06, 0.09));

        assertThat(s.of(0)[1]).isEqualTo(1.0);                  // the whole question is in the sentence
        assertThat(s.missingFrom(hits.get(0).chunk().text())).isEmpty();
        assertThat(s.missingFrom(hits.get(1).chunk().text())).containsExactlyInAnyOrder("founded", "acme", "rockets");
    }
}
