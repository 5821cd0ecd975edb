package dev.ragkit.cli;

import dev.ragkit.error.RagException;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.inmemory.InMemoryDocumentStore;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Stream;
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
        requireSnapshot(source);
        InMemoryDocumentStore snapshot = IndexFile.openExisting(source);
        CliIndex.Location target = new CliIndex.Location(CliIndex.Kind.LUCENE, context.resolve(to));
        int documents = 0;
        long chunks = 0;
        try (snapshot) {
            String embedder = snapshot.embedder() != null ? snapshot.embedder() : CliIndex.LEGACY_EMBEDDER;
            requireTarget(target.path(), embedder);
            try (CliIndex lucene = CliIndex.forWriting(context, target, embedder)) {
                if (!lucene.documentCounts().isEmpty()) {
                    throw new RagException("the Lucene index " + target.path() + " holds documents already; migrate"
                            + " into a new folder (--to), or index your folders into it instead");
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
        }
        context.out.printf(Locale.ROOT, "Migrated %d documents (%d chunks) from %s to %s. The snapshot is unchanged: "
                + "delete it once you are satisfied (ragkit now reads %s).%n", documents, chunks,
                Terminal.line(source.toString()), Terminal.line(target.path().toString()),
                Files.exists(context.resolve(CliIndex.LUCENE_DEFAULT)) ? CliIndex.LUCENE_DEFAULT : to);
        return RagkitCli.OK;
    }

    /** Fails, naming {@code --from}, unless the source is a snapshot file RagKit wrote. */
    private static void requireSnapshot(Path source) {
        if (!Files.exists(source)) {
            throw new RagException("no snapshot at " + source + " to migrate; name the snapshot file with --from"
                    + " (default " + CliIndex.SNAPSHOT_DEFAULT + "). To index documents into a Lucene index instead,"
                    + " run: ragkit index <folder>");
        }
        if (Files.isDirectory(source)) {
            throw new RagException("--from " + source + " is a folder, not a snapshot file; name the snapshot file"
                    + " with --from (default " + CliIndex.SNAPSHOT_DEFAULT + ")");
        }
        if (!IndexFile.isSnapshot(source)) {
            throw new RagException("--from " + source + " is not a RagKit snapshot (it does not start with the"
                    + " signature RagKit writes); it was left as it is. Name the snapshot file with --from");
        }
    }

    /**
     * Fails, naming {@code --to}, unless the target is a new or empty folder, or an empty Lucene index of the
     * snapshot's embedder, that can be written: migrate never adds to an index holding documents, nor touches a
     * folder that is not an index.
     */
    private static void requireTarget(Path dir, String embedder) {
        if (Files.isRegularFile(dir)) {
            throw new RagException("--to " + dir + " is a file; name a new or empty folder for the Lucene index with"
                    + " --to");
        }
        IndexFile.requireWritableFolder(dir.resolve("x"), "--to");
        SortedSet<String> names = new TreeSet<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        } catch (IOException e) {
            throw new RagException("cannot read the folder " + dir + " (" + e + "); check its permissions, or name"
                    + " another folder with --to", e);
        }
        if (names.isEmpty()) {
            return;
        }
        SortedMap<String, Integer> counts;
        String recorded;
        try (LuceneDocumentStore peek = LuceneDocumentStore.builder().directory(dir).readOnly(true).build()) {
            counts = peek.documentCounts();
            recorded = peek.info().embedder();
        } catch (StoreException e) {
            List<String> listed = new ArrayList<>(names);
            throw new RagException("--to " + dir + " is neither a new or empty folder nor an empty RagKit index: it"
                    + " holds " + (listed.size() > 5 ? listed.size() + " files such as " + listed.subList(0, 5)
                    : listed) + ". Nothing was changed. Name a new or empty folder for the Lucene index with --to", e);
        }
        if (!counts.isEmpty()) {
            throw new RagException("the Lucene index " + dir + " holds documents already; migrate into a new folder"
                    + " (--to), or index your folders into it instead");
        }
        if (recorded != null && !recorded.equals(embedder)) {
            throw new RagException("--to " + dir + " is an empty index made for the embedder '" + recorded + "', but"
                    + " the snapshot holds vectors made by '" + embedder + "'. Nothing was changed. Name a new or"
                    + " empty folder for the Lucene index with --to");
        }
    }
}
