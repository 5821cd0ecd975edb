package dev.ragkit.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.error.RagException;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.Embedders;
import dev.ragkit.ingest.IndexReport;
import dev.ragkit.ingest.Indexer;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.parse.SkipReason;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import org.jspecify.annotations.Nullable;

/**
 * {@code ragkit index <dir>}: adds a folder's documents, of every supported type, to the index.
 *
 * <p>Every option and the embedder are checked before the index is touched. Exit codes: {@value RagkitCli#OK} done
 * (files that failed are listed, and any indexed stay); {@value RagkitCli#ERROR} an error, or nothing was indexed while
 * files failed (e.g. the embedder does not answer), or a {@code --rebuild} that was not swapped in;
 * {@value RagkitCli#USAGE} bad usage.
 */
@Command(name = "index", mixinStandardHelpOptions = true,
        description = "Index a folder's documents (markdown, text, code, and PDF, Word and HTML) into the index: adds"
                + " to it, re-reads only changed files; --sync also removes documents of this folder and tenant whose"
                + " files are gone.",
        footer = "Exit codes: 0 done (failed files are listed); 1 an error, nothing indexed while files failed, or a "
                + "rebuild not swapped in (the old index is then unchanged); 2 bad usage.")
final class IndexCommand extends CliCommand {
    /** The default of --commit-every: a killed run loses at most about this many seconds of indexing. */
    static final int DEFAULT_COMMIT_SECONDS = 10;
    /** How many skipped files per reason the text output lists; --json lists them all. */
    static final int LISTED_PER_REASON = 20;

    @Parameters(index = "0", paramLabel = "<dir>", description = "the folder to index")
    String dir = "";

    @Option(names = "--tenant", description = "the tenant the documents belong to (default: ${DEFAULT-VALUE})")
    String tenant = "default";

    @Option(names = "--index", description = "the index: a Lucene folder (default .ragkit/index) or, with --store "
            + "in-memory, a snapshot file (default .ragkit/index.bin)")
    String index;

    @Option(names = "--store", description = "lucene (default) or in-memory (one snapshot file, loaded whole)")
    String storeKind;

    @Option(names = "--rebuild", description = "replace the whole index (every tenant and folder in it) by a new "
            + "one of this folder, made with --embedder (or RAG_EMBEDDER, else the default): built beside the old "
            + "index and swapped in only when complete, so a failed or killed rebuild leaves the old one as it was; "
            + "for an index made by another embedder or a damaged one. Replaces only an index RagKit made")
    boolean rebuild;

    @Option(names = "--sync", description = "also delete this folder's documents whose files are gone (a file that "
            + "--include/--exclude leave out is not gone)")
    boolean sync;

    @Option(names = "--prefix", description = "the path prefix of this folder's documents in the index "
            + "(default: the folder's name, e.g. docs)")
    String prefix;

