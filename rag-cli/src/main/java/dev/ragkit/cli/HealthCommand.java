package dev.ragkit.cli;

import dev.ragkit.RagConfig;
import dev.ragkit.generation.HealthStatus;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ragkit health}: the backend, the model and the index. */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Check the model server, the model and the index file.")
final class HealthCommand extends CliCommand {

    @Option(names = "--index", description = "the index: a Lucene folder (default .ragkit/index) or a snapshot file")
    String index;

    @Option(names = "--store", description = "lucene or in-memory (default: what --index names, else lucene)")
    String storeKind;

    @Option(names = "--model", description = "the model to check (default: CHAT_MODEL, else llama3.2; gpt-4o-mini "
            + "with --backend openai)")
    String model;

    @Option(names = "--backend", description = "the server to check: ollama or openai (default: ollama)")
    Backends.Mode backendMode = Backends.Mode.ollama;

    HealthCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() {
        RagConfig config = context.config();
        boolean openai = backendMode == Backends.Mode.openai;
        String wanted = context.explicitModel(model);
        wanted = wanted != null ? wanted : openai ? Backends.OPENAI_DEFAULT_MODEL : config.chatModel();
        String url = (openai ? context.openAiConfig().baseUrl() : context.ollamaConfig().baseUrl()).toString();
        HealthStatus backend = Backends.probe(backendMode, context, wanted);
        String name = openai ? "OpenAI-compatible server" : "ollama";
        // an OpenAI-compatible server's detail says what happened: no connection, or the HTTP status it answered
        // (401: the key) — "no model server" would be wrong for a server that answered
        context.out.printf(Locale.ROOT, "backend: %s (%.0f ms)%n", backend.reachable()
                ? name + " " + (backend.version() == null ? "" : backend.version() + " ") + "at " + url
                : openai ? Terminal.line(backend.detail())
                : "no model server at " + url + "; ask will answer extractively (quotes only)",
                backend.latency().toNanos() / 1e6);
        context.out.println("model:   " + wanted + ": " + (backend.modelAvailable() ? "available"
                : !backend.reachable() ? (openai ? "not checked (the server could not be used)" : "unknown (no server)")
                : openai ? "missing (" + Terminal.line(backend.detail()) + ")" : "missing; run: ollama pull " + wanted));
        CliIndex.Location location = CliIndex.locate(context, index, storeKind);
        if (!Files.exists(location.path())) {
            context.out.println("store:   no index at " + location.path() + "; run: ragkit index <folder>");
            return RagkitCli.ERROR;
        }
        long start = System.nanoTime();
        try (CliIndex opened = CliIndex.forReading(context, location, null)) {
            Map<String, Integer> perTenant = opened.documentCounts();
            context.out.printf(Locale.ROOT, "store:   ready, %s, %d documents %s, embedder %s (opened in %.0f ms)%n",
                    location.describe(), perTenant.values().stream().mapToInt(Integer::intValue).sum(), perTenant,
                    Terminal.line(opened.embedder), (System.nanoTime() - start) / 1e6);
        }
        return backend.reachable() && !backend.modelAvailable() || openai && !backend.reachable() ? RagkitCli.ERROR
                : RagkitCli.OK;
    }
}
