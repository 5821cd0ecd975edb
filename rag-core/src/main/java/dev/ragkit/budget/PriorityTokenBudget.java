package dev.ragkit.budget;

import dev.ragkit.TokenBudgetExceededException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.generation.ContextBlock;
import dev.ragkit.generation.Prompt;
import dev.ragkit.generation.PromptBuilder;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** The default {@link TokenBudget}. */
final class PriorityTokenBudget implements TokenBudget {

    /** Critical first, then higher boosted relevance (unscored last), then newer; stable otherwise. */
    static final Comparator<ContextBlock> PRIORITY = Comparator
            .comparing(ContextBlock::kind)
            .thenComparing(PriorityTokenBudget::rankScore, Comparator.reverseOrder())
            .thenComparing((ContextBlock b) -> b.document().date(),
                    Comparator.nullsLast(Comparator.<LocalDate>reverseOrder()));

    private final TokenCounter counter;
    private final PromptBuilder builder;

    PriorityTokenBudget(TokenCounter counter, PromptBuilder builder) {
        this.counter = counter;
        this.builder = builder;
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
        int overhead = limits.messageOverheadTokens();
        int window = limits.contextWindow();
        int reserve = limits.responseReserve();

        int systemTokens = counter.count(builder.systemPrompt());
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
            int frame = (kept.isEmpty() ? counter.count(builder.contextIntro()) : 0)
                    + (opened.contains(b.kind()) ? 0 : counter.count(builder.sectionHeading(b.kind())));
            int cost = counter.count(builder.formatBlock(b));
            if (used + frame + cost <= contextBudget) {
                kept.add(b);
                opened.add(b.kind());
                used += frame + cost;
                continue;
            }
            ContextBlock cut = cut(b, contextBudget - used - frame, limits.minTruncatedTokens());
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
                used = price(kept);
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
     * least {@code minTokens} tokens, or {@code null}.
     */
    private ContextBlock cut(ContextBlock block, int room, int minTokens) {
        if (room < minTokens) {
            return null;
        }
        String[] lines = block.text().split("\n", -1);
        int lo = 0;
        int hi = lines.length - 1;           // at most all lines but the last: the whole block did not fit
        ContextBlock best = null;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;   // number of lines kept
            ContextBlock candidate = prefix(block, lines, mid);
            if (counter.count(builder.formatBlock(candidate)) <= room) {
                best = candidate;
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if (best == null || counter.count(best.text()) < minTokens) {
            return null;
        }
        return best;
    }

    private static ContextBlock prefix(ContextBlock block, String[] lines, int count) {
        String text = String.join("\n", java.util.Arrays.asList(lines).subList(0, count));
        return block.truncate(text, Math.min(block.endLine(), block.startLine() + count - 1));
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
    private int price(List<ContextBlock> kept) {
        if (kept.isEmpty()) {
            return 0;
        }
        int price = counter.count(builder.contextIntro());
        Set<ContextBlock.Kind> opened = EnumSet.noneOf(ContextBlock.Kind.class);
        for (ContextBlock b : kept) {
            if (opened.add(b.kind())) {
                price += counter.count(builder.sectionHeading(b.kind()));
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

    private static double rankScore(ContextBlock b) {
        return Double.isNaN(b.boosted()) ? -1 : b.boosted();
    }
}
