package dev.ragkit.ingest;

import dev.ragkit.chunk.Chunker;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.EmbeddingCheck;
import dev.ragkit.internal.CodeLanguages;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.ObjLongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One document in, the stored document and its embedded chunks out: choose the parser, parse (within a time
 * limit), refuse secrets, chunk, embed in batches. Files are the {@link Indexer}'s business; this class needs only a
 * path and bytes, so an application whose documents come from a database, object storage or an upload can reuse
 * parse → chunk → embed and upsert the result itself:
 *
 * <pre>{@code
 * DocumentIngestor ingestor = DocumentIngestor.builder().embedder(embedder).tenant("acme").build();
 * DocumentIngestor.Ingested doc = ingestor.ingest(DocumentSource.of("handbook/leave.pdf", bytes));
 * store.upsert(doc.document(), doc.chunks());
 * }</pre>
 *
 * <h2>The parser</h2>
 * The file's extension chooses it ({@link DocumentParsers#forPath}); when the bytes say another kind that a parser
 * reads ({@link ContentSniffer}: a {@code .pdf} that is really an HTML page), that parser reads it. Bytes no parser
 * reads (a legacy {@code .doc}, a zip, a spreadsheet) are a {@link DocumentSkippedException}
 * ({@link SkipReason#UNSUPPORTED_TYPE}); binary bytes under a text extension fail. A parse that takes longer than
 * {@link Builder#parseTimeout(Duration)} (default one minute) is given up — the parse runs on its own daemon thread,
 * which is interrupted and left behind — and a parser that runs out of memory fails its file, not the run.
 *
 * <h2>What is stored</h2>
 * The document's id is {@link StoredDocument#idFor}(tenant, prefix + path); its metadata holds the parser's fields,
 * the front matter's {@code summary} under {@value #SUMMARY_KEY}, the SHA-256 of the bytes under
 * {@value #CONTENT_HASH_KEY}, the embedder's name under {@value #EMBEDDER_KEY} and how secrets were treated under
 * {@value #SECRETS_KEY}, and the version of RagKit's reading under {@value #READER_KEY}: re-indexing skips a document
 * whose bytes, embedder, secret handling and reading did not change.
 *
 * <h2>Secrets</h2>
 * Before chunking, every line is checked for secrets whatever the file is called: well-known token formats (GitHub,
 * GitLab, npm, Slack, AWS access key ids, Google API keys, Stripe live keys, OpenAI-style keys, JSON Web Tokens,
 * {@code Bearer} and {@code Basic} credentials, passwords in URLs), credential assignments ({@code DB_PASSWORD=…},
 * {@code api_key: …}, {@code secret = "…"}) and private key blocks. Each secret is replaced where it stands by
 * {@code [REDACTED: <kind>]} (a key block line by line), so no secret reaches the chunks, the embedder, the store or
 * an answer, the rest of the document is indexed, and line numbers stay right; the title, sections, summary and
 * front-matter fields are redacted the same way. {@link Prepared#secrets()} says which lines, never the secrets. A
 * text that is mostly secrets (at least two lines and more than half of those that say anything, like a {@code .env}
 * file or a bare key) is refused whole ({@link SkipReason#SECRET_CONTENT}). {@link Builder#redactSecrets(boolean)
 * redactSecrets(false)} turns redaction off: then nothing is redacted, and a text that holds a private key block or is
 * mostly secrets is still refused whole.
 *
 * <p>Immutable and thread-safe; calls run on the calling thread (apart from the parse, see above).
 */
public final class DocumentIngestor {
    /** The metadata key under which front matter {@code summary} is stored. */
    public static final String SUMMARY_KEY = "summary";
    /** The metadata key of the SHA-256 of the document's bytes (lower-case hex). */
    public static final String CONTENT_HASH_KEY = "ragkit.sha256";
    /** The metadata key of the name of the embedder that made the document's vectors. */
    public static final String EMBEDDER_KEY = "ragkit.embedder";
    /**
     * The metadata key of the folder a document was indexed from (its real path), written by the {@link Indexer}:
     * how an index knows which folder a path prefix belongs to.
     */
    public static final String ROOT_KEY = "ragkit.root";
    /**
     * The metadata key of when the document was last indexed (an ISO-8601 instant in UTC, e.g.
     * {@code 2025-03-01T09:30:00Z}, from the {@link Indexer}'s clock), written by the {@link Indexer}. A run that
     * finds the file unchanged leaves it as it was: it says when this content was indexed.
     */
    public static final String INDEXED_AT_KEY = "ragkit.indexed_at";
    /**
     * The metadata key of how the document's secrets were treated: {@code redacted-<detector version>} with
     * redaction on, {@code off} without. A change (redaction switched, or a new detector) re-reads unchanged files.
     */
    public static final String SECRETS_KEY = "ragkit.secrets";
    /**
     * The metadata key of the version of how RagKit's own parsers and chunker read a document ({@link
     * #READER_VERSION}): a document read by an older version is read again by the next run, though its bytes did not
     * change, so that a better reading (an HTML definition list's term before its definition) reaches every document.
     */
    public static final String READER_KEY = "ragkit.reader";
    /**
     * The version {@value #READER_KEY} records; raised whenever a parser or the chunker RagKit ships changes the text,
     * lines or sections it makes of some document. 2: HTML definition lists and tables of contents, PDF running
     * headers, a text file's title past a mode line (twenty-fourth session); 3: an HTML manual's bar of links to the
     * next and previous page is no text (twenty-eighth session); 4: a declaration's doc comment and annotations are
     * in its section in code (twenty-ninth session); documents without the key were read by version 1.
     */
    public static final int READER_VERSION = 4;
    /** The default number of chunk texts per {@link Embedder#embed} call. */
    public static final int DEFAULT_BATCH_SIZE = 64;
    /** The default time one parse may take. */
    public static final Duration DEFAULT_PARSE_TIMEOUT = Duration.ofMinutes(1);

    private final Embedder embedder;
    private final String tenant;
    private final DocumentParsers parsers;
    private final Chunker chunker;
    private final int batchSize;
    private final String pathPrefix;
    private final Duration parseTimeout;
    private final long maxChars;
    private final boolean redactSecrets;

    private DocumentIngestor(Builder b) {
        this.embedder = Objects.requireNonNull(b.embedder);
        this.tenant = Objects.requireNonNull(b.tenant);
        this.parsers = b.parsers != null ? b.parsers : DocumentParsers.standard();
        this.chunker = b.chunker != null ? b.chunker : TokenWindowChunker.forEmbedder(embedder);
        this.batchSize = b.batchSize;
        this.pathPrefix = b.pathPrefix;
        this.parseTimeout = b.parseTimeout;
        this.maxChars = b.maxChars;
        this.redactSecrets = b.redactSecrets;
    }

    /** @return a builder; the embedder and the tenant are required */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A document parsed, checked and chunked, before embedding.
     *
     * @param document the document to store (its chunk count not yet known to the store)
     * @param parsed   what the parser made of it, its secrets redacted
     * @param chunks   its chunks
     * @param parser   the id of the parser that read it
     * @param secrets  the lines whose secrets were redacted, and their kinds
     */
    public record Prepared(StoredDocument document, ParsedDocument parsed, List<TextChunk> chunks, String parser,
            SecretRedactions secrets) {
        /** Copies the chunk list. */
        public Prepared {
            Objects.requireNonNull(document, "document");
            Objects.requireNonNull(parsed, "parsed");
            chunks = List.copyOf(chunks);
            Objects.requireNonNull(parser, "parser");
            Objects.requireNonNull(secrets, "secrets");
        }

        /**
         * A document in which nothing was redacted.
         *
         * @param document the document
         * @param parsed   what the parser made of it
         * @param chunks   its chunks
         * @param parser   the id of the parser that read it
         */
        public Prepared(StoredDocument document, ParsedDocument parsed, List<TextChunk> chunks, String parser) {
            this(document, parsed, chunks, parser, SecretRedactions.NONE);
        }
    }

    /**
     * A document ready to upsert.
     *
     * @param document the document
     * @param chunks   its chunks with their vectors
     * @param tokens   the tokens in its chunks
     * @param parsed   what the parser made of it (its links, how many were dropped), its secrets redacted
     * @param secrets  the lines whose secrets were redacted, and their kinds
     */
    public record Ingested(StoredDocument document, List<StoredChunk> chunks, long tokens, ParsedDocument parsed,
            SecretRedactions secrets) {
        /** Copies the chunk list. */
        public Ingested {
            Objects.requireNonNull(document, "document");
            chunks = List.copyOf(chunks);
            Objects.requireNonNull(parsed, "parsed");
            Objects.requireNonNull(secrets, "secrets");
        }

        /**
         * A document in which nothing was redacted.
         *
         * @param document the document
         * @param chunks   its chunks with their vectors
         * @param tokens   the tokens in its chunks
         * @param parsed   what the parser made of it
         */
        public Ingested(StoredDocument document, List<StoredChunk> chunks, long tokens, ParsedDocument parsed) {
            this(document, chunks, tokens, parsed, SecretRedactions.NONE);
        }
    }

    /**
     * Parses, checks, chunks and embeds one document.
     *
     * @param source its path and bytes
     * @return the document and its embedded chunks
     * @throws DocumentSkippedException when it is refused on purpose (unsupported, encrypted, secrets, …)
     * @throws IngestException          when it cannot be parsed, chunked or embedded
     */
    public Ingested ingest(DocumentSource source) {
        return embed(prepare(source));
    }

    /**
     * Parses, checks and chunks one document, without embedding it.
     *
     * @param source its path and bytes
     * @return the document and its chunks
     * @throws DocumentSkippedException when it is refused on purpose
     * @throws IngestException          when it cannot be parsed or chunked
     */
    public Prepared prepare(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        return prepare(source, sha256(source.bytes()), NOT_TIMED);
    }

    /** Stage timings nobody reads. */
    static final ObjLongConsumer<IndexRun.Stage> NOT_TIMED = (stage, nanos) -> { };

    /**
     * {@link #prepare(DocumentSource)} with the hash of the bytes already made (the indexer hashes them once, to
     * tell an unchanged file, and stores that hash), timing parsing and chunking into {@code timer}.
     */
    Prepared prepare(DocumentSource source, String sha256, ObjLongConsumer<IndexRun.Stage> timer) {
        long start = System.nanoTime();
        DocumentParser parser = parserFor(source);
        ParsedDocument parsed;
        try {
            parsed = parseWithin(parser, source);
        } catch (IngestException e) {
            throw withoutSecrets(e);
        }
        SecretScanner.Scan scan = SecretScanner.scan(parsed.lines(), "code".equals(parsed.docType())
                && CodeLanguages.isProgram(parsed.metadata().get("language")));
        if (scan.mostlySecrets() || !redactSecrets && scan.firstKeyBlock() > 0) {
            throw new DocumentSkippedException(source.path(), SkipReason.SECRET_CONTENT, "its text holds "
                    + (scan.mostlySecrets() ? scan.describe() : "a private key block at line " + scan.firstKeyBlock())
                    + "; it is never embedded or quoted (move the secrets out of the document to index it)", null);
        }
        SecretRedactions secrets = SecretRedactions.NONE;
        if (redactSecrets && !scan.found().isEmpty()) {
            parsed = redacted(parsed, scan.redacted());
            secrets = scan.redactions();
        }
        long parsedAt = System.nanoTime();
        timer.accept(IndexRun.Stage.PARSE, parsedAt - start);
        List<TextChunk> chunks;
        try {
            chunks = chunker.chunk(parsed);
        } catch (RuntimeException e) {
            throw new IngestException(source.path(), 0, "chunking failed: " + e, e);
        } finally {
            timer.accept(IndexRun.Stage.CHUNK, System.nanoTime() - parsedAt);
        }
        return new Prepared(document(parsed, sha256), parsed, chunks, parser.id(), secrets);
    }

    /**
     * @param path  a root-relative path
     * @param bytes the file's bytes
     * @return the source of a file, with this ingestor's character limit
     */
    DocumentSource source(String path, byte[] bytes) {
        return new DocumentSource(path, bytes, maxChars);
    }

    /** The document with these lines, and its title, sections, summary and fields redacted too. */
    private static ParsedDocument redacted(ParsedDocument parsed, List<String> lines) {
        Map<String, String> metadata = new LinkedHashMap<>();
        parsed.metadata().forEach((name, value) -> metadata.put(name, SecretScanner.redactField(name, value)));
        Map<String, String> sectionsSeen = new HashMap<>();
        List<@Nullable String> sections = new ArrayList<>(parsed.sections().size());
        for (String section : parsed.sections()) {
            sections.add(section == null ? null : sectionsSeen.computeIfAbsent(section, SecretScanner::redactText));
        }
        String summary = parsed.summary();
        return new ParsedDocument(parsed.path(), SecretScanner.redactText(parsed.title()), parsed.docType(),
                parsed.promotionLevel(), parsed.date(), parsed.accessTags(), parsed.owner(),
                summary == null ? null : SecretScanner.redactText(summary), metadata, parsed.links(),
                parsed.droppedLinks(), lines, parsed.firstBodyLine(), sections, parsed.pages(), parsed.structure(),
                parsed.warnings().stream().map(SecretScanner::redactText).toList());
    }

    /**
     * A parse failure whose message quotes a secret (a parser may quote the line it stopped at) comes back with the
     * secret redacted and without its cause, which may quote it too.
     */
    private IngestException withoutSecrets(IngestException e) {
        String message = e.getMessage();
        if (!redactSecrets || message == null) {
            return e;
        }
        String clean = SecretScanner.redactText(message);
        if (clean.equals(message)) {
            return e;
        }
        String prefix = e.path() == null ? "" : e.path() + (e.line() > 0 ? ":" + e.line() : "") + ": ";
        return new IngestException(e.path(), e.line(), clean.startsWith(prefix) ? clean.substring(prefix.length())
                : clean, null);
    }

    /**
     * Embeds a prepared document's chunks in batches.
     *
     * @param prepared the document
     * @return the document and its embedded chunks
     * @throws IngestException when embedding fails or the embedder answers with wrong vectors
     */
    public Ingested embed(Prepared prepared) {
        return Objects.requireNonNull(embed(prepared, () -> false));
    }

    /** Embeds, asking {@code cancelRequested} before each batch; {@code null} when it said stop. */
    @Nullable Ingested embed(Prepared prepared, BooleanSupplier cancelRequested) {
        Objects.requireNonNull(prepared, "prepared");
        String path = prepared.parsed().path();
        List<TextChunk> chunks = prepared.chunks();
        float[][] vectors = new float[chunks.size()][];
        for (int from = 0; from < chunks.size(); from += batchSize) {
            if (cancelRequested.getAsBoolean()) {
                return null;
            }
            List<String> texts = new ArrayList<>();
            chunks.subList(from, Math.min(chunks.size(), from + batchSize)).forEach(c -> texts.add(c.text()));
            try {
                float[][] got = EmbeddingCheck.check(embedder, texts.size(), embedder.embed(texts));
                System.arraycopy(got, 0, vectors, from, got.length);
            } catch (RuntimeException e) {
                throw new IngestException(path, 0, "embedding failed: " + e.getMessage(), e);
            }
        }
        return assemble(prepared, vectors, 0);
    }

    /**
     * One document of {@link #embedTogether}: embedded, or the failure that concerns it alone.
     *
     * @param prepared the document
     * @param ingested its embedded chunks, or {@code null} when it failed
     * @param failure  why it failed, or {@code null}
     */
    record Embedded(Prepared prepared, @Nullable Ingested ingested, @Nullable IngestException failure) {
    }

    /**
     * Embeds several documents with their chunks filling shared batches (the chunks of many small documents make
     * one call, which an embedder can spread over its cores). When a shared batch fails, each document of the group
     * is embedded on its own, so the failure is reported for the documents it concerns only.
     *
     * @return one result per document in order, or {@code null} when {@code cancelRequested} said stop
     */
    @Nullable List<Embedded> embedTogether(List<Prepared> documents, BooleanSupplier cancelRequested) {
        List<String> texts = new ArrayList<>();
        for (Prepared p : documents) {
            p.chunks().forEach(c -> texts.add(c.text()));
        }
        float[][] vectors = new float[texts.size()][];
        try {
            for (int from = 0; from < texts.size(); from += batchSize) {
                if (cancelRequested.getAsBoolean()) {
                    return null;
                }
                List<String> batch = texts.subList(from, Math.min(texts.size(), from + batchSize));
                float[][] got = EmbeddingCheck.check(embedder, batch.size(), embedder.embed(batch));
                System.arraycopy(got, 0, vectors, from, got.length);
            }
        } catch (RuntimeException e) {
            return oneByOne(documents, cancelRequested);
        }
        List<Embedded> out = new ArrayList<>(documents.size());
        int at = 0;
        for (Prepared p : documents) {
            try {
                out.add(new Embedded(p, assemble(p, vectors, at), null));
            } catch (IngestException e) {
                out.add(new Embedded(p, null, e));
            }
            at += p.chunks().size();
        }
        return out;
    }

    private @Nullable List<Embedded> oneByOne(List<Prepared> documents, BooleanSupplier cancelRequested) {
        List<Embedded> out = new ArrayList<>(documents.size());
        for (Prepared p : documents) {
            try {
                Ingested ingested = embed(p, cancelRequested);
                if (ingested == null) {
                    return null;
                }
                out.add(new Embedded(p, ingested, null));
            } catch (IngestException e) {
                out.add(new Embedded(p, null, e));
            }
        }
        return out;
    }

    /** The stored chunks of {@code prepared}, whose vectors start at {@code offset} of {@code vectors}. */
    private Ingested assemble(Prepared prepared, float[][] vectors, int offset) {
        String path = prepared.parsed().path();
        List<TextChunk> chunks = prepared.chunks();
        List<StoredChunk> stored = new ArrayList<>(chunks.size());
        long tokens = 0;
        for (int i = 0; i < chunks.size(); i++) {
            TextChunk chunk = chunks.get(i);
            if (chunk.index() != i) {
                throw new IngestException(path, chunk.startLine(), "the chunker numbered chunk " + i + " as "
                        + chunk.index() + "; chunk indexes must run 0, 1, 2, … in order", null);
            }
            stored.add(new StoredChunk(prepared.document().id(), chunk.index(), chunk.text(), vectors[offset + i],
                    chunk.tokenCount(), chunk.startLine(), chunk.endLine(), chunk.section(), chunk.page()));
            tokens += chunk.tokenCount();
        }
        return new Ingested(prepared.document(), stored, tokens, prepared.parsed(), prepared.secrets());
    }

    /** @return how many texts one embedding call takes */
    int batchSize() {
        return batchSize;
    }

    /**
     * Whether a stored document already holds these bytes, embedded by this ingestor's embedder.
     *
     * @param stored the stored version, or {@code null}
     * @param sha256 the hash of the bytes now ({@link #sha256(byte[])})
     * @return whether parsing, chunking and embedding again would give the same result
     */
    public boolean unchanged(@Nullable StoredDocument stored, String sha256) {
        return stored != null && sha256.equals(stored.metadata().get(CONTENT_HASH_KEY))
                && embedder.name().equals(stored.metadata().get(EMBEDDER_KEY))
                && secretHandling().equals(stored.metadata().get(SECRETS_KEY))
                && String.valueOf(READER_VERSION).equals(stored.metadata().get(READER_KEY));
    }

    /** @return what {@value #SECRETS_KEY} records for this ingestor */
    private String secretHandling() {
        return redactSecrets ? "redacted-" + SecretScanner.VERSION : "off";
    }

    /** @return whether secrets are redacted line by line (the default) */
    public boolean redactsSecrets() {
        return redactSecrets;
    }

    /** @return the stored path of a root-relative path: the prefix and the path */
    String storedPath(String path) {
        return pathPrefix + path;
    }

    /** @return what stored paths start with ({@code docs/}), or empty */
    String pathPrefix() {
        return pathPrefix;
    }

    /** @return the embedder of the chunks */
    public Embedder embedder() {
        return embedder;
    }

    /** @return the parsers this ingestor chooses from */
    public DocumentParsers parsers() {
        return parsers;
    }

    /** @return the tenant documents are stored for */
    public String tenant() {
        return tenant;
    }

    /**
     * @param bytes any bytes
     * @return their SHA-256, lower-case hex
     */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private DocumentParser parserFor(DocumentSource source) {
        String path = source.path();
        ContentSniffer.Kind kind = ContentSniffer.sniff(source.bytes());
        DocumentParser byExtension = parsers.forPath(path).orElse(null);
        if (byExtension != null && (reads(byExtension, kind) || source.bytes().length == 0)) {
            // 0 bytes say nothing about the type: an empty .pdf is a broken PDF, not an empty text file
            return byExtension;
        }
        DocumentParser byKind = parsers.forKind(kind).orElse(null);
        if (byKind != null) {
            return byKind;                 // the bytes say otherwise: e.g. a .pdf that is really an HTML page
        }
        switch (kind) {
            case OLE2:
                if (DocumentPaths.extension(path).endsWith("x")) {      // .docx, .xlsx, .pptx in an OLE2 envelope
                    throw new DocumentSkippedException(path, SkipReason.ENCRYPTED, "an Office document protected "
                            + "with a password; save an unprotected copy to index it", null);
                }
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "a legacy Office file (.doc, "
                        + ".xls, .ppt); save it as .docx, or as PDF, to index it", null);
            case PPTX:
            case XLSX:
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "a spreadsheet or a "
                        + "presentation, which no parser reads (add rag-documents to read them)", null);
            case OFFICE_OTHER:
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "an Office Open XML file "
                        + "that is not a Word document, a spreadsheet or a presentation, which no parser reads", null);
            case OPENDOCUMENT:
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "an OpenDocument file, which "
                        + "no parser reads (add rag-documents to read it)", null);
            case ZIP:
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, "a zip archive that is not a "
                        + "Word document", null);
            default:
                throw new DocumentSkippedException(path, SkipReason.UNSUPPORTED_TYPE, (kind == ContentSniffer.Kind
                        .BINARY ? "binary content" : kind + " content") + (byExtension == null ? ""
                        : " under a ." + DocumentPaths.extension(path) + " name") + ", which no parser reads"
                        + (kind == ContentSniffer.Kind.BINARY ? " (text must be UTF-8)" : ""), null);
        }
    }

    /** Whether a parser reads bytes of this kind: those it names, and text (or HTML-looking text) when it names none. */
    private static boolean reads(DocumentParser parser, ContentSniffer.Kind kind) {
        return parser.kinds().contains(kind) || parser.kinds().isEmpty()
                && (kind == ContentSniffer.Kind.TEXT || kind == ContentSniffer.Kind.HTML);
    }

    /** Runs the parser on its own daemon thread within the time limit (on this one when there is no limit). */
    private ParsedDocument parseWithin(DocumentParser parser, DocumentSource source) {
        // the stricter of two limits: the source's own and this ingestor's (Builder.maxChars)
        DocumentSource limited = source.maxChars() <= maxChars ? source
                : new DocumentSource(source.path(), source.bytes(), maxChars);
        if (parseTimeout.isZero()) {
            return checked(parser, limited, parser.parse(limited));
        }
        FutureTask<ParsedDocument> task = new FutureTask<>(() -> parser.parse(limited));
        Thread thread = new Thread(task, "ragkit-parse " + source.path());
        thread.setDaemon(true);
        thread.start();
        try {
            return checked(parser, limited, task.get(parseTimeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (TimeoutException e) {
            thread.interrupt();
            throw new IngestException(source.path(), 0, "parsing with the " + parser.id() + " parser took longer "
                    + "than " + parseTimeout.toSeconds() + " s and was given up (a broken or hostile file?); raise "
                    + "parseTimeout to give it longer", e);
        } catch (InterruptedException e) {
            thread.interrupt();
            Thread.currentThread().interrupt();
            throw new IngestException(source.path(), 0, "interrupted while parsing", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IngestException) {
                throw (IngestException) cause;
            }
            if (cause instanceof OutOfMemoryError) {
                throw new IngestException(source.path(), 0, "the " + parser.id() + " parser ran out of memory on this"
                        + " file; it was given up", cause);
            }
            throw new IngestException(source.path(), 0, "the " + parser.id() + " parser failed: " + cause, cause);
        }
    }

    private static ParsedDocument checked(DocumentParser parser, DocumentSource source, ParsedDocument parsed) {
        if (!parsed.path().equals(source.path())) {
            throw new IngestException(source.path(), 0, "the " + parser.id() + " parser named the document '"
                    + parsed.path() + "'; a parser keeps the source's path", null);
        }
        return parsed;
    }

    private StoredDocument document(ParsedDocument parsed, String sha256) {
        Map<String, String> metadata = new LinkedHashMap<>(parsed.metadata());
        if (parsed.summary() != null && !parsed.summary().isBlank()) {
            metadata.put(SUMMARY_KEY, parsed.summary());
        }
        metadata.put(CONTENT_HASH_KEY, sha256);
        metadata.put(EMBEDDER_KEY, embedder.name());
        metadata.put(SECRETS_KEY, secretHandling());
        metadata.put(READER_KEY, String.valueOf(READER_VERSION));
        List<String> links = new ArrayList<>(parsed.links().size());
        parsed.links().forEach(l -> links.add(pathPrefix + l));
        return StoredDocument.builder()
                .tenant(tenant)
                .path(pathPrefix + parsed.path())
                .title(parsed.title())
                .docType(blankToNull(parsed.docType()))
                .promotionLevel(parsed.promotionLevel())
                .date(parsed.date())
                .accessTags(parsed.accessTags())
                .ownerTag(blankToNull(parsed.owner()))
                .links(links)
                .metadata(metadata)
                .charCount(parsed.bodyCharCount())
                .build();
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Builds a {@link DocumentIngestor}. Not thread-safe. */
    public static final class Builder {
        @Nullable Embedder embedder;
        @Nullable String tenant;
        @Nullable DocumentParsers parsers;
        @Nullable Chunker chunker;
        int batchSize = DEFAULT_BATCH_SIZE;
        String pathPrefix = "";
        Duration parseTimeout = DEFAULT_PARSE_TIMEOUT;
        long maxChars = DocumentSource.DEFAULT_MAX_CHARS;
        boolean redactSecrets = true;

        Builder() {
        }

        /** @return a builder with every setting of this one (kept beside the fields, so a new one is not forgotten) */
        Builder copy() {
            Builder b = new Builder();
            b.embedder = embedder;
            b.tenant = tenant;
            b.parsers = parsers;
            b.chunker = chunker;
            b.batchSize = batchSize;
            b.pathPrefix = pathPrefix;
            b.parseTimeout = parseTimeout;
            b.maxChars = maxChars;
            b.redactSecrets = redactSecrets;
            return b;
        }

        /** @param embedder embeds the chunks (required) @return this builder */
        public Builder embedder(Embedder embedder) {
            this.embedder = Objects.requireNonNull(embedder, "embedder");
            return this;
        }

        /** @param tenant the tenant documents are stored for (required, not blank) @return this builder */
        public Builder tenant(String tenant) {
            Objects.requireNonNull(tenant, "tenant");
            if (tenant.isBlank()) {
                throw new IllegalArgumentException("tenant must not be blank");
            }
            this.tenant = tenant;
            return this;
        }

        /** @param parsers the parsers to choose from (default {@link DocumentParsers#standard()}) @return this */
        public Builder parsers(DocumentParsers parsers) {
            this.parsers = Objects.requireNonNull(parsers, "parsers");
            return this;
        }

        /**
         * @param chunker cuts the text (default {@link TokenWindowChunker#forEmbedder}: chunks the embedder reads
         *                whole)
         * @return this
         */
        public Builder chunker(Chunker chunker) {
            this.chunker = Objects.requireNonNull(chunker, "chunker");
            return this;
        }

        /** @param size chunk texts per embedding call, at least 1 (default 64) @return this builder */
        public Builder batchSize(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("batchSize must be at least 1, got " + size);
            }
            this.batchSize = size;
            return this;
        }

        /**
         * @param prefix what stored paths (and links) start with, e.g. {@code docs/}; empty by default. Checked by
         *               the {@link Indexer.Builder#pathPrefix(String)} rules
         * @return this builder
         */
        public Builder pathPrefix(String prefix) {
            this.pathPrefix = Objects.requireNonNull(prefix, "prefix");
            return this;
        }

        /**
         * @param timeout the longest one parse may take, or {@link Duration#ZERO} for no limit (then parsing runs on
         *                the calling thread); default one minute
         * @return this builder
         */
        public Builder parseTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("parseTimeout must not be negative, got " + timeout);
            }
            this.parseTimeout = timeout;
            return this;
        }

        /**
         * @param chars the most characters one document may yield, at least 1 (default 20 million); a
         *              {@link DocumentSource} given with a smaller {@link DocumentSource#maxChars() limit} of its own
         *              keeps it
         * @return this builder
         */
        public Builder maxChars(long chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxChars must be at least 1, got " + chars);
            }
            this.maxChars = chars;
            return this;
        }

        /**
         * @param redact whether to replace each secret found in a document's lines by {@code [REDACTED: <kind>]}
         *               before chunking (default {@code true}); {@code false} indexes the text as it is, except that
         *               a text holding a private key block or mostly secrets is still refused whole
         * @return this builder
         */
        public Builder redactSecrets(boolean redact) {
            this.redactSecrets = redact;
            return this;
        }

        /**
         * @return the ingestor
         * @throws IllegalStateException naming every missing setting (embedder, tenant)
         */
        public DocumentIngestor build() {
            List<String> missing = new ArrayList<>();
            if (embedder == null) {
                missing.add("embedder(...)");
            }
            if (tenant == null) {
                missing.add("tenant(...)");
            }
            if (!missing.isEmpty()) {
                throw new IllegalStateException("a DocumentIngestor needs " + String.join(" and ", missing));
            }
            return new DocumentIngestor(this);
        }
    }
}
