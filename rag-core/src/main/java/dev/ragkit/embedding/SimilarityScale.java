package dev.ragkit.embedding;

import dev.ragkit.error.RagException;
import dev.ragkit.internal.Vectors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.WeakHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an embedder's cosine similarities lie for texts that have nothing to do with each other: their mean
 * ({@code centre}) and standard deviation ({@code spread}). Each model has its own scale — unrelated texts score
 * about 0.06 with all-MiniLM-L6-v2 and about 0.40 with bge-small-en-v1.5 — so a raw similarity means nothing until
 * it is put on this scale: {@link #standardise} says how many spreads above unrelated text a similarity lies, which is
 * comparable across models. Retrieval turns that into a calibrated relevance.
 *
 * <p>An embedder states its scale ({@link Embedder#similarityScale()}); the in-process models ship theirs, measured
 * as the mean and spread of the cosine between questions and random passages of public question-answering sets (see
 * docs/design-notes.md). For any other embedder, {@link #of} measures one with {@link #estimate}: 48 questions, 48
 * passages on unrelated subjects and an answering passage for each question, written for this purpose (every question
 * against every passage of another subject, 2,256 pairs, and against its answer; two embedding calls).
 *
 * @param centre the mean cosine similarity of unrelated texts, in [-1, 1)
 * @param spread their standard deviation (for a measured scale, the unit that puts answering passages where the stated
 *               scales put them; see {@link #estimate}), above 0
 */
public record SimilarityScale(double centre, double spread) {

    private static final String PAIRS = "/dev/ragkit/retrieval/unrelated-pairs.txt";
    private static final double MIN_SPREAD = 1e-6;
    /**
     * Where an embedder without a stated scale is made to put RagKit's answering pairs: the mean of the four
     * in-process models' values for them on their stated scales (7.60, 7.65, 7.64 and 7.75).
     */
    static final double ANSWERING_Z = 7.66;
    private static final Logger LOG = LoggerFactory.getLogger(SimilarityScale.class);
    /** Scales measured by {@link #of}, one per embedder object, so retrieval and the quoted answer's check share it. */
    private static final Map<Embedder, SimilarityScale> MEASURED = Collections.synchronizedMap(new WeakHashMap<>());

    /** Validates the arguments. */
    public SimilarityScale {
        if (!(centre >= -1 && centre < 1)) {
            throw new IllegalArgumentException("centre must be a cosine similarity in [-1, 1), got " + centre);
        }
        if (!(spread > 0 && spread <= 2)) {
            throw new IllegalArgumentException("spread must be above 0 and at most 2, got " + spread);
        }
    }

    /**
     * @param similarity a cosine similarity of this embedder
     * @return how many spreads it lies above unrelated text
     */
    public double standardise(double similarity) {
        return (similarity - centre) / spread;
    }

    /**
     * The embedder's own scale, or one measured with {@link #estimate} when it states none — once per embedder
     * object, kept while the object lives, so that retrieval and the extractive answer's check share one measurement.
     *
     * @param embedder the embedder
     * @return its scale
     * @throws RagException when the embedder fails while measuring
     */
    public static SimilarityScale of(Embedder embedder) {
        SimilarityScale stated = Objects.requireNonNull(embedder, "embedder").similarityScale();
        return stated != null ? stated : MEASURED.computeIfAbsent(embedder, SimilarityScale::estimate);
    }

    /**
     * Measures an embedder's scale on RagKit's own question and passage pairs. The centre is the mean cosine of every
     * question with every passage of another subject (questions embedded as queries, passages as documents). The
     * spread is set by where the embedder puts each question's answering passage: at {@value #ANSWERING_Z} spreads
     * above the centre, where the in-process models' stated scales put the same pairs (7.60 to 7.75). Models differ
     * in how far apart unrelated texts scatter, not only in where they lie, so a spread measured on unrelated text
     * alone inflates one model's values and shrinks another's (docs/design-notes.md, "A scale measured with
     * answers"); two anchors make {@link #standardise} agree with the stated scales on every model tried.
     *
     * @param embedder the embedder
     * @return the measured scale
     * @throws RagException when the embedder fails; vectors that do not vary between unrelated texts get a scale
     *                      on which every similarity is near the centre (logged once per estimate), and an embedder
     *                      that finds answers no nearer than unrelated text gets the unrelated texts' own spread
     */
    public static SimilarityScale estimate(Embedder embedder) {
        Objects.requireNonNull(embedder, "embedder");
        List<String> questions = new ArrayList<>();
        List<String> texts = new ArrayList<>();          // the unrelated passages, then the answers, in one call
        List<String> answers = new ArrayList<>();
        for (String line : pairs()) {
            if (line.startsWith("Q: ")) {
                questions.add(line.substring(3));
            } else if (line.startsWith("P: ")) {
                texts.add(line.substring(3));
            } else if (line.startsWith("A: ")) {
                answers.add(line.substring(3));
            }
        }
        int passages = texts.size();
        texts.addAll(answers);
        float[][] q = embedder.embedQueries(questions);
        float[][] t = embedder.embed(texts);
        double sum = 0;
        double squares = 0;
        int n = 0;
        for (int i = 0; i < q.length; i++) {
            for (int j = 0; j < passages; j++) {
                if (i != j) {
                    double c = Vectors.cosine(q[i], t[j]);
                    sum += c;
                    squares += c * c;
                    n++;
                }
            }
        }
        double mean = sum / n;
        double sd = Math.sqrt(Math.max(0, squares / n - mean * mean));
        if (!(sd > MIN_SPREAD) || !Double.isFinite(mean)) {
            // Vectors that do not vary (a stand-in model, keyword-only evaluation) say nothing about relevance: a
            // unit spread puts every similarity near the centre, so the other signals decide.
            LOG.warn("The embedder {} gives unrelated texts the same similarity (mean {}, spread {}): its "
                    + "similarities will not count towards relevance", embedder.name(), mean, sd);
            return new SimilarityScale(Double.isFinite(mean) ? Math.max(-1, Math.min(mean, 0.999)) : 0, 1);
        }
        double answering = 0;
        for (int i = 0; i < q.length; i++) {
            answering += Vectors.cosine(q[i], t[passages + i]);
        }
        answering /= q.length;
        if (!(answering - mean > sd)) {
            // An embedder that puts answers hardly above unrelated text: its unrelated spread is the safer unit.
            LOG.warn("The embedder {} finds answering passages hardly nearer than unrelated text (mean {} against "
                    + "{}): its similarities are put on the unrelated texts' spread", embedder.name(), answering, mean);
            return new SimilarityScale(mean, sd);
        }
        return new SimilarityScale(mean, (answering - mean) / ANSWERING_Z);
    }

    private static List<String> pairs() {
        try (InputStream in = SimilarityScale.class.getResourceAsStream(PAIRS)) {
            if (in == null) {
                throw new IllegalStateException(PAIRS + " is missing from rag-core's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "SimilarityScale[centre %.4f, spread %.4f]", centre, spread);
    }
}
