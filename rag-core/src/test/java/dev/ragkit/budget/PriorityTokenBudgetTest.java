package dev.ragkit.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.TokenBudgetExceededException;
import dev.ragkit.generation.ChatMessage;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.ContextBlock.Kind;
import dev.ragkit.prompt.Prompt;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.store.PromotionLevel;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.tokens.TokenCounter;
import dev.ragkit.tokens.TokenCounters;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class PriorityTokenBudgetTest {
    private static final TokenCounter COUNTER = TokenCounters.jtokkit();
    private static final PromptBuilder PROMPTS = PromptBuilder.standard();
    private static final TokenBudget BUDGET = TokenBudget.of(COUNTER, PROMPTS);
    private static final String[] WORDS = ("the key rotation policy requires every service account to renew its "
            + "credentials within ninety days and record the change in the audit log while operators verify "
            + "access tags tenants chunks budget window tokens prompt").split(" ");

    @Test
    void fit_systemPromptAndReserveExceedWindow_failsWithTheThreeNumbers() {
        int system = COUNTER.count(PROMPTS.systemPrompt()) + BudgetLimits.DEFAULT_MESSAGE_OVERHEAD;
        BudgetLimits limits = limits(system + 100, 101, 0, 0, 0);
        assertThatThrownBy(() -> BUDGET.fit(limits, "q?", List.of(), List.of()))
                .isInstanceOf(TokenBudgetExceededException.class)
                .hasMessageContaining("system prompt (" + system + " tokens)")
                .hasMessageContaining("response reserve (101 tokens)")
                .hasMessageContaining("context window (" + (system + 100) + " tokens)")
                .satisfies(e -> {
                    TokenBudgetExceededException t = (TokenBudgetExceededException) e;
                    assertThat(t.fixedTokens()).isEqualTo(system);
                    assertThat(t.responseReserve()).isEqualTo(101);
                    assertThat(t.contextWindow()).isEqualTo(system + 100);
                });
    }

    @Test
    void fit_questionLeavesNoRoom_fails() {
        int system = COUNTER.count(PROMPTS.systemPrompt()) + 4;
        String question = words(400, 1);
        assertThatThrownBy(() -> BUDGET.fit(limits(system + 300, 100, 0, 0, 0), question, List.of(), List.of()))
                .isInstanceOf(TokenBudgetExceededException.class).hasMessageContaining("question");
    }

    @Test
    void fit_systemReserveAboveActualPrompt_isCharged() {
        int system = COUNTER.count(PROMPTS.systemPrompt());
        BudgetLimits small = limits(8192, 1024, 0, 0, 10_000);
        BudgetLimits reserved = limits(8192, 1024, system + 2000, 0, 10_000);
        List<ContextBlock> blocks = IntStream.range(0, 30).mapToObj(i -> block(Kind.RELEVANT, i, 0.9 - i * 0.01,
                null, 200)).collect(Collectors.toList());
        Prompt a = BUDGET.fit(small, "q?", List.of(), blocks);
        Prompt b = BUDGET.fit(reserved, "q?", List.of(), blocks);
        assertThat(b.contextTokens()).isLessThan(a.contextTokens());
        assertThat(b.contextTokens()).isLessThanOrEqualTo(8192 - 1024 - (system + 2000) - 8 - COUNTER.count("q?"));
    }

    @Test
    void fit_historyOverCap_dropsOldestFirstAndKeepsTheMostRecent() {
        List<ChatMessage> history = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            history.add(i % 2 == 0 ? ChatMessage.user("question " + i + " " + words(40, i))
                    : ChatMessage.assistant("answer " + i + " " + words(40, i)));
        }
        Prompt p = BUDGET.fit(limits(8192, 1024, 500, 300, 3000), "q?", history, List.of());
        assertThat(p.droppedHistory()).isPositive();
        assertThat(p.history()).isEqualTo(history.subList(p.droppedHistory(), 20));
        assertThat(p.historyTokens()).isLessThanOrEqualTo(300);
        int next = COUNTER.count(history.get(p.droppedHistory() - 1).content()) + 4;
        assertThat(p.historyTokens() + next).isGreaterThan(300);
        assertThat(p.messages()).hasSize(p.history().size() + 2);
        assertThat(p.messages().get(p.messages().size() - 1)).isEqualTo(ChatMessage.user("q?"));
    }

    @Test
    void fit_historyCap_isAtMostAThirdOfWhatRemains() {
        int system = Math.max(500, COUNTER.count(PROMPTS.systemPrompt())) + 4;
        int question = COUNTER.count("q?") + 4;
        int window = system + question + 100 + 600;          // 600 remain after the response reserve of 100
        List<ChatMessage> history = IntStream.range(0, 40).mapToObj(i -> ChatMessage.user(words(30, i)))
                .collect(Collectors.toList());
        Prompt p = BUDGET.fit(limits(window, 100, 500, 10_000, 10_000), "q?", history, List.of());
        assertThat(p.historyTokens()).isLessThanOrEqualTo(200).isGreaterThan(150);
    }

    @Test
    void fit_orders_criticalFirstThenBoostedThenNewer() {
        ContextBlock low = block(Kind.RELEVANT, 1, 0.40, LocalDate.of(2026, 1, 1), 20);
        ContextBlock highOld = block(Kind.RELEVANT, 2, 0.80, LocalDate.of(2020, 1, 1), 20);
        ContextBlock highNew = block(Kind.RELEVANT, 3, 0.80, LocalDate.of(2025, 1, 1), 20);
        ContextBlock critical = block(Kind.CRITICAL, 4, Double.NaN, null, 20);
        ContextBlock linked = linked(5, 20);
        Prompt p = BUDGET.fit(BudgetLimits.defaults(8192), "q?", List.of(),
                List.of(linked, low, highOld, critical, highNew));
        assertThat(p.blocks()).containsExactly(critical, highNew, highOld, low, linked);
        assertThat(p.dropped()).isEmpty();
        String system = p.messages().get(0).content();
        assertThat(system.indexOf(critical.sourceId())).isLessThan(system.indexOf(highNew.sourceId()));
        assertThat(system.indexOf(low.sourceId())).isLessThan(system.indexOf(linked.sourceId()));
    }

    @Test
    void fit_blocksOverContextCap_dropsTheLowestFirst() {
        List<ContextBlock> blocks = List.of(block(Kind.RELEVANT, 1, 0.9, null, 100),
                block(Kind.RELEVANT, 2, 0.8, null, 100), block(Kind.RELEVANT, 3, 0.7, null, 100),
                block(Kind.RELEVANT, 4, 0.6, null, 100));
        int two = price(blocks.subList(0, 2));
        // room for two whole blocks, and less than the minimum cut of the third
        Prompt p = BUDGET.fit(limits(8192, 1024, 500, 1000, two + 20, 50), "q?", List.of(), blocks);
        assertThat(p.blocks()).containsExactlyElementsOf(blocks.subList(0, 2));
        assertThat(p.dropped()).containsExactlyElementsOf(blocks.subList(2, 4));
        assertThat(p.truncated()).isEmpty();
        assertThat(p.contextTokens()).isEqualTo(two).isLessThanOrEqualTo(two + 20);
    }

    @Test
    void fit_enoughRoomForTheMinimum_cutsTheLastBlockAtALineBoundary() {
        ContextBlock first = block(Kind.RELEVANT, 1, 0.9, null, 100);
        ContextBlock second = multiLine(2, 0.8, 20, 12);     // 20 lines of ~12 words
        int one = price(List.of(first));
        int cap = one + 200;
        Prompt p = BUDGET.fit(limits(8192, 1024, 500, 1000, cap, 30), "q?", List.of(), List.of(first, second));
        assertThat(p.blocks()).hasSize(2);
        ContextBlock cut = p.blocks().get(1);
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.sourceId()).isEqualTo(second.sourceId());
        assertThat(second.text()).startsWith(cut.text());
        assertThat(second.text().charAt(cut.text().length())).isEqualTo('\n');          // a line boundary
        int lines = cut.text().split("\n").length;
        assertThat(cut.endLine()).isEqualTo(second.startLine() + lines - 1).isLessThan(second.endLine());
        assertThat(COUNTER.count(cut.text())).isGreaterThanOrEqualTo(30);
        assertThat(p.truncated()).containsExactly(cut);
        assertThat(p.contextTokens()).isLessThanOrEqualTo(cap);
        assertThat(p.messages().get(0).content()).contains("cut here to fit the token budget");
        // one more line would not have fitted
        ContextBlock longer = second.truncate(String.join("\n", List.of(second.text().split("\n")).subList(0,
                lines + 1)), cut.endLine() + 1);
        assertThat(one + COUNTER.count(PROMPTS.formatBlock(longer))).isGreaterThan(cap);
    }

    @Test
    void fit_lessRoomThanTheMinimum_dropsTheBlockInsteadOfCutting() {
        ContextBlock first = block(Kind.RELEVANT, 1, 0.9, null, 100);
        ContextBlock second = multiLine(2, 0.8, 20, 12);
        int one = price(List.of(first));
        Prompt p = BUDGET.fit(limits(8192, 1024, 500, 1000, one + 200, 500), "q?", List.of(),
                List.of(first, second));
        assertThat(p.blocks()).containsExactly(first);
        assertThat(p.dropped()).containsExactly(second);
    }

    @Test
    void fit_pricesFormattedBlocks_headersIncluded() {
        ContextBlock b = block(Kind.RELEVANT, 1, 0.9, null, 100);
        int raw = COUNTER.count(b.text());
        int formatted = COUNTER.count(PROMPTS.formatBlock(b));
        assertThat(formatted).isGreaterThan(raw + 10);
        int frame = COUNTER.count(PROMPTS.contextIntro()) + COUNTER.count(PROMPTS.sectionHeading(Kind.RELEVANT));
        // the raw text fits the cap, the formatted block does not: it must not be kept whole
        Prompt p = BUDGET.fit(limits(8192, 1024, 500, 1000, frame + raw + 2, 1000), "q?", List.of(), List.of(b));
        assertThat(p.blocks()).isEmpty();
        assertThat(p.dropped()).containsExactly(b);
        Prompt fits = BUDGET.fit(limits(8192, 1024, 500, 1000, frame + formatted, 1000), "q?", List.of(),
                List.of(b));
        assertThat(fits.blocks()).containsExactly(b);
        assertThat(fits.contextTokens()).isEqualTo(frame + formatted);
    }

    @Test
    void fit_reportsTheExactCountOfWhatIsSent() {
        List<ContextBlock> blocks = IntStream.range(0, 8).mapToObj(i -> block(Kind.RELEVANT, i, 0.9 - i * 0.05,
                null, 80)).collect(Collectors.toList());
        Prompt p = BUDGET.fit(BudgetLimits.defaults(8192), "How long may credentials live?",
                List.of(ChatMessage.user("hi"), ChatMessage.assistant("hello")), blocks);
        assertThat(p.totalTokens()).isEqualTo(sent(p, 4));
        assertThat(p.sourceIds()).containsExactlyElementsOf(blocks.stream().map(ContextBlock::sourceId)
                .collect(Collectors.toList()));
    }

    /**
     * The budget's guarantee, on random requests: what is really sent never exceeds window − response reserve, the
     * kept blocks are a prefix of the priority order (the last possibly cut), kept history is the most recent
     * suffix, and the context stays within its cap.
     */
    @Test
    void fit_randomRequests_neverExceedWindowLessReserve() {
        Random random = new Random(20261122);
        int system = COUNTER.count(PROMPTS.systemPrompt()) + 4;
        for (int run = 0; run < 300; run++) {
            int window = system + 64 + random.nextInt(6000);
            int reserve = 1 + random.nextInt(Math.max(1, window - system - 60));
            BudgetLimits limits = limits(window, reserve, random.nextInt(600), random.nextInt(1500),
                    random.nextInt(4000), 1 + random.nextInt(100));
            String question = words(1 + random.nextInt(40), random.nextInt(1000));
            List<ChatMessage> history = new ArrayList<>();
            for (int i = random.nextInt(8); i > 0; i--) {
                history.add(random.nextBoolean() ? ChatMessage.user(words(1 + random.nextInt(120), i))
                        : ChatMessage.assistant(words(1 + random.nextInt(120), i + 7)));
            }
            List<ContextBlock> candidates = new ArrayList<>();
            for (int i = random.nextInt(25); i > 0; i--) {
                Kind kind = Kind.values()[random.nextInt(3)];
                candidates.add(kind == Kind.LINKED ? linked(i, 5 + random.nextInt(300))
                        : random.nextBoolean() ? multiLine(i, random.nextDouble(), 1 + random.nextInt(30),
                                1 + random.nextInt(20))
                        : block(kind, i, kind == Kind.CRITICAL && random.nextBoolean() ? Double.NaN
                                : random.nextDouble(), random.nextBoolean() ? LocalDate.of(2020 + random.nextInt(6),
                                1, 1) : null, 5 + random.nextInt(300)));
            }
            int fixed = Math.max(limits.systemReserve(), system - 4) + 4 + COUNTER.count(question) + 4;
            if (fixed + reserve > window) {
                assertThatThrownBy(() -> BUDGET.fit(limits, question, history, candidates))
                        .isInstanceOf(TokenBudgetExceededException.class);
                continue;
            }
            Prompt p = BUDGET.fit(limits, question, history, candidates);
            assertThat(sent(p, 4)).as("run %d", run).isEqualTo(p.totalTokens())
                    .isLessThanOrEqualTo(window - reserve);
            assertThat(p.contextTokens()).as("run %d", run).isLessThanOrEqualTo(limits.contextCap());
            assertThat(p.history()).isEqualTo(history.subList(p.droppedHistory(), history.size()));
            List<ContextBlock> ordered = new ArrayList<>(candidates);
            ordered.sort(PriorityTokenBudget.PRIORITY);
            assertThat(p.blocks().size() + p.dropped().size()).isEqualTo(candidates.size());
            for (int i = 0; i < p.blocks().size(); i++) {
                ContextBlock kept = p.blocks().get(i);
                assertThat(kept.sourceId()).isEqualTo(ordered.get(i).sourceId());
                assertThat(kept.truncated()).isEqualTo(!kept.equals(ordered.get(i)));
                if (kept.truncated()) {
                    assertThat(i).isEqualTo(p.blocks().size() - 1);
                    assertThat(COUNTER.count(kept.text())).isGreaterThanOrEqualTo(limits.minTruncatedTokens());
                }
            }
        }
    }

    private static int sent(Prompt p, int overhead) {
        return p.messages().stream().mapToInt(m -> COUNTER.count(m.content()) + overhead).sum();
    }

    private static int price(List<ContextBlock> blocks) {
        int price = COUNTER.count(PROMPTS.contextIntro());
        java.util.Set<Kind> opened = java.util.EnumSet.noneOf(Kind.class);
        for (ContextBlock b : blocks) {
            if (opened.add(b.kind())) {
                price += COUNTER.count(PROMPTS.sectionHeading(b.kind()));
            }
            price += COUNTER.count(PROMPTS.formatBlock(b));
        }
        return price;
    }

    private static BudgetLimits limits(int window, int reserve, int systemReserve, int historyCap, int contextCap) {
        return limits(window, reserve, systemReserve, historyCap, contextCap, 50);
    }

    private static BudgetLimits limits(int window, int reserve, int systemReserve, int historyCap, int contextCap,
            int minCut) {
        return new BudgetLimits(window, reserve, systemReserve, historyCap, contextCap, minCut, 4);
    }

    static String words(int count, int seed) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            if (i > 0) {
                b.append(' ');
            }
            b.append(WORDS[Math.floorMod(seed * 31 + i * 7, WORDS.length)]);
        }
        return b.toString();
    }

    private static StoredDocument document(int n, PromotionLevel level, LocalDate date) {
        return StoredDocument.builder().tenant("acme").path("docs/doc-" + n + ".md").title("Document " + n)
                .promotionLevel(level).date(date).charCount(1000).build();
    }

    private static ContextBlock block(Kind kind, int n, double boosted, LocalDate date, int words) {
        StoredDocument d = document(n, kind == Kind.CRITICAL ? PromotionLevel.CRITICAL : PromotionLevel.STANDARD,
                date);
        String text = words(words, n);
        StoredChunk c = new StoredChunk(d.id(), 0, text, null, COUNTER.count(text), 1, 1, "Intro", null);
        return new ContextBlock(kind, d, c, text, 1, 1, boosted, boosted, boosted, null, false);
    }

    private static ContextBlock multiLine(int n, double boosted, int lines, int wordsPerLine) {
        StoredDocument d = document(n, PromotionLevel.STANDARD, null);
        String text = IntStream.range(0, lines).mapToObj(i -> words(wordsPerLine, n + i))
                .collect(Collectors.joining("\n"));
        StoredChunk c = new StoredChunk(d.id(), 2, text, null, COUNTER.count(text), 10, 9 + lines, null, 3);
        return new ContextBlock(Kind.RELEVANT, d, c, text, 10, 9 + lines, boosted, boosted, boosted, null, false);
    }

    private static ContextBlock linked(int n, int words) {
        StoredDocument d = document(100 + n, PromotionLevel.STANDARD, null);
        String text = words(words, n);
        StoredChunk c = new StoredChunk(d.id(), 0, text, null, COUNTER.count(text), 1, 1, null, null);
        return new ContextBlock(Kind.LINKED, d, c, text, 1, 1, Double.NaN, Double.NaN, Double.NaN, "docs/index.md",
                false);
    }
}
