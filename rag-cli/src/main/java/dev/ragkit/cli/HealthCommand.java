package dev.ragkit.cli;

import dev.ragkit.RagConfig;
import dev.ragkit.ollama.OllamaConfig;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.store.Scope;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ragkit health}: the backend, the model and the index. */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Check the model server, the model and the index file.")
final class HealthCommand extends CliCommand {

    @Option(names = "--index", description = "the index file (default: ${DEFAULT-VALUE})")
    String index = IndexFile.DEFAULT;

    @Option(names = "--model", description = "the model to check (default: CHAT_MODEL, else llama3.2)")
    String model;

    HealthCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() {
        RagConfig config = context.config();
        String wanted = model != null ? model : config.chatModel();
        OllamaConfig ollama = context.ollamaConfig();
        HealthStatus backend = Backends.probe(ollama, wanted);
        context.out.printf(Locale.ROOT, "backend: %s (%.0f ms)%n", backend.reachable()
                ? "ollama " + (backend.version() == null ? "" : backend.version() + " ") + "at " + ollama.baseUrl()
                : "no model server at " + ollama.baseUrl() + "; ask will answer extractively (quotes only)",
                backend.latency().toNanos() / 1e6);
        context.out.println("model:   " + wanted + ": " + (backend.modelAvailable() ? "available"
                : backend.reachable() ? "missing; run: ollama pull " + wanted : "unknown (no server)"));
        Path indexFile = context.resolve(index);
        if (!Files.exists(indexFile)) {
            context.out.println("store:   no index at " + indexFile + "; run: ragkit index <folder>");
            return RagkitCli.ERROR;
        }
        long start = System.nanoTime();
        try (InMemoryDocumentStore store = IndexFile.openExisting(indexFile)) {
            Map<String, Integer> perTenant = new TreeMap<>();
            for (String tenant : store.tenants()) {
                perTenant.put(tenant, store.documents(Scope.unrestricted(tenant)).size());
            }
            context.out.printf(Locale.ROOT, "store:   ready, %s, %d documents %s (loaded in %.0f ms)%n", indexFile,
                    perTenant.values().stream().mapToInt(Integer::intValue).sum(), perTenant,
                    (System.nanoTime() - start) / 1e6);
        }
        return backend.reachable() && !backend.modelAvailable() ? RagkitCli.ERROR : RagkitCli.OK;
    }
}
