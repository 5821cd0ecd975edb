package dev.ragkit.cli;

import dev.ragkit.mcp.RagMcpServer;
import dev.ragkit.mcp.RagMcpTools;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ragkit mcp}: serves the index to MCP clients (assistants, IDE agents) with the {@code rag_query},
 * {@code rag_search} and {@code rag_documents} tools, on stdio (default) or Streamable HTTP ({@code --http}). The
 * tenant and tags are this command's, fixed for every tool call.
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

    @Option(names = "--tags", split = ",", description = "the access tags the server's users hold, comma-separated")
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

    McpCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() throws Exception {
        String tenantName = requireText(tenant, "--tenant");
        List<String> accessTags = new ArrayList<>();
        for (String tag : tags) {
            accessTags.add(requireText(tag, "--tags"));
        }
        if (maxQuestionChars < 1) {
            throw new UsageException("--max-question-chars must be at least 1, got " + maxQuestionChars);
        }
        String host = null;
        int port = -1;
        if (http != null) {
            int colon = http.lastIndexOf(':');
            try {
                host = http.substring(0, Math.max(0, colon)).strip();
                port = Integer.parseInt(http.substring(colon + 1).strip());
            } catch (RuntimeException e) {
                port = -1;
            }
            if (colon < 1 || host.isEmpty() || port < 0 || port > 65_535) {
                throw new UsageException("--http takes host:port, e.g. 127.0.0.1:8808, got '" + Terminal.line(http)
                        + "'");
            }
        }
        try (CliPipeline answering = new CliPipeline(context, CliIndex.locate(context, index, storeKind),
                backend, model, embedder)) {
            RagMcpTools tools = RagMcpTools.builder().pipeline(answering.pipeline(answering.options(false)))
                    .knowledgeBasePipeline(answering.pipeline(answering.options(true)))
                    .retriever(answering.retriever()).store(answering.store).scope(tenantName, accessTags)
                    .audit(answering.auditTrail()).maxQuestionChars(maxQuestionChars).build();
            // stdout belongs to the protocol on stdio: everything for people goes to stderr
            context.err.println("ragkit mcp: tenant '" + Terminal.line(tenantName) + "', tags " + accessTags
                    + ", answering with " + answering.choice.note);
            try (RagMcpServer server = host == null ? RagMcpServer.stdio(tools, System.in, System.out)
                    : RagMcpServer.http(tools, host, port)) {
                if (host != null) {
                    context.err.println("ragkit mcp: serving http://" + host + ":" + server.port()
                            + RagMcpServer.ENDPOINT);
                }
                context.err.flush();
                Runtime.getRuntime().addShutdownHook(new Thread(server::close, "ragkit-mcp-stop"));
                server.awaitClose();
            }
        }
        return RagkitCli.OK;
    }
}
