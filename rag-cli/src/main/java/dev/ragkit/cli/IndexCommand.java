package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ragkit index <dir>}: adds a folder's markdown to the index file. */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = "Index a folder's markdown into the index file (adds to it; --sync also removes documents of "
                + "this folder and tenant whose files are gone).")
final class IndexCommand extends CliCommand {

    @Parameters(index = "0", paramLabel = "<dir>", description = "the folder to index")
    String dir = "";

    @Option(names = "--tenant", description = "the tenant the documents belong to (default: ${DEFAULT-VALUE})")
    String tenant = "default";

    @Option(names = "--index", description = "the index file (default: ${DEFAULT-VALUE})")
    String index = IndexFile.DEFAULT;

    @Option(names = "--sync", description = "also delete this folder's documents whose files are gone")
    boolean sync;

    @Option(names = "--prefix", description = "the path prefix of this folder's documents in the index "
            + "(default: the folder's name, e.g. docs)")
    String prefix;

    IndexCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() {
        String tenantName = requireText(tenant, "--tenant");
        Path root = context.resolve(dir);
        if (!Files.isDirectory(root)) {
            throw new RagException("'" + dir + "' is not a folder (" + root + "); name the folder of markdown files "
                    + "to index");
        }
        Path indexFile = context.resolve(index);
        InMemoryDocumentStore store = IndexFile.openOrCreate(indexFile);
        String pathPrefix = prefix != null ? prefix : defaultPrefix(root);
        Indexer indexer = Indexer.builder().store(store).embedder(CliContext.embedder()).tenant(tenantName)
                .include("**/*.md", "**/*.markdown").pathPrefix(pathPrefix).sync(sync)
                .listener(new ProgressPrinter(context.err, context.interactive)).build();
        IndexReport report = indexer.index(root);
        IndexFile.save(store, indexFile);

        context.out.printf(Locale.ROOT, "Indexed %d files (%,d chunks, %,d tokens) from %s into tenant '%s' as %s "
                + "in %.1f s; %d skipped, %d failed, %d deleted.%n", report.filesIndexed(), report.chunks(),
                report.tokens(), Terminal.line(dir), Terminal.line(tenantName), Terminal.line(pathPrefix.isEmpty()
                ? "(no prefix)" : (pathPrefix.endsWith("/") ? pathPrefix : pathPrefix + "/") + "*"),
                report.elapsed().toMillis() / 1000.0, report.filesSkipped().size(), report.filesFailed().size(),
                report.documentsDeleted());
        if (report.linksDropped() > 0 || report.linksBroken() > 0) {
            context.out.printf(Locale.ROOT, "Links: %d dropped for leaving %s, %d pointing nowhere (kept, not "
                    + "followed).%n", report.linksDropped(), Terminal.line(dir), report.linksBroken());
        }
        report.filesSkipped().forEach(s -> context.out.println("  skipped " + Terminal.line(s.path()) + ": "
                + s.reason().description() + (s.detail().isEmpty() ? "" : " (" + Terminal.line(s.detail()) + ")")));
        report.filesFailed().forEach(f -> context.out.println("  failed  " + Terminal.line(f.path()) + ": "
                + Terminal.line(f.message())));
        context.out.println("Index: " + Terminal.line(indexFile.toString()));
        return RagkitCli.OK;
    }

    /** The folder's own name: the same files get the same paths wherever the command runs from. */
    private static String defaultPrefix(Path root) {
        Path name = root.toAbsolutePath().normalize().getFileName();
        return name == null ? "" : name.toString();
    }
}
