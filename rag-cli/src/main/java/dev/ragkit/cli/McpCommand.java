package dev.ragkit.cli;

import dev.ragkit.mcp.McpHttpSettings;
import dev.ragkit.mcp.RagMcpServer;
import dev.ragkit.mcp.RagMcpTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ragkit mcp}: serves the index to MCP clients (assistants, IDE agents) with the {@code rag_query},
 * {@code rag_search} and {@code rag_documents} tools, on stdio (default) or Streamable HTTP ({@code --http}). The
 * tenant and tags are this command's, fixed for every tool call. On stdio the command ends when the client closes
 * its input (after answering what it was asked). On HTTP, Host and Origin are checked (loopback names, then
 * {@code --allow-origin}/{@code --allow-host}); an address other machines can reach needs {@code --allow-remote}
 * and {@code --auth-token-file}; sessions are capped and expire when idle.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = "Serve the index as an MCP server (tools rag_query, rag_search, rag_documents) on stdio, or on "
                + "Streamable HTTP with --http host:port. The tenant and tags are fixed here; clients cannot widen "
                + "them.")
final class McpCommand extends CliCommand {

    @Option(names = "--embedder", description = "the embedder the index was made with (default: RAG_EMBEDDER, else "
            + "the one the index records)")
    String embedder;

    @Option(names = "--index", description = "the index: a Lucene folder (default .ragkit/index) or a snapshot file")
    String index;

    @Option(names = "--store", description = "lucene or in-memory (default: what --index names, else lucene)")
    String storeKind;

    @Option(names = "--tenant", description = "the tenant every tool reads (default: ${DEFAULT-VALUE})")
    String tenant = "default";

    @Option(names = "--tags", description = "the access tags the server's users hold, comma-separated")
    List<String> tags = new ArrayList<>();

    @Option(names = "--model", description = "the model (default: CHAT_MODEL, else llama3.2; gpt-4o-mini with "
            + "--backend openai)")
    String model;

    @Option(names = "--backend", description = "auto (Ollama when it answers at start, else extractive), ollama, "
            + "openai or extractive (default: ${DEFAULT-VALUE})")
    Backends.Mode backend = Backends.Mode.auto;

    @Option(names = "--http", paramLabel = "<host:port>", description = "serve Streamable HTTP at "
            + "http://host:port/mcp instead of stdio, e.g. 127.0.0.1:8808 (port 0: any free port, printed)")
    String http;

    @Option(names = "--max-question-chars", description = "the longest question accepted (default: "
            + "${DEFAULT-VALUE})")
    int maxQuestionChars = RagMcpTools.DEFAULT_MAX_QUESTION_CHARS;

    @Option(names = "--allow-origin", paramLabel = "<origin>", description = "with --http: a browser origin allowed "
            + "to call besides http://localhost|127.0.0.1|[::1]:<port>, e.g. https://app.example.com (repeatable)")
    List<String> allowOrigins = new ArrayList<>();

    @Option(names = "--allow-host", paramLabel = "<host:port>", description = "with --http: a Host header value "
            + "clients use besides the loopback names and the bound address, e.g. mcp.internal.example:8808 "
            + "(repeatable)")
    List<String> allowHosts = new ArrayList<>();

    @Option(names = "--allow-remote", description = "with --http: allow binding an address other machines can reach "
            + "(needs --auth-token-file)")
    boolean allowRemote;

    @Option(names = "--auth-token-file", paramLabel = "<file>", description = "with --http: a file holding the "
            + "bearer token clients must send (Authorization: Bearer <token>); required with --allow-remote")
    String authTokenFile;

    @Option(names = "--max-sessions", description = "with --http: the most sessions open at once (default: "
            + "${DEFAULT-VALUE})")
    int maxSessions = McpHttpSettings.DEFAULT_MAX_SESSIONS;

    @Option(names = "--session-idle-seconds", description = "with --http: close a session unused for this long "
            + "(default: ${DEFAULT-VALUE})")
    long sessionIdleSeconds = McpHttpSettings.DEFAULT_IDLE_MINUTES * 60L;

    McpCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() throws Exception {
        String tenantName = requireText(tenant, "--tenant");
        List<String> accessTags = tags(tags, "--tags");
        if (maxQuestionChars < 1) {
            throw new UsageException("--max-question-chars must be at least 1, got " + maxQuestionChars);
        }
        if (http == null && (allowRemote || authTokenFile != null || !allowOrigins.isEmpty()
                || !allowHosts.isEmpty())) {
            throw new UsageException("--allow-remote, --auth-token-file, --allow-origin and --allow-host apply to "
                    + "HTTP only; add --http host:port");
        }
        McpHttpSettings settings = http == null ? null : httpSettings();
        try (CliPipeline answering = new CliPipeline(context, CliIndex.locate(context, index, storeKind),
                backend, model, embedder)) {
            RagMcpTools tools = RagMcpTools.builder().pipeline(answering.pipeline(answering.options(false)))
                    .knowledgeBasePipeline(answering.pipeline(answering.options(true)))
                    .retriever(answering.retriever()).store(answering.store).scope(tenantName, accessTags)
                    .audit(answering.auditTrail()).maxQuestionChars(maxQuestionChars).build();
            answering.audit.onFailure(why -> context.err.println("ragkit mcp: warning: a call has no audit record: "
                    + Terminal.line(why) + "; it was still answered (audit failure policy LOG_AND_CONTINUE)"));
            // stdout belongs to the protocol on stdio: everything for people goes to stderr
            context.err.println("ragkit mcp: tenant '" + Terminal.line(tenantName) + "', tags " + accessTags
                    + ", answering with " + answering.choice.note);
            try (RagMcpServer server = settings == null ? RagMcpServer.stdio(tools, System.in, System.out)
                    : RagMcpServer.http(tools, settings)) {
                if (settings != null) {
                    String shown = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
                    context.err.println("ragkit mcp: serving http://" + shown + ":" + server.port()
                            + RagMcpServer.ENDPOINT + (settings.requiresToken() ? " (bearer token required)" : ""));
                }
                context.err.flush();
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "ragkit-mcp-stop"));
                server.awaitClose();
                if (settings == null) {
                    context.err.println("ragkit mcp: the client closed the input; stopping");
                }
            }
        }
        return RagkitCli.OK;
    }

    /** Reads --http and the options that go with it; the token is read from its file and never shown. */
    private McpHttpSettings httpSettings() {
        HttpAddress address = HttpAddress.parse(http, "127.0.0.1:8808");
        String host = address.host();
        int port = address.port();
        McpHttpSettings.Builder builder = McpHttpSettings.builder();
        try {
            builder.address(host, port);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--http " + Terminal.line(http) + ": " + e.getMessage() + "; give host:port, "
                    + "e.g. 127.0.0.1:8808");
        }
        try {
            builder.allowRemote(allowRemote).maxSessions(maxSessions)
                    .sessionIdleTimeout(Duration.ofSeconds(sessionIdleSeconds));
            allowOrigins.forEach(builder::allowOrigin);
            allowHosts.forEach(builder::allowHost);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage().replace("maxSessions", "--max-sessions")
                    .replace("sessionIdleTimeout", "--session-idle-seconds"));
        }
        if (authTokenFile != null) {
            Path file = context.resolve(authTokenFile);
            String token;
            try {
                token = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                throw new UsageException("--auth-token-file: cannot read " + file + " (" + e.getClass().getSimpleName()
                        + "); give a file holding the token, e.g. made with: openssl rand -hex 32 > " + file);
            }
            try {
                builder.bearerToken(token);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--auth-token-file " + file + ": " + e.getMessage());
            }
        }
        try {
            return builder.build();
        } catch (IllegalStateException e) {
            throw new UsageException("--http " + Terminal.line(http) + ": " + e.getMessage()
                    .replace("allowRemote(true)", "--allow-remote").replace("bearerToken(...)", "--auth-token-file"));
        }
    }
}
