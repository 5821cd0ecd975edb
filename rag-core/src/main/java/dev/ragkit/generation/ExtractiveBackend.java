package dev.ragkit.generation;

import dev.ragkit.embedding.Embedder;
import dev.ragkit.embedding.SimilarityScale;
import dev.ragkit.internal.AnswerKind;
import dev.ragkit.internal.PageKind;
import dev.ragkit.internal.QueryTerms;
import dev.ragkit.internal.Sentences;
import dev.ragkit.internal.Vectors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link LlmBackend} that is not a language model: it answers with the context's sentences that hold the most of
 * the question, each followed by its {@code [SourceId: …]}: the document of the best one first, and each document's
 * in the order they stand in it (a better quote of a lower-ranked document before a weaker one of the first), under
 * a line naming the document ({@code In "I. M. Pei" (i-m-pei.md):}, its title and file name), which often says whom or
 * what the quotes are about.
 * Deterministic, instant and offline; for machines without a model server. Its answers say they are extractive, and
 * its model name is {@value #MODEL}, so it never passes for a language model. It cannot rate answers: a self-rating
 * request gets a reply that is not a number (turn self-rating off with it).
 *
 * <p>Sentences are cut by {@link Sentences} (the JDK's {@link java.text.BreakIterator}, with headings, list items
 * and code lines kept apart, so a heading is never glued to the sentence after it). Headings are never quoted, nor
 * is a sentence that holds the whole question word for word (a FAQ's question, an example command that asks it). A
 * quoted sentence that opens by referring back ("She played Talisa.", "It was the first final since 2002.") is quoted
 * with the sentence before it in its paragraph, which says whom or what it is about; for a question asking for
 * someone (who, a first or full name), a sentence naming someone by one word is quoted after the passage's first
 * sentence that names them in full
 * ("Gia Matteo flirts with Christian. … Ana threatens to fire Gia."). A table's rows are quoted one by
 * one, each with its table's header row (once per answer), and a row is worth the question's words it and its header
 * hold: a whole table is never one sentence. A sentence ending in a colon that introduces a code block or a list
 * ("Add the dependency:") is quoted with it, line by line as written and indented under it, its SourceIds on the line
 * after the block, and holds the block's words (unless the block holds the whole question); the block's lines are
 * not quoted again on their own. A
 * sentence is worth the share of the question's content words ({@link QueryTerms}) it and the heading it stands under
 * hold (so "What is the conclusion of the essay?" quotes the sentences under "Conclusion"), each word weighted by its
 * rarity among the context blocks ({@code ln((blocks + 1) / (blocks holding it + 0.5))}), and at least half the worth
 * of the sentence before it in its paragraph ({@link #CONTINUATION}: the sentence after the one naming the subject
 * often answers without naming it again; not for a sheet's rows or a slide's paragraphs), or of the sentence after
 * it when that one opens with a personal pronoun (the sentence naming "he" answers "who"); ties go to the earlier
 * block. A sentence holding the kind of answer an English question asks for ({@link AnswerKind}: a time for "when", a
 * number for "how many", a name the question lacks for "who", "what is the first name of" or "which country", a named
 * place after "in", "at" or "near" for "where", the thing asked about before "is a" for "what is") is worth {@value
 * #KIND} more. A line of code is worth half as much
 * ({@link #CODE_LINE}): a question in words is answered by prose, comments and docstrings first.
 *
 * <p>With an {@link Embedder} (a {@link dev.ragkit.RagPipeline} hands its own to an extractive backend built without
 * one, see {@link #quotingWith}) the model's view counts too: a sentence's worth is half its word worth and half where
 * its similarity to the question lies between the least and the most similar sentence of the context ({@link
 * #SEMANTIC}), so "How cold does it get in winter?" finds "The coldest month is January, when ... 13 °F". Then a
 * sentence sharing no word with the question can be quoted when the model finds it as close as one that does, or
 * at least halfway from the least to the most similar sentence — in running text, not among a sheet's rows or a
 * slide's paragraphs, which stand alone and look alike to a model; without an embedder a sentence worth nothing never
 * is. So can a sentence holding the kind of answer asked for, in a passage where another sentence holds the question's
 * words.
 * The answerability check before generation has already decided that the context supports the question.
 * It costs one embedding call of at most {@value #MAX_EMBEDDED} sentences per answer; when that call fails the words
 * alone decide. A paged block's sentences carry their place as its header names it
 * ({@link PageKind}): {@code (p. 12)}, {@code (slide 7)}, {@code (sheet Q3)}; a sheet's rows and a slide's
 * paragraphs are quoted one by one. It reads the blocks in the layout of
 * {@link dev.ragkit.prompt.PromptBuilder#standard()} ({@code [SourceId: …]}, header lines, {@code ---}, text,
 * {@code ---}); other layouts find no blocks.
 */
public final class ExtractiveBackend implements LlmBackend {

    /** The model name it answers as. */
    public static final String MODEL = "extractive";
    /** The first words of every answer. */
    public static final String LABEL = "Extractive answer (quoted from the documents, no language model):";

    /** A header line of a prompt block: its name ({@code Title}, {@code Lines}, {@code Page}, …) and its value. */
    private static final Pattern HEADER = Pattern.compile("\\n([A-Z][A-Za-z ]*): ([^\\n]*)");
    private static final Pattern LINES = Pattern.compile("(\\d{1,9})-(\\d{1,9})");
    private static final Pattern BLOCK = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]\\n(?:[^\\n]*\\n)*?---\\n");
    private static final Pattern CUT_MARKER = Pattern.compile("\\n\\[\\.\\.\\. cut here[^\\n]*$");
    private static final Pattern LIST_MARKER = Pattern.compile("^([-*+\u2022]|\\d{1,3}[.)])\\s+");
    private static final Pattern SPACE = Pattern.compile("\\s+");
    /** A sentence that is one link and nothing else: a table of contents' entry, which points and says nothing. */
    private static final Pattern LINK_ALONE = Pattern.compile("\\[[^\\]]*]\\([^)\\s]*\\)[.,;]?");
    /**
     * A sentence opening with a word that refers back to the sentence before (any of them, where {@link #PRONOUN}
     * names a person only): quoted with that one.
     */
    private static final Pattern REFERS_BACK =
            Pattern.compile("(He|She|It|They|His|Her|Its|Their|This|These|Those)\\b");
    /** A personal pronoun opening a sentence: its subject was named in the sentence before. */
    private static final Pattern PRONOUN = Pattern.compile("(He|She|His|Her|They|Their)\\b");
    /** A capitalised word, as a regular expression. */
    private static final String CAPITALISED = "\\p{Lu}[\\p{L}'’-]+";
    /** A run of capitalised words: a name, or a name's parts. */
    private static final Pattern NAME = Pattern.compile(CAPITALISED + "(?:\\s+" + CAPITALISED + ")*");
    /**
     * What a sentence is worth at least, as a share of the worth of the sentence before it in its paragraph: the
     * sentence after the one that names the subject often holds the answer without naming it again ("It has...").
     * 0.3 to 0.5 gave the same answer-hit on MLQA, TyDi QA and Natural Questions (+0.6, +3.0 and +3.3 points at 0.5
     * against 0); 0.8 and 1 less (docs/design-notes.md, "Encyclopaedia sentences, the sentence after, ...").
     */
    static final double CONTINUATION = 0.5;
    /**
     * The embedder's share of a sentence's worth when there is one. On TyDi QA (MiniLM, every sentence quotable)
     * answer-hit was 0.807 with the words alone and 0.856 at 0.5, 0.853 at 0.7, 0.815 with the embedder alone; 0.837
     * at 0.5 with the bar for sentences without the question's words (docs/design-notes.md, "Sentences the embedder
     * chooses").
     */
    static final double SEMANTIC = 0.5;
    /**
     * What a sentence holding the kind of answer the question asks for ({@link AnswerKind}: a time for "when", a
     * number for "how many", a name for "who") is worth more. Answer-hit on TyDi QA 0.842 → 0.869 (MiniLM) and 0.866 →
     * 0.891 (bge-small) at 0.3, 0.850 / 0.877 at 0.1, 0.875 / 0.891 at 0.5; MLQA-47 0.738 / 0.744 without, 0.747 /
     * 0.741 at 0.3, 0.747 / 0.738 at 0.5 (docs/design-notes.md, "The kind of answer a question asks for"). A named
     * place for "where", at the same weight: Natural Questions 0.829 → 0.832, MLQA 0.787 → 0.791 (MiniLM).
     */
    static final double KIND = 0.3;
    /**
     * What a sentence of the first document in the prompt is worth more than one of a document after all the others,
     * falling evenly with the document's place: the prompt lists the documents retrieval matched best first, and when
     * two sentences hold the question's words about as well, the one in the better-matched document more often
     * answers. Chosen on MLQA and Quoref (answer-hit, the mean of both quantized models on both: +0.2 points at 0.2,
     * +0.4 at 0.3, +0.3 at 0.5), then measured on the other sets: Natural Questions 0.815 → 0.829, TyDi QA 0.888 →
     * 0.894, MLQA-47 0.791 → 0.794 (MiniLM; docs/design-notes.md, "The better-matched document first"). By document,
     * not by chunk: the answering chunk of a long article is often not its best-matched one (by chunk, MLQA-47 fell
     * 0.791 → 0.783 at 0.2).
     */
    static final double DOCUMENT_RANK = 0.3;
    /**
     * What a line of code is worth against a sentence of prose holding as much of the question: half. A question in
     * words is answered by words — a comment, a docstring, the documentation's prose — and a code line that shares a
     * name with it ({@code import { spawn } from 'node:child_process';} for "what does the signal option of spawn
     * do?", {@code public static CachingEmbedder of(Embedder delegate) {} for "what does the caching embedder do when
     * the delegate fails?") says nothing on its own; a code block is quoted whole with the sentence introducing it.
     * Where only code holds the question's words, code is still quoted.
     */
    static final double CODE_LINE = 0.5;
    /** The fewest words a question has for a sentence holding all of it to be taken for an echo of it. */
    static final int ECHO_WORDS = 3;
    private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");
    /** The most sentences embedded for one answer: those of the first blocks, which the prompt ranks best. */
    static final int MAX_EMBEDDED = 64;

    private static final Logger LOG = LoggerFactory.getLogger(ExtractiveBackend.class);

    /**
     * A quoted sentence as {@link #answer} writes it: its text, its place (optional) and its SourceIds (on a later
     * line after a code block or list it introduces).
     */
    private static final Pattern QUOTE = Pattern.compile(
            "- (.+?)(?: \\((?:p\\.|slide|sheet) [^)]*\\))?(?: \\[SourceId: [^\\]]+])?");

    private final int maxSentences;
    private final @Nullable Embedder embedder;

    /** A backend quoting at most three sentences, chosen by the question's words. */
    public ExtractiveBackend() {
        this(3);
    }

    /** @param maxSentences the most sentences quoted, at least 1 */
    public ExtractiveBackend(int maxSentences) {
        this(maxSentences, null);
    }

    /**
     * @param maxSentences the most sentences quoted, at least 1
     * @param embedder     the model that helps choose them (the one the index was built with suits), or {@code null}
     *                     for the question's words alone
     */
    public ExtractiveBackend(int maxSentences, @Nullable Embedder embedder) {
        if (maxSentences < 1) {
            throw new IllegalArgumentException("maxSentences must be at least 1, got " + maxSentences);
        }
        this.maxSentences = maxSentences;
        this.embedder = embedder;
    }

    /**
     * @param embedder the model that helps choose the sentences
     * @return a backend like this one that also asks {@code embedder} which sentences are closest to the question
     */
    public ExtractiveBackend quotingWith(Embedder embedder) {
        return new ExtractiveBackend(maxSentences, Objects.requireNonNull(embedder, "embedder"));
    }

    /** @return the model that helps choose the sentences, or {@code null} when the question's words alone do */
    public @Nullable Embedder embedder() {
        return embedder;
    }

    /**
     * How similar each sentence an answer of this backend quotes is to the question, standardised on the embedder's
     * {@link SimilarityScale} (0 is as similar as unrelated text; with the in-process models an answering sentence
     * scores about 3 to 8). The default confidence scorer weighs it: an answer whose best sentence is no nearer to
     * the question than the rest of what it quotes is more often a passage on the subject than an answer
     * (docs/design-notes.md, "Two checks"). Two embedding calls: the question, and the quoted sentences. The scale
     * is the one the embedder states ({@link Embedder#similarityScale()}: the in-process models, on whose sentences
     * the scorer's weights were fitted), else the one measured for it ({@link SimilarityScale#of}, once per embedder,
     * shared with retrieval; it puts answers where the stated scales do: docs/design-notes.md, "A scale measured with
     * answers").
     *
     * @param question the question
     * @param answer   an answer this backend wrote
     * @return one value per quoted sentence, in the answer's order; empty without an embedder, for a text with no
     *         quoted sentence, or when the embedder fails
     */
    public List<Double> quoteSimilarity(String question, String answer) {
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(answer, "answer");
        List<String> quotes = new ArrayList<>();
        for (String line : answer.split("\n")) {
            Matcher m = QUOTE.matcher(line);
            if (m.matches()) {
                quotes.add(m.group(1));
            }
        }
        Embedder model = embedder;
        if (model == null || quotes.isEmpty()) {
            return List.of();
        }
        try {
            SimilarityScale s = SimilarityScale.of(model);
            return Arrays.stream(cosines(model, question, quotes)).map(s::standardise).boxed().toList();
        } catch (RuntimeException e) {
            LOG.debug("the embedder could not rate the quoted sentences; the answer's confidence rests on retrieval",
                    e);
            return List.of();
        }
    }

    @Override
    public String name() {
        return MODEL;
    }

    @Override
    public ChatResult chat(ChatRequest request) {
        Objects.requireNonNull(request, "request");
        return new ChatResult(answer(request), MODEL, FinishReason.STOP, null, null, Duration.ZERO);
    }

    /**
     * One block of the prompt: its SourceId, page (and what a page is), section, text, the document lines it spans
     * ({@code firstLine} -1 when the prompt does not say), and its document's title and path as the header gives them.
     */
    private record Block(String sourceId, @Nullable String page, PageKind kind, Sentences.Layout layout,
            @Nullable String section, String text, int firstLine, int lastLine, @Nullable String title,
            @Nullable String path) {
        /** @return how an answer names the block's document ({@link ExtractiveBackend#name}), or {@code null} */
        @Nullable String name() {
            return ExtractiveBackend.name(title, path);
        }

        /** @return how a quoted sentence names its place, e.g. {@code  (p. 12)}; empty without a page */
        String place() {
            return page == null ? "" : " (" + kind.at(page, section) + ")";
        }

        /** @return the document the block is a chunk of: its SourceId without the chunk's number */
        String document() {
            return sourceId.substring(0, sourceId.lastIndexOf(':'));
        }
    }

    /**
     * A sentence that may be quoted: its passage's first block (for its place: the passage's blocks share page and
     * section), the SourceIds of the blocks it stands in, its worth, whether it holds the kind of answer asked for,
     * whether a sentence of its passage holds the question's words, what it is quoted after (found only when chosen:
     * finding it may look through the passage) and what it is quoted with after it.
     */
    private record Candidate(String text, Block block, List<String> sourceIds, int order, double worth,
            boolean ofKind, boolean besideWords, boolean code, Supplier<@Nullable Beside> lead,
            @Nullable Beside follow) {
        Candidate withWorth(double newWorth) {
            return new Candidate(text, block, sourceIds, order, newWorth, ofKind, besideWords, code, lead, follow);
        }

        /** Whether the other candidate's sentence is this one, stands in it, holds it or is quoted after it. */
        boolean repeats(Candidate other) {
            return text.contains(other.text()) || other.text().contains(text)
                    || follow != null && SPACE.matcher(follow.text()).replaceAll(" ").contains(other.text());
        }
    }

    /**
     * What a quoted sentence is quoted with, its text and SourceIds: before it, the sentence before when it refers
     * back to that one, a table row's header row, or the sentence naming in full someone it names by one word (its
     * lead; {@code apart} when text stands between them, quoted with " … " between); after it, the code block or list
     * a sentence ending in a colon introduces ({@link Sentences#introduced}), line by line as written.
     */
    private record Beside(String text, List<String> sourceIds, boolean apart) {
        Beside(String text, List<String> sourceIds) {
            this(text, sourceIds, false);
        }
    }

    /**
     * Blocks that go on from each other — one document's consecutive chunks, on one page and in one section, as
     * retrieval hands a match in with its neighbours — read as one text, so that a sentence a chunk boundary cut in two
     * is quoted whole. {@code starts[i]} is where block {@code i} begins in {@code text}.
     */
    private record Passage(List<Block> blocks, String text, int[] starts) {

        /** @return the SourceIds of the blocks the characters {@code [from, to)} stand in */
        List<String> sourceIds(int from, int to) {
            List<String> ids = new ArrayList<>(2);
            for (int i = 0; i < blocks.size(); i++) {
                int end = starts[i] + blocks.get(i).text().length();
                if (from < end && to > starts[i]) {
                    ids.add(blocks.get(i).sourceId());
                }
            }
            return ids;
        }
    }

    private String answer(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        String system = messages.get(0).role() == ChatMessage.Role.SYSTEM ? messages.get(0).content() : "";
        String question = messages.get(messages.size() - 1).content();
        List<Block> blocks = blocks(system);
        Set<String> asked = QueryTerms.of(question);
        List<Set<String>> blockTerms = new ArrayList<>();
        for (Block b : blocks) {
            blockTerms.add(QueryTerms.inPassage(b.text()));
        }
        Map<String, Double> weights = QueryTerms.rarity(asked, blockTerms);
        AnswerKind kind = AnswerKind.of(question);
        String echo = echo(question);
        // a question asking for someone ("who", "the first name of", "the full name of"): a name of one word in a
        // quote comes with the sentence naming them in full
        boolean forName = kind == AnswerKind.NAME || AnswerKind.asksFullName(question);
        List<Candidate> candidates = new ArrayList<>();
        for (Passage passage : passages(blocks)) {
            Block b = passage.blocks().get(0);
            List<Sentences.Sentence> sentences = Sentences.of(passage.text(), b.section(), b.layout());
            List<@Nullable Beside> follows = new ArrayList<>(sentences.size());
            for (Sentences.Sentence s : sentences) {
                int[] at = Sentences.introduced(passage.text(), s);
                String block = at == null ? null : Sentences.rendered(passage.text().substring(at[0], at[1]));
                // a block that asks the question itself (an example command) answers nothing, as such a sentence
                follows.add(block == null || holds(block, echo) ? null
                        : new Beside(block, passage.sourceIds(at[0], at[1])));
            }
            double[] worth = worths(sentences, follows, asked, weights, b);
            boolean words = Arrays.stream(worth).anyMatch(w -> w > 0);
            for (int i = 0; i < sentences.size(); i++) {
                int at = i;
                Sentences.Sentence s = sentences.get(i);
                // without the question's words, only in running text: rows and a slide's paragraphs stand alone,
                // and look alike to a model ("South | 950" and "North | 1200")
                String paired = s.header() == null ? null : paired(s.header().text(), s.text());
                String text = paired != null ? paired : display(s.text());
                if (!s.heading() && (worth[i] > 0 || embedder != null && !standsAlone(s, b))
                        && !holds(s.text(), echo) && !goesOnFromEcho(passage, sentences, i, b, echo)
                        && !LINK_ALONE.matcher(text).matches()) {
                    candidates.add(new Candidate(text, b, passage.sourceIds(s.start(), s.end()), candidates.size(),
                            worth[i], kind.heldBy(text, asked), words, s.code(),
                            forName ? () -> named(passage, sentences, at, asked, b)
                                    : () -> lead(passage, sentences, at, b),
                            follows.get(i)));
                }
            }
        }
        if (embedder != null) {
            candidates = rescored(embedder, question, candidates);
        }
        if (candidates.isEmpty()) {
            return LABEL + " no sentence of the documents found matches the question.";
        }
        candidates = weighed(candidates, blocks);
        List<Candidate> best = new ArrayList<>(candidates);
        best.sort(Comparator.comparingDouble((Candidate c) -> -c.worth()).thenComparingInt(Candidate::order));
        List<Candidate> chosen = new ArrayList<>();
        for (Candidate c : best) {
            // Overlapping chunks repeat text: a sentence inside one already chosen (or around it) adds nothing, nor
            // does a code line or list item a chosen sentence introduces (the one introducing it takes its place).
            if (chosen.stream().noneMatch(o -> o.repeats(c))) {
                chosen.removeIf(c::repeats);
                chosen.add(c);
            }
            if (chosen.size() == maxSentences) {
                break;
            }
        }
        // the document of the best quote first, and each document's quotes in the order they stand in it
        Map<String, Double> leading = new HashMap<>();
        chosen.forEach(c -> leading.merge(c.block().document(), c.worth(), Math::max));
        chosen.sort(Comparator.comparingDouble((Candidate c) -> -leading.get(c.block().document()))
                .thenComparingInt(Candidate::order));
        StringBuilder out = new StringBuilder(LABEL);
        Set<String> leads = new HashSet<>();
        String document = null;
        for (Candidate c : chosen) {
            if (!c.block().document().equals(document)) {
                // each document's quotes under its name, which often says whom or what they are about ("He …")
                document = c.block().document();
                String name = c.block().name();
                if (name != null) {
                    out.append("\nIn ").append(name).append(':');
                }
            }
            Beside lead = c.lead().get();
            boolean led = lead != null && chosen.stream().noneMatch(o -> o.text().contains(lead.text()))
                    && leads.add(lead.text());
            String text = led ? lead.text() + (lead.apart() ? " … " : " ") + c.text() : c.text();
            List<String> ids = new ArrayList<>(led ? lead.sourceIds() : List.of());
            Beside follow = c.follow();
            Stream.concat(c.sourceIds().stream(), follow == null ? Stream.empty() : follow.sourceIds().stream())
                    .filter(id -> !ids.contains(id)).forEach(ids::add);
            out.append("\n- ").append(text);
            if (follow != null) {
                // the block as written, indented under the sentence; the place and SourceIds on a line of their own
                follow.text().lines().forEach(line -> out.append(line.isBlank() ? "\n" : "\n  " + line));
                out.append("\n ");
            }
            out.append(c.block().place()).append(" [SourceId: ").append(String.join(", ", ids)).append(']');
        }
        return out.toString();
    }

    /**
     * What sentence {@code i} of a passage is quoted with: a table row, its table's header row (the row alone does
     * not say what its cells are); a sentence opening by referring back ("She played Talisa.", "It was the first final
     * since 2002."), the sentence before it, only in running text, within a paragraph, never a heading.
     */
    private static @Nullable Beside lead(Passage passage, List<Sentences.Sentence> sentences, int i, Block block) {
        Sentences.Sentence s = sentences.get(i);
        Sentences.Sentence header = s.header();
        if (header != null) {
            // a row whose cells are quoted with their column's names needs no header row before it
            return paired(header.text(), s.text()) != null ? null
                    : new Beside(display(header.text()), passage.sourceIds(header.start(), header.end()));
        }
        if (i == 0 || standsAlone(s, block) || !REFERS_BACK.matcher(s.text()).lookingAt()) {
            return null;
        }
        Sentences.Sentence before = sentences.get(i - 1);
        if (before.heading() || !sameParagraph(before, s)) {
            return null;
        }
        return new Beside(display(before.text()), passage.sourceIds(before.start(), before.end()));
    }

    /**
     * For a question asking for someone: the sentence of the passage before sentence {@code i} that first names in
     * full someone sentence {@code i} names by one word the question lacks ("Ana threatens to fire Gia" after "Gia
     * Matteo flirts with Christian"), else what {@link #lead} gives.
     */
    private static @Nullable Beside named(Passage passage, List<Sentences.Sentence> sentences, int i,
            Set<String> asked, Block block) {
        Sentences.Sentence s = sentences.get(i);
        for (Matcher m = NAME.matcher(s.text()); m.find(); ) {
            String word = m.group();
            if (word.contains(" ") || m.start() == 0 || asked.containsAll(QueryTerms.of(word))) {
                continue;                    // a full name already, a sentence's first word, or a name asked about
            }
            Pattern longer = Pattern.compile(CAPITALISED + "\\s+" + Pattern.quote(word) + "\\b|\\b"
                    + Pattern.quote(word) + "\\s+" + CAPITALISED);
            for (int j = 0; j < i; j++) {
                Sentences.Sentence before = sentences.get(j);
                if (!before.heading() && !before.row() && longer.matcher(before.text()).find()) {
                    return new Beside(display(before.text()), passage.sourceIds(before.start(), before.end()),
                            j < i - 1);
                }
            }
        }
        return lead(passage, sentences, i, block);
    }

    /**
     * Whether a sentence holds the whole question, word for word (a FAQ's question line, an example that asks it):
     * quoting the question back answers nothing. Only for a question (it ends in "?") of at least
     * {@value #ECHO_WORDS} words; a search for words ("keys rotate weekly") is answered by a sentence that holds them.
     *
     * @param sentence a sentence of the context
     * @param question the question as asked
     */
    static boolean echoes(String sentence, String question) {
        return holds(sentence, echo(question));
    }

    /**
     * Whether sentence {@code i} would be quoted after the sentence before it, which asks the question itself ("Users
     * asked "How are tenants isolated?" … They now find …"): a note about the question, not an answer to it.
     */
    private static boolean goesOnFromEcho(Passage passage, List<Sentences.Sentence> sentences, int i, Block block,
            @Nullable String echo) {
        if (i == 0 || !holds(sentences.get(i - 1).text(), echo)) {
            return false;
        }
        Beside lead = lead(passage, sentences, i, block);
        return lead != null && holds(lead.text(), echo);
    }

    /** Whether the sentence holds the question as {@link #echo} gives it; never for {@code null}. */
    private static boolean holds(String sentence, @Nullable String echo) {
        return echo != null && (" " + plain(sentence) + " ").contains(echo);
    }

    /** The question as {@link #echoes} looks for it (" words "), or {@code null} when it is not one to look for. */
    private static @Nullable String echo(String question) {
        String asked = plain(question);
        return question.strip().endsWith("?") && asked.split(" ").length >= ECHO_WORDS ? " " + asked + " " : null;
    }

    /** The text's letters and digits in lower case, every run of anything else one space. */
    private static String plain(String text) {
        return NOT_WORD.matcher(text.toLowerCase(Locale.ROOT)).replaceAll(" ").strip();
    }

    /**
     * The candidates worth {@code (1 - SEMANTIC) × word worth + SEMANTIC × s}, {@code s} the place of a sentence's
     * similarity to the question between the lowest and the highest among the first {@value #MAX_EMBEDDED} (0 to 1; 0
     * beyond them). A sentence holding no word of the question stays a candidate only when it is as similar as the
     * least similar sentence that holds one, or at least halfway from the least to the most similar, so that a short
     * context is not padded out with sentences about something else — or when it holds the kind of answer asked for
     * and stands in a passage where another sentence holds the question's words ("What year is The Deer Hunter set
     * in?": "The story opens in late 1967"). When the embedder fails, the word worth alone, and the sentences worth
     * nothing by it are dropped.
     */
    private static List<Candidate> rescored(Embedder embedder, String question, List<Candidate> candidates) {
        List<Candidate> embedded = candidates.subList(0, Math.min(candidates.size(), MAX_EMBEDDED));
        double[] similarity;
        try {
            similarity = cosines(embedder, question, embedded.stream().map(Candidate::text).toList());
        } catch (RuntimeException e) {
            LOG.debug("the embedder could not help choose the quoted sentences; the question's words alone do", e);
            return candidates.stream().filter(c -> c.worth() > 0).toList();
        }
        double low = Arrays.stream(similarity).min().orElse(0);
        double high = Arrays.stream(similarity).max().orElse(0);
        // a sentence without the question's words must be as close as one with them, or nearer than halfway
        double bar = (low + high) / 2;
        for (int i = 0; i < similarity.length; i++) {
            bar = embedded.get(i).worth() > 0 ? Math.min(bar, similarity[i]) : bar;
        }
        List<Candidate> rescored = new ArrayList<>(candidates.size());
        for (int i = 0; i < candidates.size(); i++) {
            Candidate c = candidates.get(i);
            double place = i >= similarity.length ? 0 : high > low ? (similarity[i] - low) / (high - low) : 1;
            if (c.worth() > 0 || i < similarity.length && similarity[i] >= bar
                    || c.besideWords() && c.ofKind()) {
                rescored.add(c.withWorth((1 - SEMANTIC) * c.worth() + SEMANTIC * place));
            }
        }
        return rescored;
    }

    /** Each text's cosine with the question (embedded as a query): one call for the question, one for the texts. */
    private static double[] cosines(Embedder embedder, String question, List<String> texts) {
        float[] asked = embedder.embedQueries(List.of(question))[0];
        float[][] vectors = embedder.embed(texts);
        double[] out = new double[vectors.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Vectors.cosine(asked, vectors[i]);
        }
        return out;
    }

    /**
     * Each sentence's word worth: the share of the question's weighted words it and the heading it stands under hold
     * (the last part of the passage's section until a heading line of the passage, then that heading's; a table's
     * header row is no such heading), with its document's title's when it holds any (every sentence of a document
     * stands under its title, so the title's words say which document, not which of its sentences), and at least
     * {@value #CONTINUATION} of that of the sentence before it in its paragraph, or of the sentence after it when that
     * one opens with a personal pronoun ("Jack Lord was an actor. He played Steve McGarrett."). Headings pass nothing
     * on. A sentence introducing a code block or list holds the words of the block too (quoted with it, it answers with
     * them).
     *
     * Sentences that {@link #standsAlone} pass nothing on and are passed nothing.
     *
     * @param block the passage's first block (what kind of page its sentences stand on)
     */
    private static double[] worths(List<Sentences.Sentence> sentences, List<@Nullable Beside> follows,
            Set<String> asked, Map<String, Double> weights, Block block) {
        double[] own = new double[sentences.size()];
        String section = block.section();
        // the words of the heading a sentence stands under: the passage's section, then each heading in it
        Set<String> under = section == null ? Set.of()
                : QueryTerms.inPassage(section.substring(section.lastIndexOf('>') + 1));
        // and the document's title, which every sentence stands under: it tells the document, not the sentence
        Set<String> titled = block.title() == null ? new HashSet<>() : QueryTerms.inPassage(block.title());
        titled.retainAll(asked);
        for (int i = 0; i < own.length; i++) {
            Sentences.Sentence s = sentences.get(i);
            if (s.heading() && !s.row()) {
                under = QueryTerms.inPassage(s.text());
            }
            Beside follow = follows.get(i);
            Set<String> terms = QueryTerms.inPassage(follow == null ? s.read() : s.read() + "\n" + follow.text());
            terms.addAll(under);
            terms.retainAll(asked);
            if (!terms.isEmpty()) {                     // the title lifts a sentence that matches, and makes none match
                terms.addAll(titled);
            }
            own[i] = s.heading() || terms.isEmpty() ? 0 : QueryTerms.coverage(weights, terms);
        }
        double[] worth = own.clone();
        for (int i = 1; i < own.length; i++) {
            Sentences.Sentence s = sentences.get(i);
            Sentences.Sentence before = sentences.get(i - 1);
            if (!standsAlone(s, block) && !standsAlone(before, block) && sameParagraph(before, s)) {
                worth[i] = Math.max(worth[i], CONTINUATION * own[i - 1]);
                if (PRONOUN.matcher(s.text()).lookingAt()) {
                    worth[i - 1] = Math.max(worth[i - 1], CONTINUATION * own[i]);
                }
            }
        }
        return worth;
    }

    /**
     * Whether a sentence stands alone rather than going on from the one before: a table's row, or any line of a page
     * whose lines are units (a sheet's rows, a slide's paragraphs).
     */
    private static boolean standsAlone(Sentences.Sentence s, Block block) {
        return s.row() || block.kind().linesAreUnits();
    }

    /** Whether two consecutive sentences stand in one paragraph: no blank line between them. */
    private static boolean sameParagraph(Sentences.Sentence before, Sentences.Sentence after) {
        return after.firstLine() <= before.lastLine() + 1;
    }

    /**
     * The candidates, worth more by what they hold besides the question's words: {@value #KIND} when they hold an
     * answer of the kind the question asks for, and by their document's place in the prompt, {@value #DOCUMENT_RANK}
     * for the first document's sentences, falling evenly to nothing after the last; a line of code is worth
     * {@value #CODE_LINE} of that.
     */
    private static List<Candidate> weighed(List<Candidate> candidates, List<Block> blocks) {
        Map<String, Integer> place = new HashMap<>();
        for (Block b : blocks) {
            place.putIfAbsent(b.document(), place.size());
        }
        double documents = place.size();
        return candidates.stream()
                .map(c -> c.withWorth((c.code() ? CODE_LINE : 1) * (c.worth() + (c.ofKind() ? KIND : 0)
                        + DOCUMENT_RANK * (1 - place.get(c.block().document()) / documents))))
                .toList();
    }

    /** The blocks in runs that go on from each other: one document's consecutive chunks, one page, one section. */
    private static List<Passage> passages(List<Block> blocks) {
        List<Passage> passages = new ArrayList<>();
        int i = 0;
        while (i < blocks.size()) {
            int j = i + 1;
            while (j < blocks.size() && continues(blocks.get(j - 1), blocks.get(j))) {
                j++;
            }
            List<Block> run = blocks.subList(i, j);
            StringBuilder text = new StringBuilder();
            int[] starts = new int[run.size()];
            for (int k = 0; k < run.size(); k++) {
                Block block = run.get(k);
                int skip = 0;
                if (k > 0) {
                    Block before = run.get(k - 1);
                    if (before.lastLine() >= 0 && block.firstLine() == before.lastLine()) {
                        // The chunker cut a long line (a paragraph) here: it goes on, past the tail the chunk repeats.
                        skip = overlap(before.text(), block.text());
                        boolean spaced = skip > 0 || text.isEmpty() || block.text().isEmpty()
                                || Character.isWhitespace(text.charAt(text.length() - 1))
                                || Character.isWhitespace(block.text().charAt(0));
                        text.append(spaced ? "" : " ");
                    } else {
                        // Lines between two consecutive chunks are blank lines the chunker left out: a paragraph ends.
                        boolean gap = before.lastLine() >= 0 && block.firstLine() > before.lastLine() + 1;
                        text.append(gap ? "\n\n" : "\n");
                    }
                }
                starts[k] = text.length() - skip;
                text.append(block.text(), skip, block.text().length());
            }
            passages.add(new Passage(List.copyOf(run), text.toString(), starts));
            i = j;
        }
        return passages;
    }

    /**
     * How many characters {@code next} starts with that {@code previous} ends with: the overlap a chunker repeats from
     * the chunk before, whole words and at least two of them (a word that merely recurs, "that that", is no overlap);
     * 0 when there is none.
     */
    static int overlap(String previous, String next) {
        for (int k = Math.min(previous.length(), next.length()); k > 0; k--) {
            if ((k == next.length() || Character.isWhitespace(next.charAt(k)))
                    && (k == previous.length() || Character.isWhitespace(previous.charAt(previous.length() - k - 1)))
                    && previous.regionMatches(previous.length() - k, next, 0, k)
                    && next.substring(0, k).strip().indexOf(' ') > 0) {
                return k;
            }
        }
        return 0;
    }

    /** Whether {@code next} is the chunk right after {@code previous} in the same document, page and section. */
    private static boolean continues(Block previous, Block next) {
        String before = previous.sourceId();
        String after = next.sourceId();
        int a = before.lastIndexOf(':');
        int b = after.lastIndexOf(':');
        return before.substring(0, a).equals(after.substring(0, b))
                && Long.parseLong(after.substring(b + 1)) == Long.parseLong(before.substring(a + 1)) + 1
                && Objects.equals(previous.page(), next.page()) && Objects.equals(previous.section(), next.section())
                && previous.kind() == next.kind();
    }

    /** The blocks of a standard prompt, each with its page and section headers and its text. */
    private static List<Block> blocks(String system) {
        List<Block> blocks = new ArrayList<>();
        Matcher block = BLOCK.matcher(system);
        boolean found = block.find();
        while (found) {
            String sourceId = block.group(1);
            Map<String, String> header = new HashMap<>();
            for (Matcher h = HEADER.matcher(system.substring(block.start(), block.end())); h.find(); ) {
                String value = h.group(2).strip();
                if (!value.isEmpty() && !value.equals("N/A")) {
                    header.putIfAbsent(h.group(1), value);
                }
            }
            String page = null;
            PageKind kind = PageKind.PAGE;
            for (PageKind named : PageKind.values()) {
                if (header.containsKey(named.header())) {
                    page = header.get(named.header());
                    kind = named;
                }
            }
            int bodyStart = block.end();
            found = block.find();
            // The body ends at the last "---" fence before the next block (or the end): a "---" line inside the
            // document (a markdown rule) stays part of it.
            int limit = found ? block.start() : system.length();
            int bodyEnd = system.lastIndexOf("\n---", limit - 1);
            String body = system.substring(bodyStart, bodyEnd < bodyStart ? limit : bodyEnd);
            Matcher lines = LINES.matcher(header.getOrDefault("Lines", ""));
            boolean numbered = lines.matches();
            int first = numbered ? Integer.parseInt(lines.group(1)) : -1;
            int last = numbered ? Integer.parseInt(lines.group(2)) : -1;
            String path = header.get("Path");
            blocks.add(new Block(sourceId, page, kind, Sentences.Layout.of(path, kind.linesAreUnits()),
                    header.get("Section"), CUT_MARKER.matcher(body).replaceAll(""), first, last,
                    header.get("Title"), path));
        }
        return blocks;
    }

    /**
     * How an answer names a block's document, from its header's title and path: {@code "I. M. Pei" (i-m-pei.md)} —
     * its title and its file's name, or the file's name alone when the title is the file's name or its path, or the
     * title alone without a path; {@code null} when the header gives neither.
     */
    private static @Nullable String name(@Nullable String title, @Nullable String path) {
        String file = path == null ? null : path.substring(path.lastIndexOf('/') + 1);
        if (title == null || title.equals(path) || title.equals(file)) {
            return file;
        }
        return file == null ? "\"" + title + "\"" : "\"" + title + "\" (" + file + ")";
    }

    /**
     * A table row as a sheet's rows read, each cell after its column's name: {@code option: read timeout | default:
     * 30 s | setting: `timeout-seconds`} for the row {@code | read timeout | 30 s | `timeout-seconds` |} under the
     * header {@code | option | default | setting |} (an empty cell left out, a nameless column's cell alone); {@code
     * null} when the row and its header do not have as many cells.
     */
    private static @Nullable String paired(String header, String row) {
        List<String> names = cells(header);
        List<String> values = cells(row);
        if (names.size() != values.size() || names.size() < 2) {
            return null;
        }
        StringJoiner out = new StringJoiner(" | ");
        for (int i = 0; i < names.size(); i++) {
            if (!values.get(i).isEmpty()) {
                out.add(names.get(i).isEmpty() ? values.get(i) : names.get(i) + ": " + values.get(i));
            }
        }
        return out.toString();
    }

    /** A table row's cells, trimmed, without the pipes at its edges. */
    private static List<String> cells(String row) {
        String t = SPACE.matcher(row).replaceAll(" ").strip();
        t = t.startsWith("|") ? t.substring(1) : t;
        t = t.endsWith("|") ? t.substring(0, t.length() - 1) : t;
        return Arrays.stream(t.split("\\|", -1)).map(String::strip).toList();
    }

    /** A sentence as quoted: on one line, without a list marker. */
    private static String display(String sentence) {
        return LIST_MARKER.matcher(SPACE.matcher(sentence).replaceAll(" ").strip()).replaceFirst("");
    }

    /** Streams the answer line by line on the calling thread, then completes. */
    @Override
    public Cancellable stream(ChatRequest request, StreamHandler handler) {
        Objects.requireNonNull(handler, "handler");
        ChatResult result = chat(request);
        boolean[] cancelled = {false};
        Cancellable handle = new Cancellable() {
            @Override
            public void cancel() {
                cancelled[0] = true;
            }

            @Override
            public boolean isCancelled() {
                return cancelled[0];
            }
        };
        for (String line : result.text().split("(?<=\\n)")) {
            handler.onToken(line);
        }
        handler.onComplete(result);
        return handle;
    }

    /** @return an 8,192-token window and 1,024 response tokens, whatever the name */
    @Override
    public ModelInfo modelInfo(String model) {
        return new ModelInfo(model, 8192, 1024);
    }

    @Override
    public HealthStatus health(String model) {
        return new HealthStatus(true, true, Duration.ZERO, null, "extractive answers: no language model is used");
    }
}
