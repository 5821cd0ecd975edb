package dev.ragkit.budget;

import dev.ragkit.error.TokenBudgetExceededException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.tokens.TokenCounter;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** The default {@link TokenBudget}. */
final class PriorityTokenBudget implements TokenBudget {

    /** Critical first, then higher boosted relevance (unscored last), then newer; stable otherwise. */
    static final Comparator<ContextBlock> PRIORITY = (a, b) -> {
        int c = a.kind().compareTo(b.kind());
        if (c == 0) {
            c = Double.compare(rankScore(b), rankScore(a));
        }
        if (c == 0) {
            LocalDate da = a.document().date();
            LocalDate db = b.document().date();
            c = da == null ? (db == null ? 0 : 1) : db == null ? -1 : db.compareTo(da);
        }
        return c;
    };

    private final TokenCounter counter;
    private final PromptBuilder builder;
    /** Token counts of the builder's fixed pieces, counted once: rules, context intro, section headings. */
    private final int rulesTokens;
    private final int introTokens;
    private final int[] headingTokens;

    PriorityTokenBudget(TokenCounter counter, PromptBuilder builder) {
        this.counter = counter;
        this.builder = builder;
        this.rulesTokens = counter.count(builder.systemPrompt());
        this.introTokens = counter.count(builder.contextIntro());
        ContextBlock.Kind[] kinds = ContextBlock.Kind.values();
        this.headingTokens = new int[kinds.length];
        for (ContextBlock.Kind kind : kinds) {
            headingTokens[kind.ordinal()] = counter.count(builder.sectionHeading(kind));
        }
    }

    @Override
    public TokenCounter counter() {
        return counter;
    }

    @Override
    public Prompt fit(BudgetLimits limits, String question, List<ChatMessage> history, List<ContextBlock> candidates) {
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(history, "history");
        Objects.requireNonNull(candidates, "candidates");
        PromptBuilder builder = new FormatOnce(this.builder);
        int overhead = limits.messageOverheadTokens();
        int window = limits.contextWindow();
        int reserve = limits.responseReserve();

        int systemTokens = rulesTokens;
        if (systemTokens + overhead + reserve > window) {
            throw new TokenBudgetExceededException("system prompt", systemTokens + overhead, reserve, window);
        }
        int questionTokens = counter.count(question) + overhead;
        int fixed = Math.max(limits.systemReserve(), systemTokens) + overhead + questionTokens;
        if (fixed + reserve > window) {
            throw new TokenBudgetExceededException("system prompt (or its reserve) and question", fixed, reserve,
                    window);
        }
        int available = window - reserve - fixed;

        // History: the most recent messages that fit, oldest dropped first.
        int historyBudget = Math.min(limits.historyCap(), available / 3);
        int historyTokens = 0;
        int firstKept = history.size();
        for (int i = history.size() - 1; i >= 0; i--) {
            ChatMessage m = Objects.requireNonNull(history.get(i), "history message");
            int cost = counter.count(m.content()) + overhead;
            if (historyTokens + cost > historyBudget) {
                break;
            }
            historyTokens += cost;
            firstKept = i;
        }
        List<ChatMessage> keptHistory = new ArrayList<>(history.subList(firstKept, history.size()));
        available -= historyTokens;

        // Context: a prefix of the candidates in priority order, the first one that does not fit possibly cut.
        int contextBudget = Math.min(limits.contextCap(), available);
        List<ContextBlock> ordered = new ArrayList<>(candidates);
        ordered.sort(PRIORITY);
        List<ContextBlock> kept = new ArrayList<>();
        List<ContextBlock> dropped = new ArrayList<>();
        Set<ContextBlock.Kind> opened = EnumSet.noneOf(ContextBlock.Kind.class);
        int used = 0;
        int i = 0;
        for (; i < ordered.size(); i++) {
            ContextBlock b = ordered.get(i);
            int frame = (kept.isEmpty() ? introTokens : 0)
                    + (opened.contains(b.kind()) ? 0 : headingTokens[b.kind().ordinal()]);
            int cost = counter.count(builder.formatBlock(b));
            if (used + frame + cost <= contextBudget) {
                kept.add(b);
                opened.add(b.kind());
                used += frame + cost;
                continue;
            }
            ContextBlock cut = cut(builder, b, contextBudget - used - frame, limits.minTruncatedTokens());
            if (cut != null) {
                kept.add(cut);
                used += frame + counter.count(builder.formatBlock(cut));
                dropped.addAll(ordered.subList(i + 1, ordered.size()));
            } else {
                dropped.addAll(ordered.subList(i, ordered.size()));
            }
            break;
        }

        // Count what is really sent; in the rare case the pieces merge into more tokens than priced, drop the
        // lowest kept block (then the oldest history message) until it fits.
        List<ChatMessage> messages = builder.messages(kept, keptHistory, question);
        int total = total(messages, overhead);
        while (total > limits.promptLimit()) {
            if (!kept.isEmpty()) {
                ContextBlock last = kept.remove(kept.size() - 1);
                dropped.add(0, last.truncated() ? original(last, ordered) : last);
                used = price(builder, kept);
            } else if (!keptHistory.isEmpty()) {
                historyTokens -= counter.count(keptHistory.remove(0).content()) + overhead;
            } else {
                throw new TokenBudgetExceededException("system prompt and question", total, reserve, window);
            }
            messages = builder.messages(kept, keptHistory, question);
            total = total(messages, overhead);
        }
        return new Prompt(messages, kept, dropped, keptHistory, history.size() - keptHistory.size(), systemTokens,
                historyTokens, used, questionTokens, total, window, reserve);
    }

