package dev.ragkit.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.eval.AnswerEvaluator;
import dev.ragkit.eval.AnswerReport;
import dev.ragkit.eval.QaDataset;
import dev.ragkit.grounding.Citation;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.retrieval.RelevanceSignals;
import dev.ragkit.retrieval.RetrievalOptions;
import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.SearchRequest;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code ragkit eval} on a question-answering set ({@link QaDataset}): indexes its documents but a share left out, as
 * {@code ragkit index} would, asks every question as {@code ragkit ask} and {@code rag_query} would (extractive
 * answers), and reports answer-hit, cited-hit and the CITE and ROUTE rates, for questions about indexed documents and
 * about left-out ones.
 */
final class AnswerEval {
    private static final String TENANT = "eval";
    /** As many hits as the retriever asks the store for, so the written signals are the ones it weighs. */
    private static final int SIGNAL_HITS = 50;

    private final CliContext context;
    private final ObjectMapper json = new ObjectMapper();

    AnswerEval(CliContext context) {
        this.context = context;
    }

    /**
     * @param dataset     the questions and documents
     * @param embedder    the embedder
     * @param name        its name, for the report
     * @param chunkTokens the chunk size, or {@code null} for what {@code ragkit index} uses
     * @param leaveOut    the share of documents kept out of the index
     * @param options     the retrieval options of the answers
     * @param details     where to write each question's outcome as JSON lines, or {@code null}
     * @param signals     where to write the relevance signals of each hit as JSON lines, or {@code null}
     */
    void run(QaDataset dataset, Embedder embedder, String name, @Nullable Integer chunkTokens, double leaveOut,
            RetrievalOptions options, @Nullable Path details, @Nullable Path signals) throws IOException {
        Set<String> leftOut = dataset.leftOut(leaveOut);
        try (InMemoryDocumentStore store = InMemoryDocumentStore.builder().build()) {
            long start = System.nanoTime();
            IndexReport indexed = Indexer.builder().store(store).embedder(embedder).tenant(TENANT).pathPrefix("")
                    .chunker(IndexCommand.chunker(chunkTokens, embedder)).exclude(new ArrayList<>(leftOut)).build()
                    .index(dataset.documents());
            double seconds = (System.nanoTime() - start) / 1e9;
            RagPipeline pipeline = CliPipeline.builder(context.config(), store, embedder,
                    Backends.extractive("ragkit eval measures extractive answers"), options).build();
            Map<String, RagResponse> responses = new HashMap<>();
            AnswerReport report = AnswerEvaluator.evaluate(dataset, leftOut, q -> {
                RagResponse r = pipeline.ask(RagRequest.of(q.text(), Scope.of(TENANT)));
                responses.put(q.id(), r);
                return r;
            }, new CitedLines(dataset.documents())::text);
            print(dataset, name, IndexCommand.chunker(chunkTokens, embedder), leftOut, indexed, seconds, report);
            if (details != null) {
                writeDetails(details, dataset, report, responses);
            }
            if (signals != null) {
                writeSignals(signals, dataset, leftOut, store, embedder);
            }
        }
    }

    private void print(QaDataset dataset, String name, TokenWindowChunker chunker, Set<String> leftOut,
            IndexReport indexed, double seconds, AnswerReport r) {
        PrintWriter out = context.out;
        out.printf(Locale.ROOT, "%s, %s embeddings, chunks of %d tokens (%s), extractive answers%n", dataset, name,
                chunker.maxTokens(), chunker.counter().name());
        out.printf(Locale.ROOT, "indexed     %d documents (%d left out), %,d chunks in %.1f s (%.1f documents/s)%n",
                indexed.filesIndexed(), leftOut.size(), indexed.chunks(), seconds,
                indexed.filesIndexed() / Math.max(seconds, 1e-9));
        out.printf(Locale.ROOT, "answerable  %d questions: answer-hit %.3f, cited-hit %.3f, CITE %.3f, ROUTE %.3f%n",
                r.answerable(), r.answerHit(), r.citedHit(), r.cited(), r.routed());
        out.printf(Locale.ROOT, "left out    %d questions: ROUTE %.3f, CITE %.3f (%.3f with a known answer in the "
                + "cited lines)%n", r.leftOut(), r.leftOutRouted(), r.leftOutCited(),
                r.leftOutCitedHit());
        out.printf(Locale.ROOT, "latency     p50 %.1f ms, p95 %.1f ms per question%n",
                r.latencyP50().toNanos() / 1e6, r.latencyP95().toNanos() / 1e6);
    }

