package dev.ragkit.cli;

import dev.ragkit.RagPipeline;
import dev.ragkit.RagRequest;
import dev.ragkit.RagResponse;
import dev.ragkit.RagStreamListener;
import dev.ragkit.ResponseFlag;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.grounding.Action;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.RouteTarget;
import dev.ragkit.store.MetadataFilter;
import dev.ragkit.store.MetadataFilterSyntaxException;
import dev.ragkit.store.Scope;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ragkit ask "<question>"}: a cited answer, or a hand-off. */
@Command(name = "ask", mixinStandardHelpOptions = true,
        description = "Answer a question from the index, with citations, confidence and the action (CITE or ROUTE).")
final class AskCommand extends CliCommand {

    /** The retrieval profiles. */
    enum Profile { chunk_qa, knowledge_base }

    @Parameters(index = "0", paramLabel = "<question>", description = "the question")
    String question = "";

    @Option(names = "--embedder", description = "the embedder the index was made with (default: RAG_EMBEDDER, else "
            + "the one the index records)")
    String embedder;

    @Option(names = "--index", description = "the index: a Lucene folder (default .ragkit/index) or a snapshot file")
    String index;

    @Option(names = "--store", description = "lucene or in-memory (default: what --index names, else lucene)")
    String storeKind;

    @Option(names = "--filter", paramLabel = "<filter>", description = "search only documents whose metadata "
            + "matches, e.g. 'year>=2024 and product=x' (=, !=, <, <=, >, >=, in (a, b), and, or, not, parentheses)")
    String filter;

    @Option(names = "--tenant", description = "the tenant to ask in (default: ${DEFAULT-VALUE})")
    String tenant = "default";

    @Option(names = "--tags", description = "your access tags, comma-separated")
    List<String> tags = new ArrayList<>();

    @Option(names = "--profile", converter = ProfileConverter.class,
            description = "retrieval profile: chunk-qa (default) or knowledge-base")
    Profile profile = Profile.chunk_qa;

    @Option(names = "--json", description = "print the whole response as JSON")
    boolean json;

    @Option(names = "--stream", description = "print the answer as it is generated")
    boolean stream;

    @Option(names = "--model", description = "the model (default: CHAT_MODEL, else llama3.2; gpt-4o-mini with "
            + "--backend openai)")
    String model;

    @Option(names = "--backend", description = "auto (Ollama when it answers, else extractive), ollama, openai (any "
            + "OpenAI-compatible server at OPENAI_BASE_URL, key from OPENAI_API_KEY) or extractive "
            + "(default: ${DEFAULT-VALUE})")
    Backends.Mode backend = Backends.Mode.auto;

    AskCommand(CliContext context) {
        super(context);
    }

    /** Accepts chunk-qa and knowledge-base. */
    static final class ProfileConverter implements picocli.CommandLine.ITypeConverter<Profile> {
        @Override
        public Profile convert(String value) {
            String name = value.strip().toLowerCase(Locale.ROOT).replace('-', '_');
            for (Profile p : Profile.values()) {
                if (p.name().equals(name)) {
                    return p;
                }
            }
            throw new picocli.CommandLine.TypeConversionException("unknown profile '" + Terminal.line(value)
                    + "'; use chunk-qa or knowledge-base");
        }
    }

