package dev.ragkit.benchmarks;

import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.parse.MarkdownDocumentParser;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Candidate context blocks for {@link BudgetBenchmark}, cut from a real markdown corpus: the Rust Reference's
 * {@code src/} pages ({@code ../shared/corpora/rust-reference}, or the folder named by the system property
 * {@value #CORPUS_PROPERTY}). Each page is parsed with {@link MarkdownDocumentParser} and chunked with
 * {@link TokenWindowChunker} (500 tokens, 50 of overlap, {@code cl100k_base}); chunks of 300–500 tokens are
 * eligible. Documents are shuffled with a fixed seed, and at most {@value #CHUNKS_PER_DOCUMENT} chunks are taken
 * from each: the first document is critical (its chunks become {@code CRITICAL} blocks), the next ones are relevant
 * until {@value #RELEVANT} relevant blocks are taken, the rest are linked until there are {@value #BLOCKS} blocks.
 * About one relevant document in six is {@code IMPORTANT} (boost +0.10), half the documents carry a date; relevant
 * blocks get seeded similarities in [0.30, 0.90]. The candidate list is shuffled, since the budget sorts it.
 */
final class BudgetFixtures {

    /** System property naming the corpus folder. */
    static final String CORPUS_PROPERTY = "ragkit.budget.corpus";
    /** The corpus folder when the property is not set, relative to the repository root. */
    static final String DEFAULT_CORPUS = "../shared/corpora/rust-reference";
    /** Candidate blocks. */
    static final int BLOCKS = 200;
    /** Critical blocks (all from one critical document). */
    static final int CRITICAL = 3;
    /** Relevant blocks. */
    static final int RELEVANT = 150;
    /** Most chunks taken from one document. */
    static final int CHUNKS_PER_DOCUMENT = 4;
    private static final long SEED = 20261122L;

    /** The question the prompt is built for. */
    static final String QUESTION = "When can a trait be used as a trait object, and which of its methods can be "
            + "called through a `dyn Trait` reference?";

    private BudgetFixtures() {
    }

    /** A short conversation before the question, oldest first. */
    static List<ChatMessage> history() {
        return List.of(
                ChatMessage.user("How do I implement a trait for every type that implements another trait?"),
                ChatMessage.assistant("Use a blanket implementation: `impl<T: Display> MyTrait for T { ... }`. "
                        + "The coherence rules allow it only in the crate that defines `MyTrait`, and it then "
                        + "conflicts with any other implementation that could overlap [SourceId: "
                        + "00000000-0000-3000-8000-000000000000:0]."),
                ChatMessage.user("And can such a trait have generic methods?"),
                ChatMessage.assistant("Yes. A trait method may declare its own type parameters, for example "
                        + "`fn convert<U: From<Self>>(self) -> U where Self: Sized;`."));
    }

    /** @return the corpus folder: the system property, else the default */
    static Path corpus() {
        return Paths.get(System.getProperty(CORPUS_PROPERTY, DEFAULT_CORPUS));
    }

    /**
     * @param corpus the corpus folder (its {@code src/} subfolder is used when present)
     * @return {@value #BLOCKS} candidate blocks in seeded random order
     */
    static List<ContextBlock> candidates(Path corpus) {
        Path root = Files.isDirectory(corpus.resolve("src")) ? corpus.resolve("src") : corpus;
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException("no corpus at " + root.toAbsolutePath() + "; run from the repository"
                    + " root or pass -D" + CORPUS_PROPERTY + "=<folder of markdown files> (with -jvmArgsAppend)");
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Random random = new Random(SEED);
        Collections.shuffle(files, random);
        MarkdownDocumentParser parser = new MarkdownDocumentParser();
        TokenCounter counter = TokenCounters.jtokkit();
        TokenWindowChunker chunker = TokenWindowChunker.builder().counter(counter).maxTokens(500).overlapTokens(50)
                .build();

        List<ContextBlock> blocks = new ArrayList<>(BLOCKS);
        List<String> relevantPaths = new ArrayList<>();
        int documents = 0;
        for (Path file : files) {
            if (blocks.size() == BLOCKS) {
                break;
            }
            ParsedDocument parsed = parser.parse(root, file);
            List<TextChunk> eligible = new ArrayList<>();
            for (TextChunk c : chunker.chunk(parsed)) {
                if (c.tokenCount() >= 300 && c.tokenCount() <= 500) {
                    eligible.add(c);
                }
            }
            if (eligible.isEmpty() || documents == 0 && eligible.size() < CRITICAL) {
                continue;
            }
            ContextBlock.Kind kind = documents == 0 ? ContextBlock.Kind.CRITICAL
                    : blocks.size() < CRITICAL + RELEVANT ? ContextBlock.Kind.RELEVANT : ContextBlock.Kind.LINKED;
            PromotionLevel level = kind == ContextBlock.Kind.CRITICAL ? PromotionLevel.CRITICAL
                    : kind == ContextBlock.Kind.RELEVANT && documents % 6 == 1 ? PromotionLevel.IMPORTANT
                    : PromotionLevel.STANDARD;
            @Nullable LocalDate date = documents % 2 == 0
                    ? LocalDate.of(2022, 1, 1).plusDays(random.nextInt(1400)) : null;
            StoredDocument document = StoredDocument.builder().tenant("bench").path(parsed.path())
                    .title(parsed.title()).promotionLevel(level).date(date).build();
            documents++;
            int limit = kind == ContextBlock.Kind.CRITICAL ? CRITICAL : CHUNKS_PER_DOCUMENT;
            int room = kind == ContextBlock.Kind.RELEVANT ? CRITICAL + RELEVANT - blocks.size() : BLOCKS - blocks.size();
            @Nullable String linkedFrom = relevantPaths.isEmpty() ? null
                    : relevantPaths.get(random.nextInt(relevantPaths.size()));
            for (TextChunk c : eligible.subList(0, Math.min(Math.min(limit, room), eligible.size()))) {
                StoredChunk chunk = new StoredChunk(document.id(), c.index(), c.text(), null, c.tokenCount(),
                        c.startLine(), c.endLine(), c.section(), null);
                blocks.add(block(kind, document, chunk, linkedFrom, random));
            }
            if (kind == ContextBlock.Kind.RELEVANT) {
                relevantPaths.add(parsed.path());
            }
        }
        if (blocks.size() != BLOCKS) {
            throw new IllegalStateException("the corpus at " + root + " gave only " + blocks.size() + " blocks of "
                    + "300-500 tokens; " + BLOCKS + " are needed");
        }
        Collections.shuffle(blocks, random);
        return List.copyOf(blocks);
    }

    private static ContextBlock block(ContextBlock.Kind kind, StoredDocument document, StoredChunk chunk,
            @Nullable String linkedFrom, Random random) {
        switch (kind) {
            case CRITICAL:
                return new ContextBlock(kind, document, chunk, chunk.text(), chunk.startLine(), chunk.endLine(),
                        Double.NaN, Double.NaN, Double.NaN, null, false);
            case RELEVANT:
                double similarity = 0.30 + 0.60 * random.nextDouble();
                double boost = document.promotionLevel() == PromotionLevel.IMPORTANT ? 0.10 : 0;
                return new ContextBlock(kind, document, chunk, chunk.text(), chunk.startLine(), chunk.endLine(),
                        similarity, similarity, Math.min(1.0, similarity + boost), null, false);
            case LINKED:
                return new ContextBlock(kind, document, chunk, chunk.text(), chunk.startLine(), chunk.endLine(),
                        Double.NaN, Double.NaN, Double.NaN, linkedFrom, false);
            default:
                throw new AssertionError(kind);
        }
    }
}