    private void writeDetails(Path file, QaDataset dataset, AnswerReport report, Map<String, RagResponse> responses)
            throws IOException {
        Map<String, QaDataset.Question> questions = new HashMap<>();
        dataset.questions().forEach(q -> questions.put(q.id(), q));
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(context.resolve(file.toString()),
                StandardCharsets.UTF_8))) {
            for (AnswerReport.Outcome o : report.perQuestion()) {
                QaDataset.Question q = questions.get(o.id());
                RagResponse r = responses.get(o.id());
                ObjectNode n = json.createObjectNode();
                n.put("id", o.id());
                n.put("question", q.text());
                n.put("document", q.document());
                n.put("answerable", o.answerable());
                n.set("answers", json.valueToTree(q.answers()));
                n.put("action", o.action().name());
                n.put("answerHit", o.answerHit());
                n.put("citedHit", o.citedHit());
                n.put("confidence", o.confidence());
                n.put("retrieval", r.confidence().retrieval());
                n.put("coverage", r.confidence().coverage());
                n.put("explanation", r.confidence().explanation());
                n.put("reason", o.reason());
                n.put("answer", r.answer());
                ArrayNode citations = n.putArray("citations");
                for (Citation c : r.citations()) {
                    citations.add(c.location() + (c.section() == null ? "" : " > " + c.section()));
                }
                w.println(json.writeValueAsString(n));
            }
        }
    }

    /** Each question's hits as the retriever fetches them, their relevance signals, whether they hold an answer. */
    private void writeSignals(Path file, QaDataset dataset, Set<String> leftOut, InMemoryDocumentStore store,
            Embedder embedder) throws IOException {
        SimilarityScale scale = SimilarityScale.of(embedder);
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(context.resolve(file.toString()),
                StandardCharsets.UTF_8))) {
            for (QaDataset.Question q : dataset.questions()) {
                float[] vector = embedder.embedQueries(List.of(q.text()))[0];
                List<SearchHit> hits = store.search(SearchRequest.builder(Scope.of(TENANT)).vector(vector)
                        .text(q.text()).k(SIGNAL_HITS).build());
                RelevanceSignals s = RelevanceSignals.of(q.text(), hits, scale);
                ObjectNode n = json.createObjectNode();
                n.put("id", q.id());
                n.put("answerable", !leftOut.contains(q.document()));
                n.put("keywords", s.keywords());
                ArrayNode rows = n.putArray("hits");
                for (int i = 0; i < hits.size(); i++) {
                    SearchHit h = hits.get(i);
                    ArrayNode row = rows.addArray();
                    for (double v : s.of(i)) {
                        row.add(v);
                    }
                    row.add(h.document().path().equals(q.document())
                            && AnswerEvaluator.holdsAnswer(h.chunk().text(), q.answers()) ? 1 : 0);
                }
                w.println(json.writeValueAsString(n));
            }
        }
    }

    /** The text of the lines a citation names, read from the document as the indexer parsed it. */
    private static final class CitedLines {
        private final Path root;
        private final DocumentParsers parsers = DocumentParsers.standard();
        private final Map<String, ParsedDocument> parsed = new HashMap<>();

        CitedLines(Path root) {
            this.root = root;
        }

        String text(Citation c) {
            ParsedDocument d = parsed.computeIfAbsent(c.path(), this::parse);
            List<String> lines = d.lines();
            int first = d.paged() ? firstOfPage(d, c) : 0;
            int from = Math.max(0, first + c.startLine() - 1);
            int to = Math.min(lines.size(), first + c.endLine());
            return from >= to ? "" : String.join("\n", lines.subList(from, to));
        }

        /**
         * The first line of the run of lines the citation's line numbers count in: its page (or its run without a
         * page, in a document of parts such as an e-mail with attachments), in the part its section names.
         */
        private static int firstOfPage(ParsedDocument d, Citation c) {
            int fallback = -1;
            for (int start = 0; start < d.lines().size(); start++) {
                if (!Objects.equals(d.pages().get(start), c.page())
                        || start > 0 && Objects.equals(d.pages().get(start - 1), c.page())) {
                    continue;                          // not the first line of a run on the cited page
                }
                int at = start + c.startLine() - 1;
                if (at < d.lines().size() && Objects.equals(d.pages().get(at), c.page())
                        && Objects.equals(d.sections().get(at), c.section())) {
                    return start;
                }
                fallback = fallback < 0 ? start : fallback;
            }
            return Math.max(0, fallback);
        }

        private ParsedDocument parse(String path) {
            try {
                DocumentSource source = DocumentSource.of(path, Files.readAllBytes(root.resolve(path)));
                return parsers.forPath(path).orElseThrow(() -> new IllegalStateException("no parser reads " + path))
                        .parse(source);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