    @Override
    public Integer call() throws Exception {
        if (question.isBlank()) {
            throw new UsageException("the question is blank; ask one, e.g. ragkit ask \"How do I rotate the API "
                    + "key?\"");
        }
        String tenantName = requireText(tenant, "--tenant");
        List<String> accessTags = tags(tags, "--tags");
        RagRequest.Builder requestBuilder = RagRequest.builder(question, Scope.of(tenantName, accessTags));
        if (filter != null) {
            try {
                requestBuilder.filter(MetadataFilter.parse(filter));
            } catch (MetadataFilterSyntaxException e) {
                // the caret diagram on lines of its own, the filter's control characters escaped
                throw new UsageException("--filter, column " + e.column() + ": " + e.problem(),
                        e.diagram(Terminal::line));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--filter: " + e.getMessage());
            }
        }
        RagRequest request = requestBuilder.build();
        try (CliPipeline answering = new CliPipeline(context, CliIndex.locate(context, index, storeKind), backend,
                model, embedder)) {
            RagPipeline rag = answering.pipeline(answering.options(profile == Profile.knowledge_base));
            RagResponse response = stream && !json ? streamed(rag, request) : rag.ask(request);
            if (json) {
                context.out.println(json().writeValueAsString(response));
            } else {
                print(response, answering.choice, !stream);
            }
            if (response.flags().contains(ResponseFlag.AUDIT_NOT_WRITTEN)) {
                context.err.println("ragkit: warning: this answer has no audit record: "
                        + Terminal.line(answering.audit.lastFailure()) + "; the answer was still given (audit "
                        + "failure policy LOG_AND_CONTINUE)");
            }
            return response.action() == Action.CITE ? RagkitCli.OK : RagkitCli.ROUTED;
        }
    }

    private RagResponse streamed(RagPipeline rag, RagRequest request) throws InterruptedException {
        AtomicReference<RagResponse> done = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        CountDownLatch end = new CountDownLatch(1);
        rag.stream(request, new RagStreamListener() {
            @Override
            public void onToken(String token) {
                context.out.print(Terminal.text(token));
                context.out.flush();
            }

            @Override
            public void onComplete(RagResponse response) {
                done.set(response);
                end.countDown();
            }

            @Override
            public void onError(Throwable error) {
                failed.set(error);
                end.countDown();
            }
        });
        end.await();
        context.out.println();
        Throwable error = failed.get();
        if (error instanceof RuntimeException) {
            throw (RuntimeException) error;
        }
        if (error != null) {
            throw new IllegalStateException(error.getMessage(), error);
        }
        return done.get();
    }

    private void print(RagResponse r, Backends.Choice choice, boolean withAnswer) {
        if (withAnswer) {
            context.out.println(Terminal.text(r.answer()));
        }
        context.out.println();
        if (r.citations().isEmpty()) {
            context.out.println("Citations: none (the answer is not grounded in the documents)");
        } else {
            context.out.println("Citations:");
            int n = 1;
            for (Citation c : r.citations()) {
                context.out.printf(Locale.ROOT, "  [%d] %s  %s%n      \"%s\"%n", n++, Terminal.line(c.location()),
                        Terminal.line(c.sectionOrNa()), Terminal.line(c.snippet().replace('\n', ' ')));
            }
        }
        ConfidenceScore c = r.confidence();
        if (ExtractiveBackend.MODEL.equals(r.modelUsed()) && !r.citations().isEmpty()) {
            // a quoted answer's score weighs retrieval and how near its quotes come to the question; the question's
            // coverage is shown, not weighed, and there is no self-rating (--json gives the whole explanation)
            context.out.printf(Locale.ROOT, "Confidence: %d/100 (extractive: from retrieval %.2f and the quoted "
                    + "sentences' similarity to the question; question coverage %.2f, not weighed)%n", c.overall(),
                    c.retrieval(), c.coverage());
        } else {
            context.out.printf(Locale.ROOT, "Confidence: %d/100 (retrieval %.2f, coverage %.2f, self-rating %s)%n",
                    c.overall(), c.retrieval(), c.coverage(),
                    c.selfRating() == null ? "n/a" : c.selfRating().toString());
        }
        RouteTarget t = r.routeTo();
        context.out.println("Action: " + r.action() + (t == null ? ""
                : (t.ownerEmail() == null ? "" : " to " + Terminal.line(t.ownerEmail())) + " ("
                        + Terminal.line(t.reason()) + ")"));
        context.out.println("Model: " + Terminal.line(r.modelUsed()) + " (" + Terminal.line(choice.note) + ")");
        if (!r.linkedDocuments().isEmpty()) {
            context.out.println("Linked: " + String.join(", ", r.linkedDocuments().stream()
                    .map(l -> Terminal.line(l.path()) + " (from " + Terminal.line(l.linkedFrom()) + ")").toList()));
        }
    }
}