    /**
     * The longest line prefix of the block whose formatted form fits {@code room} tokens and whose text has at
     * least {@code minTokens} tokens, or {@code null}. The counter finds how much text fits the room left by the
     * block's header; the prefix is then shortened to a line boundary and checked as formatted (shortened by one
     * more line while it does not fit).
     */
    private @Nullable ContextBlock cut(PromptBuilder builder, ContextBlock block, int room, int minTokens) {
        String text = block.text();
        int frame = counter.count(builder.formatBlock(block.truncate("", block.startLine())));
        if (room - frame < minTokens) {
            return null;
        }
        int fits = counter.fittingPrefix(text, room - frame);
        int end = text.lastIndexOf('\n', Math.min(fits, text.length() - 1));
        while (end > 0) {
            String kept = text.substring(0, end);
            if (counter.count(kept) < minTokens) {
                return null;
            }
            int lines = 1;
            for (int i = kept.indexOf('\n'); i >= 0; i = kept.indexOf('\n', i + 1)) {
                lines++;
            }
            ContextBlock candidate = block.truncate(kept, Math.min(block.endLine(), block.startLine() + lines - 1));
            if (counter.count(builder.formatBlock(candidate)) <= room) {
                return candidate;
            }
            end = text.lastIndexOf('\n', end - 1);
        }
        return null;
    }

    private static ContextBlock original(ContextBlock cut, List<ContextBlock> ordered) {
        for (ContextBlock b : ordered) {
            if (b.sourceId().equals(cut.sourceId())) {
                return b;
            }
        }
        return cut;
    }

    /** What {@code kept} costs priced piece by piece: intro, section headings, blocks. */
    private int price(PromptBuilder builder, List<ContextBlock> kept) {
        if (kept.isEmpty()) {
            return 0;
        }
        int price = introTokens;
        Set<ContextBlock.Kind> opened = EnumSet.noneOf(ContextBlock.Kind.class);
        for (ContextBlock b : kept) {
            if (opened.add(b.kind())) {
                price += headingTokens[b.kind().ordinal()];
            }
            price += counter.count(builder.formatBlock(b));
        }
        return price;
    }

    private int total(List<ChatMessage> messages, int overhead) {
        int total = 0;
        for (ChatMessage m : messages) {
            total += counter.count(m.content()) + overhead;
        }
        return total;
    }

    /** Formats each block once per fit: pricing, cutting and writing the messages all need the same text. */
    private static final class FormatOnce implements PromptBuilder {
        private final PromptBuilder delegate;
        private final Map<ContextBlock, String> formatted = new IdentityHashMap<>();

        FormatOnce(PromptBuilder delegate) {
            this.delegate = delegate;
        }

        @Override
        public String systemPrompt() {
            return delegate.systemPrompt();
        }

        @Override
        public String contextIntro() {
            return delegate.contextIntro();
        }

        @Override
        public String sectionHeading(ContextBlock.Kind kind) {
            return delegate.sectionHeading(kind);
        }

        @Override
        public String formatBlock(ContextBlock block) {
            return formatted.computeIfAbsent(block, delegate::formatBlock);
        }

        @Override
        public List<ChatMessage> messages(List<ContextBlock> blocks, List<ChatMessage> history, String question) {
            return PromptBuilder.super.messages(blocks, history, question);
        }
    }

    private static double rankScore(ContextBlock b) {
        return Double.isNaN(b.boosted()) ? -1 : b.boosted();
    }
}