    @Option(names = "--include", paramLabel = "<glob>", description = "read only paths matching this glob "
            + "(repeatable; default: every file some parser reads), e.g. --include '**/*.pdf'")
    List<String> include = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "<glob>", description = "leave out paths matching this glob "
            + "(repeatable), e.g. --exclude '**/drafts/**'")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--embedder", description = "the embedder: all-minilm-l6-v2-q, all-minilm-l6-v2, "
            + "bge-small-en-v1.5, bge-small-en-v1.5-q or ollama:<model>; an existing index keeps the one it was made "
            + "with (default: RAG_EMBEDDER, else the index's, else " + Embedders.DEFAULT + ")")
    String embedder;

    @Option(names = "--chunk-tokens", description = "the most tokens (cl100k) in one chunk, 16-8192, a quarter of them "
            + "(at most 50) overlapping the chunk before (default: chunks the embedder reads whole, 126 word pieces of "
            + "its own tokenizer for the in-process models, without overlap; an answer reads the chunks around a "
            + "match too)")
    Integer chunkTokens;

    @Option(names = "--redact-secrets", negatable = true, description = "replace each secret found in a document "
            + "(GitHub, Slack, AWS, Google, Stripe or OpenAI keys, JSON Web Tokens, password= or api_key: lines, "
            + "private key blocks) by [REDACTED: <kind>] before indexing, keeping the rest of the document; on by "
            + "default (RAG_REDACT_SECRETS=false turns it off). --no-redact-secrets indexes the text as it is, "
            + "except that documents that are mostly secrets, or hold a private key block, are still skipped")
    Boolean redactSecrets;

    @Option(names = "--threads", description = "the most threads that read, parse and chunk files ahead of the "
            + "embedding, 1-256, the command's own thread included, and the most texts the in-process embedder "
            + "embeds at once (default: the number of cores). Lower it to leave cores to a server answering "
            + "questions on the same machine")
    Integer threads;

    @Option(names = "--commit-every", paramLabel = "<seconds>", description = "commit a Lucene index this often while "
            + "indexing, 0-86400 (0: after every batch of documents; default: ${DEFAULT-VALUE}), so that a run killed "
            + "or crashing loses at most the documents stored since, and the next run carries on with the rest")
    int commitEvery = DEFAULT_COMMIT_SECONDS;

    @Option(names = "--json", description = "print the whole report as JSON (every skipped file with its reason)")
    boolean json;

    IndexCommand(CliContext context) {
        super(context);
    }

    @Override
    public Integer call() throws Exception {
        String tenantName = requireText(tenant, "--tenant");
        Path root = context.resolve(dir);
        if (!Files.isDirectory(root)) {
            throw new RagException("'" + dir + "' is not a folder (" + root + "); name the folder of documents "
                    + "to index");
        }
        if (chunkTokens != null && (chunkTokens < 16 || chunkTokens > 8192)) {
            throw new UsageException("--chunk-tokens must be a whole number from 16 to 8192, got " + chunkTokens);
        }
        if (threads != null && (threads < 1 || threads > 256)) {
            throw new UsageException("--threads must be a whole number from 1 to 256, got " + threads);
        }
        if (commitEvery < 0 || commitEvery > 86_400) {
            throw new UsageException("--commit-every must be a number of seconds from 0 to 86400, got "
                    + commitEvery);
        }
        context.embedderThreads = threads;
        String pathPrefix = prefix != null ? prefix : defaultPrefix(root);
        Indexer.Builder builder = Indexer.builder().tenant(tenantName).sync(sync)
                .redactSecrets(context.redactSecrets(redactSecrets))
                .listener(new ProgressPrinter(context.err, context.interactive))
                .threads(threads != null ? threads : Indexer.DEFAULT_THREADS);
        try {
            builder.pathPrefix(pathPrefix);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--prefix must be a relative folder path such as docs or team/docs (no leading"
                    + " '/', no '.' or '..' parts, no '\\', no empty parts), got '" + Terminal.line(pathPrefix) + "'");
        }
        try {
            if (!include.isEmpty()) {
                builder.include(include);
            }
            builder.exclude(exclude);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        CliIndex.Location location = CliIndex.locate(context, index, storeKind);
        String chosen = context.chosenEmbedder(embedder);
        if (chosen != null) {
            context.embedder(chosen);                 // an unknown name is a usage error before the index is touched
        }
        return rebuild ? rebuild(builder, root, location, chosen != null ? chosen : Embedders.DEFAULT, tenantName,
                pathPrefix) : add(builder, root, location, chosen, tenantName, pathPrefix);
    }

    /** Adds the folder to the index (creating it when absent). */
    private int add(Indexer.Builder builder, Path root, CliIndex.Location location, @Nullable String chosen,
            String tenantName, String pathPrefix) throws Exception {
        IndexReport report;
        try (CliIndex target = CliIndex.forWriting(context, location, chosen)) {
            Embedder reader = context.embedder(target.embedder);
            if (target.store instanceof LuceneDocumentStore) {
                // durable as it goes: a killed run keeps what was committed, and the next run skips those files
                builder.checkpoint(Duration.ofSeconds(commitEvery), ((LuceneDocumentStore) target.store)::flush);
            }
            report = builder.store(target.store).embedder(reader).chunker(chunker(chunkTokens, reader)).build()
                    .index(root);
            target.commit();
        }
        print(report, location, tenantName, pathPrefix);
        if (report.filesIndexed() == 0 && !report.filesFailed().isEmpty()) {
            context.err.println("ragkit: nothing was indexed and " + report.filesFailed().size() + " file(s) failed"
                    + " (listed above); fix what they say (is the embedder's server running?) and index again");
            return RagkitCli.ERROR;
        }
        return RagkitCli.OK;
    }

    /**
     * Builds a new index of the folder beside the old one and swaps it in only when every file was read: a failure
     * (of the embedder, of a file, of the store) or a kill leaves the old index as it was.
     */
    private int rebuild(Indexer.Builder builder, Path root, CliIndex.Location location, String embedderName,
            String tenantName, String pathPrefix) throws Exception {
        Embedder chosen = context.embedder(embedderName);
        requireWorking(chosen, embedderName, location);
        IndexReport report;
        try (CliIndex target = CliIndex.forRebuilding(context, location, embedderName)) {
            context.err.println("ragkit: building a new index in " + target.staging() + "; the index at "
                    + location.path() + " stays as it is until the new one is complete");
            context.err.flush();
            report = builder.store(target.store).embedder(chosen).chunker(chunker(chunkTokens, chosen)).build()
                    .index(root);
            if (!report.filesFailed().isEmpty() || report.cancelled()) {
                print(report, location, tenantName, pathPrefix);
                context.err.println("ragkit: " + report.filesFailed().size() + " file(s) failed (listed above), so the"
                        + " rebuilt index was not swapped in: the index at " + location.path() + " is as it was. Fix "
                        + "them, or leave them out with --exclude, and rebuild again");
                return RagkitCli.ERROR;
            }
            target.commit();
        }
        context.err.println("ragkit: replaced the index at " + location.path() + " with the rebuilt one");
        print(report, location, tenantName, pathPrefix);
        return RagkitCli.OK;
    }

    /** Embeds one short text, so that a rebuild never starts with an embedder that does not work. */
    private static void requireWorking(Embedder embedder, String name, CliIndex.Location location) {
        try {
            embedder.embed(List.of("ragkit checks the embedder before rebuilding"));
        } catch (RuntimeException e) {
            throw new RagException("the embedder '" + name + "' does not work (" + RagkitCli.describe(e) + "). "
                    + "Nothing was changed: the index at " + location.path() + " is as it was. Make it work (for "
                    + "ollama:<model>, is Ollama running at OLLAMA_BASE_URL?) or choose another --embedder", e);
        }
    }

    private void print(IndexReport report, CliIndex.Location location, String tenantName, String pathPrefix)
            throws Exception {
        if (json) {
            ObjectNode out = json().valueToTree(report);
            out.put("index", location.path().toString());
            out.put("store", location.kind() == CliIndex.Kind.LUCENE ? "lucene" : "in-memory");
            out.put("folder", dir);
            out.put("tenant", tenantName);
            context.out.println(json().writeValueAsString(out));
            return;
        }
        printSummary(report, tenantName, pathPrefix);
        context.out.println("Index: " + Terminal.line(location.describe()));
    }

    /**
     * The chunker of {@code index} (and of {@code eval}, which indexes the same way): windows of {@code chunkTokens}
     * cl100k tokens when given, else windows the embedder reads whole ({@link TokenWindowChunker#forEmbedder}).
     */
    static TokenWindowChunker chunker(@Nullable Integer chunkTokens, Embedder embedder) {
        if (chunkTokens == null) {
            return TokenWindowChunker.forEmbedder(embedder);
        }
        return TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).maxTokens(chunkTokens)
                .overlapTokens(Math.min(TokenWindowChunker.DEFAULT_OVERLAP_TOKENS, chunkTokens / 4)).build();
    }

    private void printSummary(IndexReport report, String tenantName, String pathPrefix) {
        context.out.printf(Locale.ROOT, "Indexed %d files (%,d chunks, %,d tokens) from %s into tenant '%s' as %s "
                + "in %.1f s; %d unchanged, %d skipped, %d failed, %d deleted.%n", report.filesIndexed(),
                report.chunks(), report.tokens(), Terminal.line(dir), Terminal.line(tenantName),
                Terminal.line(pathPrefix.isEmpty() ? "(no prefix)"
                        : (pathPrefix.endsWith("/") ? pathPrefix : pathPrefix + "/") + "*"),
                report.elapsed().toMillis() / 1000.0, report.filesUnchanged(), report.filesSkipped().size(),
                report.filesFailed().size(), report.documentsDeleted());
        if (!report.types().isEmpty()) {
            context.out.printf(Locale.ROOT, "  %-12s %8s %10s %8s %7s%n", "type", "indexed", "unchanged", "skipped",
                    "failed");
            report.types().forEach((type, c) -> context.out.printf(Locale.ROOT, "  %-12s %8d %10d %8d %7d%n",
                    Terminal.line(type), c.indexed(), c.unchanged(), c.skipped(), c.failed()));
        }
        IndexReport.InputLimit input = report.inputLimit();
        if (input.chunksOver() > 0) {
            context.out.printf(Locale.ROOT, "Embedder: %d of %d chunks are longer than the %d tokens %s reads (the "
                    + "longest has %d): it does not see their ends. Index without --chunk-tokens (chunks then fit "
                    + "the embedder), or with --chunk-tokens %d.%n", input.chunksOver(), report.chunks(),
                    input.maxTokens(), input.embedder(), input.longest(), input.maxTokens() * 3 / 4);
        }
        if (report.linksDropped() > 0 || report.linksBroken() > 0) {
            context.out.printf(Locale.ROOT, "Links: %d dropped for leaving %s, %d pointing nowhere (kept, not "
                    + "followed).%n", report.linksDropped(), Terminal.line(dir), report.linksBroken());
        }
        printRedacted(report);
        printWarnings(report);
        Map<SkipReason, List<IndexReport.SkippedFile>> byReason = new LinkedHashMap<>();
        report.filesSkipped().forEach(s -> byReason.computeIfAbsent(s.reason(), r -> new ArrayList<>()).add(s));
        byReason.forEach((reason, files) -> {
            for (IndexReport.SkippedFile s : files.subList(0, Math.min(files.size(), LISTED_PER_REASON))) {
                context.out.println("  skipped " + Terminal.line(s.path()) + ": " + reason.description()
                        + (s.detail().isEmpty() ? "" : " (" + Terminal.line(s.detail()) + ")"));
            }
            if (files.size() > LISTED_PER_REASON) {
                context.out.printf(Locale.ROOT, "  ... and %d more %s (ragkit index --json lists every file)%n",
                        files.size() - LISTED_PER_REASON, reason.description());
            }
        });
        report.filesFailed().forEach(f -> context.out.println("  failed  " + Terminal.line(failure(f))));
        if (!report.filesFailed().isEmpty()) {
            Path logFile = context.logFile;
            context.out.println(logFile != null ? "  (the parsers' details: " + Terminal.line(logFile.toString()) + ")"
                    : RagkitCli.debug(context.env) ? "  (the parsers' details are above, on standard error)"
                    : "  (the parsers' details: run again with --log-file <file>, or with RAGKIT_DEBUG=1)");
        }
        int gone = report.documentsGone();
        if (gone > 0) {
            context.out.printf(Locale.ROOT, "%d indexed %s gone; run again with --sync to remove %s from the "
                    + "index.%n", gone, gone == 1 ? "document's file is" : "documents' files are",
                    gone == 1 ? "it" : "them");
        }
    }

    /**
     * @return the failed file and why, naming the file once: the reason of a file that could not be read starts with
     *         its path already ({@code a.pdf: not a readable PDF}, {@code a.md:3: …})
     */
    static String failure(IndexReport.FailedFile file) {
        String message = file.message();
        return message.startsWith(file.path() + ":") ? message : file.path() + ": " + message;
    }

    /** Which files had secrets redacted, on which lines and of which kinds (never the secrets). */
    private void printRedacted(IndexReport report) {
        List<IndexReport.RedactedFile> files = report.filesRedacted();
        if (files.isEmpty()) {
            return;
        }
        context.out.printf(Locale.ROOT, "Secrets: %d line(s) redacted in %d file(s) and indexed without them; move "
                + "them out of the documents (--no-redact-secrets indexes them as they are).%n", report.linesRedacted(),
                files.size());
        for (IndexReport.RedactedFile f : files.subList(0, Math.min(files.size(), LISTED_PER_REASON))) {
            context.out.println("  redacted " + Terminal.line(f.path()) + ": " + lines(f.lines()) + " ("
                    + String.join(", ", f.kinds()) + ")");
        }
        if (files.size() > LISTED_PER_REASON) {
            context.out.printf(Locale.ROOT, "  ... and %d more files with redacted secrets (ragkit index --json lists "
                    + "every file)%n", files.size() - LISTED_PER_REASON);
        }
    }

    /** The files indexed with warnings (hidden sheets skipped, a cut, OCR, attachments not read), one line each. */
    private void printWarnings(IndexReport report) {
        List<IndexReport.WarnedFile> files = report.filesWithWarnings();
        for (IndexReport.WarnedFile f : files.subList(0, Math.min(files.size(), LISTED_PER_REASON))) {
            for (String warning : f.warnings()) {
                context.out.println("  warning " + Terminal.line(f.path()) + ": " + Terminal.line(warning));
            }
        }
        if (files.size() > LISTED_PER_REASON) {
            context.out.printf(Locale.ROOT, "  ... and %d more files indexed with warnings (ragkit index --json lists "
                    + "every file)%n", files.size() - LISTED_PER_REASON);
        }
    }

    /** @return {@code line 3} or {@code lines 3, 9, 12} (the first ten, then how many more) */
    private static String lines(List<Integer> lines) {
        List<String> shown = lines.subList(0, Math.min(10, lines.size())).stream().map(String::valueOf).toList();
        return (lines.size() == 1 ? "line " : "lines ") + String.join(", ", shown)
                + (lines.size() > 10 ? " and " + (lines.size() - 10) + " more" : "");
    }

    /** The folder's own name: the same files get the same paths wherever the command runs from. */
    static String defaultPrefix(Path root) {
        return Indexer.defaultPathPrefix(root);
    }
}
