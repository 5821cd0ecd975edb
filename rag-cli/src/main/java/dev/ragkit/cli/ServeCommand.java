package dev.ragkit.cli;

import dev.ragkit.server.RagServer;
import dev.ragkit.server.ServerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ragkit serve}: the JSON API, the OpenAI-compatible chat endpoint and the web page over the index, on the same
 * index, backend and embedder options as {@code ask}. With {@code --tokens-file} each bearer token fixes its tenant
 * and tags and any address may be bound; without one the server binds loopback only and serves {@code --tenant}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve the index over HTTP: a JSON API (ask, search, documents, health; OpenAPI at "
                + "/openapi.json), an OpenAI-compatible chat endpoint (/v1/chat/completions) and a web page at /.")
final class ServeCommand extends CliCommand {

    @Option(names = "--embedder", description = "the embedder the index was made with (default: RAG_EMBEDDER, else "
            + "the one the index records)")
    String embedder;

    @Option(names = "--index", description = "the index: a Lucene folder (default .ragkit/index) or a snapshot file")
    String index;

    @Option(names = "--store", description = "lucene or in-memory (default: what --index names, else lucene)")
    String storeKind;

    @Option(names = "--tenant", description = "without --tokens-file: the one tenant served (default: default)")
    String tenant;

    @Option(names = "--tags", description = "without --tokens-file: the access tags its callers hold, "
            + "comma-separated")
    List<String> tags = new ArrayList<>();

    @Option(names = "--model", description = "the model (default: CHAT_MODEL, else llama3.2; gpt-4o-mini with "
            + "--backend openai)")
    String model;

    @Option(names = "--backend", description = "auto (Ollama when it answers at start, else extractive), ollama, "
            + "openai or extractive (default: ${DEFAULT-VALUE})")
    Backends.Mode backend = Backends.Mode.auto;

    @Option(names = "--http", paramLabel = "<host:port>", description = "where to listen (default: "
            + "${DEFAULT-VALUE}; port 0: any free port, printed)")
    String http = "127.0.0.1:8080";

    @Option(names = "--tokens-file", paramLabel = "<file>", description = "bearer tokens and what each may read, one "
            + "per line: <token> <tenant> [tag,tag]; needed to bind an address other machines can reach")
    String tokensFile;

    @Option(names = "--allow-origin", paramLabel = "<origin>", description = "a browser origin allowed to call "
            + "besides the server's own page, e.g. https://chat.example.com (repeatable)")
    List<String> allowOrigins = new ArrayList<>();

    @Option(names = "--allow-host", paramLabel = "<host:port>", description = "a Host header value clients use "
            + "besides the loopback names and the bound address, e.g. rag.internal.example:8080 (repeatable)")
    List<String> allowHosts = new ArrayList<>();

    @Option(names = "--max-request-bytes", description = "the largest request body (default: ${DEFAULT-VALUE})")
    int maxRequestBytes = ServerSettings.DEFAULT_MAX_REQUEST_BYTES;

    @Option(names = "--max-concurrent", description = "the most API requests running at once; more get 429 "
            + "(default: ${DEFAULT-VALUE})")
    int maxConcurrent = ServerSettings.DEFAULT_MAX_CONCURRENT_REQUESTS;

    @Option(names = "--request-timeout", paramLabel = "<seconds>", description = "cancel an answer that takes "
            + "longer (default: ${DEFAULT-VALUE})")
    long requestTimeout = ServerSettings.DEFAULT_REQUEST_TIMEOUT_SECONDS;

    @Option(names = "--idle-timeout", paramLabel = "<seconds>", description = "close a connection that stalls this "
            + "long, e.g. a body that does not arrive (default: ${DEFAULT-VALUE})")
    long idleTimeout = ServerSettings.DEFAULT_IDLE_TIMEOUT_SECONDS;

    @Option(names = "--max-question-chars", description = "the longest question accepted (default: "
            + "${DEFAULT-VALUE})")
    int maxQuestionChars = ServerSettings.DEFAULT_MAX_QUESTION_CHARS;

    ServeCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() throws Exception {
        ServerSettings settings = settings();
        try (CliPipeline answering = new CliPipeline(context, CliIndex.locate(context, index, storeKind),
                backend, model, embedder)) {
            answering.audit.onFailure(why -> context.err.println("ragkit serve: warning: a request has no audit "
                    + "record: " + Terminal.line(why) + "; it was still answered (audit failure policy "
                    + "LOG_AND_CONTINUE)"));
            try (RagServer server = RagServer.builder().pipeline(answering.pipeline(answering.options(false)))
                    .retriever(answering.retriever()).store(answering.store).audit(answering.auditTrail())
                    .settings(settings).start()) {
                context.out.println("ragkit serve: listening on " + server.url() + " (" + (settings.requiresToken()
                        ? "bearer tokens from " + Terminal.line(tokensFile) : "tenant '" + Terminal.line(tenantName())
                        + "', loopback only") + "; answering with " + answering.choice.note + ")");
                context.out.println("ragkit serve: API description at " + server.url() + "openapi.json; OpenAI "
                        + "base URL " + server.url() + "v1");
                context.out.flush();
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "ragkit-serve-stop"));
                server.awaitClose();
            }
        }
        return RagkitCli.OK;
    }

    private String tenantName() {
        return tenant == null ? "default" : requireText(tenant, "--tenant");
    }

    /** Reads the options into settings; every bad value is a usage error naming its option. */
    private ServerSettings settings() {
        HttpAddress address = HttpAddress.parse(http, "127.0.0.1:8080");
        ServerSettings.Builder builder = ServerSettings.builder();
        try {
            builder.address(address.host(), address.port());
        } catch (IllegalArgumentException e) {
            throw new UsageException("--http " + Terminal.line(http) + ": " + e.getMessage());
        }
        if (tokensFile != null) {
            if (tenant != null || !tags.isEmpty()) {
                throw new UsageException("--tenant and --tags clash with --tokens-file: each token's line names its "
                        + "tenant and tags");
            }
            try {
                builder.tokensFile(context.resolve(tokensFile));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--tokens-file: " + e.getMessage());
            }
        } else {
            builder.scope(tenantName(), tags(tags, "--tags"));
        }
        try {
            allowOrigins.forEach(builder::allowOrigin);
            allowHosts.forEach(builder::allowHost);
            builder.maxRequestBytes(maxRequestBytes).maxConcurrentRequests(maxConcurrent)
                    .requestTimeout(Duration.ofSeconds(requestTimeout)).idleTimeout(Duration.ofSeconds(idleTimeout))
                    .maxQuestionChars(maxQuestionChars);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage().replace("maxRequestBytes", "--max-request-bytes")
                    .replace("maxConcurrentRequests", "--max-concurrent")
                    .replace("requestTimeout", "--request-timeout").replace("idleTimeout", "--idle-timeout")
                    .replace("maxQuestionChars", "--max-question-chars"));
        }
        try {
            return builder.build();
        } catch (IllegalStateException e) {
            throw new UsageException("--http " + Terminal.line(http) + ": " + e.getMessage()
                    .replace("a tokens file", "--tokens-file"));
        }
    }
}
