package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.audit.AuditRecord;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.grounding.Action;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.retrieval.RelevanceModel;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hand-off holds whatever the embedder's cosine scale: questions about indexed documents are answered and cited,
 * questions about subjects no document covers are routed with the reason, on two embedders whose unrelated texts
 * score about 0.1 and about 0.6 — where one fixed cosine threshold would either route everything or cite everything.
 */
final class AnswerabilityTest {

    private static final Map<String, String> DOCUMENTS = Map.of(
            "leave.md", "# Annual leave\n\nEmployees get 25 days of annual leave each year. Unused leave days expire "
                    + "at the end of March.\n",
            "keys.md", "# API keys\n\nAPI keys rotate every ninety days. The rotate command replaces a key early.\n",
            "backup.md", "# Backups\n\nThe database is backed up every night at two. Backups are kept for thirty "
                    + "days in a second region.\n",
            "parking.md", "# Parking\n\nVisitors park in the garage on level minus two. The garage gate opens with "
                    + "the visitor badge.\n",
            "expenses.md", "# Expenses\n\nTravel expenses are claimed in the finance portal within sixty days. "
                    + "Receipts are scanned and attached.\n",
            "laptops.md", "# Laptops\n\nNew laptops are ordered through the service desk. Delivery takes about "
                    + "five working days.\n");

    /** Questions in the documents' own words: the toy embedder below sees words, not meaning. */
    private static final List<String> ANSWERABLE = List.of("How many days of annual leave do employees get each year?",
            "How often do the API keys rotate?", "When is the database backed up every night?",
            "Which garage level do visitors park on?", "Where are travel expenses claimed, and within how many days?",
            "How are new laptops ordered, and how long does delivery take?");

    /** Questions that share everyday words with the documents (days, year, night, level) but not their subject. */
    private static final List<String> NOT_IN_THE_INDEX = List.of("How many days does the Tour de France last?",
            "Which painter worked every night on the Sistine Chapel ceiling?", "What year did the Berlin Wall fall?",
            "At which level do pandas live in the bamboo forest?", "Which opera did Verdi write last?");

    @TempDir
    Path root;

    /**
     * A hashed bag of content words (stop words left out, no constant component), so that unrelated texts score
     * about 0 and texts sharing words clearly more, as with a real model.
     */
    private static class Plain extends HashedBagOfWordsEmbedder {
        Plain(String name) {
            super(name, 1024);
        }

        @Override
        public float[][] embed(List<String> texts) {
            float[][] out = new float[texts.size()][];
            for (int i = 0; i < out.length; i++) {
                out[i] = vector(String.join(" ", dev.ragkit.internal.KeyTerms.of(texts.get(i))), 1024);
                out[i][0] = 0.01f;                     // never all zero
            }
            return out;
        }
    }

    /** The same pushed towards one shared direction: unrelated texts score about 0.6, like bge's. */
    private static final class Crowded extends Plain {
        Crowded() {
            super("crowded");
        }

        @Override
        public float[][] embed(List<String> texts) {
            float[][] out = super.embed(texts);
            for (float[] v : out) {
                double norm = 0;
                for (float x : v) {
                    norm += x * x;
                }
                for (int i = 0; i < v.length; i++) {
                    v[i] /= (float) Math.sqrt(norm);
                }
                v[0] += 1.2f;                          // the shared direction
            }
            return out;
        }
    }

    /** The plain one stating the scale measured for it, as the in-process models state theirs. */
    private static final class Stated extends Plain {
        private static final SimilarityScale SCALE = SimilarityScale.estimate(new Plain("plain"));

        Stated() {
            super("stated");
        }

        @Override
        public SimilarityScale similarityScale() {
            return SCALE;
        }
    }

    private List<RagResponse> ask(Embedder embedder, RelevanceModel model, List<String> questions,
            List<AuditRecord> audit) throws IOException {
        return ask(embedder, model, EmptyContextPolicy.ROUTE_TO_HUMAN, questions, audit);
    }

    private List<RagResponse> ask(Embedder embedder, RelevanceModel model, EmptyContextPolicy policy,
            List<String> questions, List<AuditRecord> audit) throws IOException {
        for (Map.Entry<String, String> d : DOCUMENTS.entrySet()) {
            Files.writeString(root.resolve(d.getKey()), d.getValue());
        }
        InMemoryDocumentStore store = InMemoryDocumentStore.builder().build();
        Indexer.builder().store(store).embedder(embedder).tenant("acme").build().index(root);
        RagPipeline.Builder builder = RagPipeline.builder().store(store).embedder(embedder)
                .backend(new ExtractiveBackend()).model(ExtractiveBackend.MODEL).selfRating(false)
                .auditSink(audit::add).emptyContextPolicy(policy);
        if (model != null) {
            builder.relevanceModel(model);
        }
        RagPipeline rag = builder.build();
        List<RagResponse> out = new ArrayList<>();
        for (String q : questions) {
            out.add(rag.ask(RagRequest.of(q, Scope.of("acme"))));
        }
        return out;
    }

    @Test
    void embedders_differInCosineScale() {
        SimilarityScale plain = SimilarityScale.estimate(new Plain("plain"));
        SimilarityScale crowded = SimilarityScale.estimate(new Crowded());

        assertThat(plain.centre()).isLessThan(0.2);
        assertThat(crowded.centre()).isGreaterThan(0.5);
    }

