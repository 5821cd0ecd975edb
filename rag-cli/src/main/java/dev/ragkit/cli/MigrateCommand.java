package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ragkit migrate}: copies a snapshot index ({@code .ragkit/index.bin}, the CLI's index before Lucene became
 * the default) into a Lucene index, every tenant, document and vector as they are (nothing is embedded again). The
 * snapshot is left in place.
 */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Copy a snapshot index (.ragkit/index.bin) into a Lucene index (.ragkit/index), every tenant, "
                + "document and vector as they are; the snapshot is left in place.")
final class MigrateCommand extends CliCommand {

    @Option(names = "--from", description = "the snapshot file (default: ${DEFAULT-VALUE})")
    String from = CliIndex.SNAPSHOT_DEFAULT;

    @Option(names = "--to", description = "the Lucene index folder (default: ${DEFAULT-VALUE})")
    String to = CliIndex.LUCENE_DEFAULT;

    MigrateCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() {
        Path source = context.resolve(from);
        InMemoryDocumentStore snapshot = IndexFile.openExisting(source);
        CliIndex.Location target = new CliIndex.Location(CliIndex.Kind.LUCENE, context.resolve(to));
        int documents = 0;
        long chunks = 0;
        try (snapshot; CliIndex lucene = CliIndex.forWriting(context, target,
                snapshot.embedder() != null ? snapshot.embedder() : CliIndex.LEGACY_EMBEDDER)) {
            if (!lucene.documentCounts().isEmpty()) {
                throw new RagException("the Lucene index " + target.path() + " holds documents already; migrate into "
                        + "a new folder (--to), or index your folders into it instead");
            }
            for (String tenant : snapshot.tenants()) {
                Scope all = Scope.unrestricted(tenant);
                for (StoredDocument d : snapshot.documents(all)) {
                    var stored = snapshot.chunks(all, d.id());
                    lucene.store.upsert(d, stored);
                    documents++;
                    chunks += stored.size();
                }
            }
            lucene.commit();
        }
        context.out.printf(Locale.ROOT, "Migrated %d documents (%d chunks) from %s to %s. The snapshot is unchanged: "
                + "delete it once you are satisfied (ragkit now reads %s).%n", documents, chunks,
                Terminal.line(source.toString()), Terminal.line(target.path().toString()),
                Files.exists(context.resolve(CliIndex.LUCENE_DEFAULT)) ? CliIndex.LUCENE_DEFAULT : to);
        return RagkitCli.OK;
    }
}
