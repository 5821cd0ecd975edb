package dev.ragkit.cli;

import dev.ragkit.ingest.DocumentIngestor;
import dev.ragkit.store.StoreException;
import dev.ragkit.store.lucene.IndexCheck;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.store.LockObtainFailedException;
import org.jspecify.annotations.Nullable;

/**
 * {@code ragkit health --deep}: Lucene's {@code CheckIndex} over the whole Lucene index ({@link IndexCheck}), and
 * what the user should do about what it finds: nothing, re-index the documents of the damaged segments (after
 * {@code --drop-damaged}), or rebuild the whole index when those documents cannot be named.
 */
final class DeepCheck {
    private static final String LABEL = "deep:    ";
    private static final String MORE = "         ";

    private DeepCheck() {
    }

    /**
     * Checks the index (waiting, saying so, while a writer holds it) and prints what it found.
     *
     * @param drop whether to drop the damaged segments ({@code --drop-damaged})
     * @return whether the index is clean
     */
    static boolean run(CliContext context, CliIndex.Location location, boolean drop) {
        Path dir = location.path();
        IndexCheck check;
        try {
            check = check(dir, drop, false);
        } catch (StoreException e) {
            if (!(e.getCause() instanceof LockObtainFailedException)) {
                throw e;
            }
            context.err.println("ragkit: another ragkit index is writing " + dir + "; the deep check waits for it to"
                    + " finish (up to " + CliIndex.WRITE_WAIT.toMinutes() + " minutes)");
            context.err.flush();
            check = check(dir, drop, true);
        }
        print(context.out, check, dir);
        return check.clean();
    }

    private static IndexCheck check(Path dir, boolean drop, boolean wait) {
        LuceneDocumentStore.Builder builder = LuceneDocumentStore.builder().directory(dir);
        if (wait) {
            builder.lockWait(CliIndex.WRITE_WAIT);
        }
        return drop ? builder.dropDamagedSegments() : builder.check();
    }

    static void print(PrintWriter out, IndexCheck check, Path dir) {
        String took = String.format(Locale.ROOT, "%.0f ms", check.took().toNanos() / 1e6);
        if (check.clean()) {
            out.println(LABEL + "clean: Lucene's CheckIndex read every file (checksums) and structure of the "
                    + check.segments() + " segment" + (check.segments() == 1 ? "" : "s") + " in " + took + " ("
                    + check.documents() + " document" + (check.documents() == 1 ? "" : "s") + ")");
            return;
        }
        String rebuild = "ragkit index <folder> --index " + Terminal.line(dir.toString()) + " --rebuild";
        if (check.unreadable() != null) {
            out.println(LABEL + "DAMAGED: " + Terminal.line(check.unreadable()) + " (checked in " + took + ").");
            out.println(MORE + "Nothing was changed. No document can be read from it: rebuild the whole index from"
                    + " your folders (" + rebuild + ", then ragkit index each other folder and tenant it held), or"
                    + " restore it from a backup.");
            return;
        }
        out.println(LABEL + "DAMAGED: " + check.damaged().size() + " of " + check.segments() + " segments "
                + (check.damaged().size() == 1 ? "fails" : "fail") + " Lucene's CheckIndex (checked in " + took + "):");
        for (IndexCheck.DamagedSegment segment : check.damaged()) {
            out.println(MORE + "segment " + segment.name() + " (files " + String.join(", ", segment.files()) + "): "
                    + Terminal.line(segment.problem()));
            if (segment.documents() == null) {
                out.println(MORE + "  its documents cannot be read");
            } else {
                out.println(MORE + "  its " + segment.documents().size() + " document"
                        + (segment.documents().size() == 1 ? "" : "s") + (check.dropped() ? " (dropped now)" : "")
                        + ":");
                for (String line : byFolder(segment.documents())) {
                    out.println(MORE + "    " + line);
                }
            }
        }
        if (!check.documentsKnown()) {
            out.println(MORE + "Nothing was changed. The documents of a damaged segment cannot be named, so the whole"
                    + " index must be rebuilt from your folders: " + rebuild + " (then ragkit index each other folder"
                    + " and tenant it held), or restore it from a backup.");
            return;
        }
        List<String> again = reindexCommands(check.affected());
        if (check.dropped()) {
            out.println(MORE + "Dropped the damaged segments: the index is whole again without these documents. Add"
                    + " them back by indexing their folders again (unchanged files are skipped):");
        } else {
            out.println(MORE + "Nothing was changed. To repair: drop the damaged segments (ragkit health --deep"
                    + " --drop-damaged --index " + Terminal.line(dir.toString()) + "), then index these folders again"
                    + " (unchanged files are skipped):");
        }
        for (String command : again) {
            out.println(MORE + "  " + command);
        }
        if (!check.dropped()) {
            out.println(MORE + "or rebuild the whole index from your folders (" + rebuild + ", then ragkit index each"
                    + " other folder and tenant it held), or restore it from a backup.");
        }
    }

    /** @return one line per tenant and folder: the paths of its documents */
    private static List<String> byFolder(List<IndexCheck.AffectedDocument> documents) {
        Map<String, List<String>> grouped = new TreeMap<>();
        for (IndexCheck.AffectedDocument d : documents) {
            String root = d.metadata().get(DocumentIngestor.ROOT_KEY);
            grouped.computeIfAbsent("tenant " + d.tenant() + ", folder " + (root == null ? "not recorded" : root),
                    k -> new ArrayList<>()).add(d.path());
        }
        List<String> lines = new ArrayList<>();
        grouped.forEach((where, paths) -> lines.add(Terminal.line(where + ": " + String.join(", ",
                paths.stream().sorted().toList()))));
        return lines;
    }

    /** @return the {@code ragkit index} command that adds the documents of each tenant and folder back */
    private static List<String> reindexCommands(List<IndexCheck.AffectedDocument> documents) {
        Map<String, String> commands = new TreeMap<>();
        for (IndexCheck.AffectedDocument d : documents) {
            String root = d.metadata().get(DocumentIngestor.ROOT_KEY);
            String folder = root == null ? "<the folder of " + d.path() + ">" : root;
            String prefix = root == null ? null : prefixOf(d.path(), Path.of(root));
            String command = "ragkit index " + quote(folder) + (d.tenant().equals("default") ? ""
                    : " --tenant " + quote(d.tenant())) + (prefix == null ? " [--prefix <the prefix it had>]"
                    : prefix.equals(IndexCommand.defaultPrefix(Path.of(root))) ? "" : " --prefix " + quote(prefix));
            commands.putIfAbsent(d.tenant() + "\n" + folder, Terminal.line(command));
        }
        return List.copyOf(commands.values());
    }

    /**
     * @return the path prefix the document was indexed under: its path less the shortest tail naming a file in the
     *         folder; {@code null} when no such file is there any more
     */
    static @Nullable String prefixOf(String path, Path root) {
        String[] parts = path.split("/");
        for (int k = 0; k < parts.length; k++) {
            Path file = root;
            for (int i = k; i < parts.length; i++) {
                file = file.resolve(parts[i]);
            }
            if (Files.isRegularFile(file)) {
                return String.join("/", java.util.Arrays.asList(parts).subList(0, k));
            }
        }
        return null;
    }

    private static String quote(String word) {
        return word.matches("[A-Za-z0-9_./:@%+=,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