    @Test
    void ask_calibratedRelevance_citesAnswerableAndRoutesTheRest_onBothScales() throws IOException {
        for (Embedder embedder : List.of(new Plain("plain"), new Crowded(), new Stated())) {
            List<AuditRecord> audit = new ArrayList<>();
            List<RagResponse> answered = ask(embedder, null, ANSWERABLE, audit);
            List<RagResponse> routed = ask(embedder, null, NOT_IN_THE_INDEX, audit);

            assertThat(answered).as(embedder.name()).allSatisfy(r -> {
                assertThat(r.action()).isEqualTo(Action.CITE);
                assertThat(r.citations()).isNotEmpty();
                // the quoted sentences are compared with the question, on the scale the embedder states or on one
                // measured for it
                assertThat(r.confidence().explanation()).contains("being the similarity of the")
                        .doesNotContain("similarity to the question unknown");
            });
            // a toy model sees words, not meaning: to it "worked every night" in a question about the Sistine Chapel is
            // near "The database is backed up every night", and on a stated scale a second look (Planner) cites it; on
            // real models a second look cited 2 of about 1,000 left-out questions (docs/design-notes.md, "A second
            // look"). A left-out question is cited by nothing else.
            assertThat(routed).as(embedder.name()).filteredOn(r -> r.action() == Action.CITE)
                    .hasSizeLessThanOrEqualTo(embedder instanceof Stated ? 1 : 0)
                    .allSatisfy(r -> assertThat(r.confidence().explanation()).contains("; a second look: "));
            routed = routed.stream().filter(r -> r.action() == Action.ROUTE).toList();
            // most are stopped before any answer, saying which of their words no passage mentions, in the response
            // and the audit record; a question whose words all occur somewhere is answered, then routed for its
            // low confidence
            List<RagResponse> unsupported = routed.stream()
                    .filter(r -> r.answer().equals(RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED)).toList();
            assertThat(unsupported).as(embedder.name()).hasSizeGreaterThanOrEqualTo(routed.size() - 1)
                    .allSatisfy(r -> {
                        assertThat(r.citations()).isEmpty();
                        assertThat(r.routeTo().reason()).contains("below the 0.30 required", "does not mention");
                    });
            assertThat(audit.subList(ANSWERABLE.size(), audit.size())).extracting(AuditRecord::reason)
                    .filteredOn(reason -> reason != null && reason.contains("does not mention"))
                    .hasSize(unsupported.size());
        }
    }

    @Test
    void ask_nothingReachesTheBar_aSecondLookCitesConfidentQuotesAndRoutesTheRestAsBefore() throws IOException {
        // every passage under the bar of 0.30, above the second look's 0.16: the quotes' own check decides
        RelevanceModel under = (query, hits, options) -> hits.stream().mapToDouble(h -> 0.25).toArray();
        List<AuditRecord> audit = new ArrayList<>();

        List<RagResponse> answered = ask(new Stated(), under, ANSWERABLE, audit);
        List<RagResponse> routed = ask(new Stated(), under, NOT_IN_THE_INDEX, audit);

        assertThat(answered).filteredOn(r -> r.action() == Action.CITE).hasSizeGreaterThanOrEqualTo(
                ANSWERABLE.size() - 1).allSatisfy(r -> {
                    assertThat(r.citations()).isNotEmpty();
                    assertThat(r.confidence().explanation()).contains("; a second look: The best passage found has "
                            + "relevance 0.25, below the 0.30 required");
                });
        // an answer the check is not confident in changes nothing: routed as without the second look, for the reason
        // the first retrieval gave, with no draft and no citation (the toy model's one left-out question it is
        // confident in: see the test above)
        assertThat(routed).filteredOn(r -> r.action() == Action.ROUTE).hasSize(NOT_IN_THE_INDEX.size() - 1)
                .allSatisfy(r -> {
                    assertThat(r.answer()).isEqualTo(RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED);
                    assertThat(r.citations()).isEmpty();
                    assertThat(r.routeTo().reason()).contains("relevance 0.25, below the 0.30 required");
                });
        // no second look under its floor, on a scale measured rather than stated, or when the policy declines
        RelevanceModel lower = (query, hits, options) -> hits.stream().mapToDouble(h -> 0.15).toArray();
        assertThat(ask(new Stated(), lower, ANSWERABLE, audit)).extracting(RagResponse::answer)
                .containsOnly(RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED);
        assertThat(ask(new Plain("plain"), under, ANSWERABLE, audit)).extracting(RagResponse::answer)
                .containsOnly(RagPipeline.NOT_ENOUGH_INFORMATION_ROUTED);
        assertThat(ask(new Stated(), under, EmptyContextPolicy.DECLINE, ANSWERABLE, audit))
                .extracting(RagResponse::action).containsOnly(Action.DECLINE);
    }

    @Test
    void ask_rawCosineThreshold_citesQuestionsNoDocumentAnswers_onTheCrowdedScale() throws IOException {
        // what the calibration fixes: 0.3 on the raw cosine lets everything through when unrelated texts score 0.6
        List<RagResponse> routed = ask(new Crowded(), RelevanceModel.fused(), NOT_IN_THE_INDEX, new ArrayList<>());

        assertThat(routed).extracting(RagResponse::action).contains(Action.CITE);
    }
}
