package dev.ragkit.generation;

import dev.ragkit.internal.KeyTerms;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An {@link LlmBackend} that is not a language model: it answers with the context's sentences that share the most
 * key terms with the question, each followed by its {@code [SourceId: …]}. Deterministic, instant and offline; for
 * machines without a model server. Its answers say they are extractive, and its model name is {@value #MODEL}, so
 * it never passes for a language model. It cannot rate answers: a self-rating request gets a reply that is not a
 * number (turn self-rating off with it). It reads the blocks in the layout of
 * {@link dev.ragkit.prompt.PromptBuilder#standard()} ({@code [SourceId: …]}, header lines, {@code ---}, text,
 * {@code ---}); other layouts find no blocks.
 */
public final class ExtractiveBackend implements LlmBackend {

    /** The model name it answers as. */
    public static final String MODEL = "extractive";
    /** The first words of every answer. */
    public static final String LABEL = "Extractive answer (quoted from the documents, no language model):";

    private static final Pattern PAGE = Pattern.compile("\\nPage: (\\d+)\\n");
    private static final Pattern BLOCK = Pattern.compile("\\[SourceId: ([a-f0-9-]{36}:\\d+)]\\n(?:[^\\n]*\\n)*?---\\n");
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+");
    private static final Pattern PARAGRAPH = Pattern.compile("\\n\\s*\\n");
    private static final Pattern LIST_ITEM = Pattern.compile("([-*+]|\\d+[.)])\\s+");
    private static final Pattern PLAIN_HEADING = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} '&-]*");
    private static final int HEADING_WORDS = 4;

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

    /** One sentence of the context with what it is worth. */
    private static final class Sentence {
        final String text;
        final String sourceId;
        final @Nullable String page;
        final int order;
        final int score;

        Sentence(String text, String sourceId, @Nullable String page, int order, int score) {
            this.text = text;
            this.sourceId = sourceId;
            this.page = page;
            this.order = order;
            this.score = score;
        }
    }

    private String answer(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        String system = messages.get(0).role() == ChatMessage.Role.SYSTEM ? messages.get(0).content() : "";
        String question = messages.get(messages.size() - 1).content();
        Set<String> wanted = KeyTerms.of(question);
        List<Sentence> sentences = new ArrayList<>();
        Matcher block = BLOCK.matcher(system);
        boolean found = block.find();
        while (found) {
            String sourceId = block.group(1);
            int bodyStart = block.end();
            Matcher pageLine = PAGE.matcher(system.substring(block.start(), bodyStart));
            String page = pageLine.find() ? pageLine.group(1) : null;
            found = block.find();
            // The body ends at the last "---" fence before the next block (or the end): a "---" line inside the
            // document (a markdown rule) stays part of it.
            int limit = found ? block.start() : system.length();
            int bodyEnd = system.lastIndexOf("\n---", limit - 1);
            String body = system.substring(bodyStart, bodyEnd < bodyStart ? limit : bodyEnd);
            for (String s : sentences(body)) {
                String text = s.strip();
                if (text.isEmpty()) {
                    continue;
                }
                Set<String> terms = KeyTerms.of(text);
                terms.retainAll(wanted);
                if (!terms.isEmpty()) {
                    sentences.add(new Sentence(text, sourceId, page, sentences.size(), terms.size()));
                }
            }
        }
        if (sentences.isEmpty()) {
            return LABEL + " no sentence of the documents found matches the question.";
        }
        List<Sentence> best = new ArrayList<>(sentences);
        best.sort(Comparator.comparingInt((Sentence s) -> -s.score).thenComparingInt(s -> s.order));
        List<Sentence> chosen = new ArrayList<>();
        for (Sentence s : best) {
            // Overlapping chunks repeat text: a sentence inside one already chosen (or around it) adds nothing.
            boolean repeated = chosen.stream().anyMatch(c -> c.text.contains(s.text) || s.text.contains(c.text));
            if (!repeated) {
                chosen.add(s);
            }
            if (chosen.size() == maxSentences) {
                break;
            }
        }
        best = chosen;
        best.sort(Comparator.comparingInt(s -> s.order));
        StringBuilder out = new StringBuilder(LABEL);
        for (Sentence s : best) {
            out.append("\n- ").append(s.text).append(s.page == null ? "" : " (p. " + s.page + ")")
                    .append(" [SourceId: ").append(s.sourceId).append(']');
        }
        return out.toString();
    }

    /**
     * The sentences of a block's text: paragraphs (split at blank lines) with their lines joined, each list item
     * on its own (its marker removed), headings, rules, code fences and the budget's cut marker left out, then
     * split after {@code .}, {@code !} or {@code ?}.
     */
    static List<String> sentences(String body) {
        List<String> out = new ArrayList<>();
        for (String paragraph : PARAGRAPH.split(body)) {
            if (isPlainHeading(paragraph.strip())) {
                continue;
            }
            StringBuilder joined = new StringBuilder();
            for (String line : paragraph.split("\\n")) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#") || l.startsWith("[... cut here") || l.startsWith("```")
                        || l.matches("[-*_ ]{3,}")) {
                    continue;
                }
                Matcher item = LIST_ITEM.matcher(l);
                if (item.lookingAt()) {
                    split(joined, out);              // a list item starts a sentence of its own
                    l = l.substring(item.end());
                }
                if (joined.length() > 0) {
                    joined.append(' ');
                }
                joined.append(l);
            }
            split(joined, out);
        }
        return out;
    }

    /**
     * A heading in text without markup (from Word, HTML or PDF): a paragraph of one line of at most
     * {@value #HEADING_WORDS} words of letters and digits only (no punctuation, no paths or commands). Quoting it
     * would answer nothing.
     */
    static boolean isPlainHeading(String paragraph) {
        return PLAIN_HEADING.matcher(paragraph).matches() && paragraph.split(" +").length <= HEADING_WORDS;
    }

    private static void split(StringBuilder text, List<String> into) {
        for (String sentence : SENTENCE_END.split(text)) {
            if (!sentence.isBlank()) {
                into.add(sentence.strip());
            }
        }
        text.setLength(0);
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
