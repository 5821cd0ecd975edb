package dev.ragkit.generation;

import dev.ragkit.internal.PageKind;
import dev.ragkit.internal.QueryTerms;
import dev.ragkit.internal.Sentences;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An {@link LlmBackend} that is not a language model: it answers with the context's sentences that hold the most of
 * the question, each followed by its {@code [SourceId: …]}, in the order they stand in the context. Deterministic,
 * instant and offline; for machines without a model server. Its answers say they are extractive, and its model name
 * is {@value #MODEL}, so it never passes for a language model. It cannot rate answers: a self-rating request gets a
 * reply that is not a number (turn self-rating off with it).
 *
 * <p>Sentences are cut by {@link Sentences} (the JDK's {@link java.text.BreakIterator}, with headings, list items
 * and code lines kept apart, so a heading is never glued to the sentence after it). Headings are never quoted. A
 * sentence is worth the share of the question's content words ({@link QueryTerms}) it holds, each word weighted by its
 * rarity among the context blocks ({@code ln((blocks + 1) / (blocks holding it + 0.5))}), and at least half the worth
 * of the sentence before it in its paragraph ({@link #CONTINUATION}: the sentence after the one naming the subject
 * often answers without naming it again; not for a sheet's rows or a slide's paragraphs); a sentence worth nothing is
 * never quoted; ties go to the earlier block. A paged block's sentences carry their place as its header names it
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

    private static final Pattern HEADER = Pattern.compile("\\n(Page|Slide|Sheet|Section): ([^\\n]*)");
    private static final Pattern BLOCK = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]\\n(?:[^\\n]*\\n)*?---\\n");
    private static final Pattern CUT_MARKER = Pattern.compile("\\n\\[\\.\\.\\. cut here[^\\n]*$");
    private static final Pattern LIST_MARKER = Pattern.compile("^([-*+\u2022]|\\d{1,3}[.)])\\s+");
    private static final Pattern SPACE = Pattern.compile("\\s+");
    /**
     * What a sentence is worth at least, as a share of the worth of the sentence before it in its paragraph: the
     * sentence after the one that names the subject often holds the answer without naming it again ("It has...").
     * 0.3 to 0.5 gave the same answer-hit on MLQA, TyDi QA and Natural Questions (+0.6, +3.0 and +3.3 points at 0.5
     * against 0); 0.8 and 1 less (docs/design-notes.md, "Encyclopaedia sentences, the sentence after, ...").
     */
    static final double CONTINUATION = 0.5;

    private final int maxSentences;

    /** A backend quoting at most three sentences. */
    public ExtractiveBackend() {
        this(3);
    }

    /** @param maxSentences the most sentences quoted, at least 1 */
    public ExtractiveBackend(int maxSentences) {
        if (maxSentences < 1) {
            throw new IllegalArgumentException("maxSentences must be at least 1, got " + maxSentences);
        }
        this.maxSentences = maxSentences;
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

    /** One block of the prompt: its SourceId, page (and what a page is), section and text. */
    private record Block(String sourceId, @Nullable String page, PageKind kind, @Nullable String section,
            String text) {
        /** @return how a quoted sentence names its place, e.g. {@code  (p. 12)}; empty without a page */
        String place() {
            return page == null ? "" : " (" + kind.at(page, section) + ")";
        }
    }

    /**
     * A sentence that may be quoted: its passage's first block (for its place: the passage's blocks share page and
     * section), the SourceIds of the blocks it stands in, and its worth.
     */
    private record Candidate(String text, Block block, List<String> sourceIds, int order, double worth) {
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
                int end = i + 1 < blocks.size() ? starts[i + 1] - 1 : text.length();
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
            blockTerms.add(QueryTerms.of(b.text()));
        }
        Map<String, Double> weights = QueryTerms.rarity(asked, blockTerms);
        List<Candidate> candidates = new ArrayList<>();
        for (Passage passage : passages(blocks)) {
            Block b = passage.blocks().get(0);
            double previous = 0;
            int previousLine = -2;
            for (Sentences.Sentence s : Sentences.of(passage.text(), b.section(), b.kind().linesAreUnits())) {
                Set<String> terms = QueryTerms.of(s.text());
                terms.retainAll(asked);
                double own = terms.isEmpty() ? 0 : QueryTerms.coverage(weights, terms);
                // no blank line between, and not a sheet's rows or a slide's paragraphs, which stand alone
                boolean samePassage = s.firstLine() <= previousLine + 1 && !b.kind().linesAreUnits();
                double worth = Math.max(own, samePassage ? CONTINUATION * previous : 0);
                previousLine = s.lastLine();
                if (!s.heading() && worth > 0) {
                    candidates.add(new Candidate(display(s.text()), b, passage.sourceIds(s.start(), s.end()),
                            candidates.size(), worth));
                }
                previous = s.heading() ? 0 : own;
            }
        }
        if (candidates.isEmpty()) {
            return LABEL + " no sentence of the documents found matches the question.";
        }
        List<Candidate> best = new ArrayList<>(candidates);
        best.sort(Comparator.comparingDouble((Candidate c) -> -c.worth()).thenComparingInt(Candidate::order));
        List<Candidate> chosen = new ArrayList<>();
        for (Candidate c : best) {
            // Overlapping chunks repeat text: a sentence inside one already chosen (or around it) adds nothing.
            boolean repeated = chosen.stream()
                    .anyMatch(o -> o.text().contains(c.text()) || c.text().contains(o.text()));
            if (!repeated) {
                chosen.add(c);
            }
            if (chosen.size() == maxSentences) {
                break;
            }
        }
        chosen.sort(Comparator.comparingInt(Candidate::order));
        StringBuilder out = new StringBuilder(LABEL);
        for (Candidate c : chosen) {
            out.append("\n- ").append(c.text()).append(c.block().place())
                    .append(" [SourceId: ").append(String.join(", ", c.sourceIds())).append(']');
        }
        return out.toString();
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
                if (k > 0) {
                    text.append('\n');
                }
                starts[k] = text.length();
                text.append(run.get(k).text());
            }
            passages.add(new Passage(List.copyOf(run), text.toString(), starts));
            i = j;
        }
        return passages;
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
            String header = system.substring(block.start(), block.end());
            String page = null;
            PageKind kind = PageKind.PAGE;
            String section = null;
            Matcher h = HEADER.matcher(header);
            while (h.find()) {
                String value = h.group(2).strip();
                PageKind named = PageKind.ofHeader(h.group(1));
                if (!value.equals("N/A")) {
                    if (named != null) {
                        page = value;
                        kind = named;
                    } else {
                        section = value;
                    }
                }
            }
            int bodyStart = block.end();
            found = block.find();
            // The body ends at the last "---" fence before the next block (or the end): a "---" line inside the
            // document (a markdown rule) stays part of it.
            int limit = found ? block.start() : system.length();
            int bodyEnd = system.lastIndexOf("\n---", limit - 1);
            String body = system.substring(bodyStart, bodyEnd < bodyStart ? limit : bodyEnd);
            blocks.add(new Block(sourceId, page, kind, section, CUT_MARKER.matcher(body).replaceAll("")));
        }
        return blocks;
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
