package dev.ragkit.cli;

import dev.ragkit.RagConfig;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.HealthStatus;
import dev.ragkit.store.StoreException;
import java.nio.file.Files;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ragkit health}: the backend, the model and the index; with {@code --deep}, every byte of a Lucene index
 * ({@link DeepCheck}). Exit codes: {@value RagkitCli#OK} all well; {@value RagkitCli#ERROR} the model is missing, no
 * index, or the deep check found damage; {@value RagkitCli#USAGE} bad usage.
 */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "Check the model server, the model and the index; --deep also reads every file of a Lucene"
                + " index with Lucene's CheckIndex and names the documents of any damaged part.",
        footer = "Exit codes: 0 all well; 1 the model is missing, there is no index, or --deep found damage; 2 bad"
                + " usage.")
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

    @Option(names = "--deep", description = "also run Lucene's CheckIndex over the whole Lucene index (every file's"
            + " checksum and every structure; reads it all, so it takes about as long as reading the index from"
            + " disk) and name the documents of any damaged segment. Changes nothing; a writer waits meanwhile")
    boolean deep;

    @Option(names = "--drop-damaged", description = "with --deep: remove the damaged segments from the index when"
            + " their documents can be named, so that indexing those folders again adds them back (deletes those"
            + " documents from the index; never done without this option)")
    boolean dropDamaged;

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
        if (dropDamaged && !deep) {
            throw new UsageException("--drop-damaged works with --deep: ragkit health --deep --drop-damaged");
        }
        if (deep && location.kind() != CliIndex.Kind.LUCENE && dropDamaged) {
            throw new UsageException("--drop-damaged is for a Lucene index; a snapshot is read whole and verified"
                    + " on every load");
        }
        if (!Files.exists(location.path())) {
            context.out.println("store:   no index at " + location.path() + "; run: ragkit index <folder>");
            return RagkitCli.ERROR;
        }
        long start = System.nanoTime();
        boolean opens = false;
        try (CliIndex opened = CliIndex.forReading(context, location, null)) {
            Map<String, Integer> perTenant = opened.documentCounts();
            context.out.printf(Locale.ROOT, "store:   ready, %s, %d documents %s, embedder %s (opened in %.0f ms)%n",
                    location.describe(), perTenant.values().stream().mapToInt(Integer::intValue).sum(), perTenant,
                    Terminal.line(opened.embedder), (System.nanoTime() - start) / 1e6);
            opens = true;
        } catch (RagException | StoreException e) {
            if (!deep || location.kind() != CliIndex.Kind.LUCENE) {
                throw e;
            }
            context.out.println("store:   cannot be opened: " + Terminal.line(RagkitCli.describe(e)));
        }
        boolean whole = true;
        if (deep) {
            if (location.kind() == CliIndex.Kind.LUCENE) {
                whole = DeepCheck.run(context, location, dropDamaged);
            } else {
                context.out.println("deep:    clean: a snapshot's checksum (CRC-32C over every byte) is verified"
                        + " whenever it is loaded, and it loaded");
            }
        }
        return backend.reachable() && !backend.modelAvailable() || openai && !backend.reachable() || !whole
                || !opens ? RagkitCli.ERROR : RagkitCli.OK;
    }
}
