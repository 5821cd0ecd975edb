package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.MetadataFilter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a hostile-input probe sent the CLI (issue 28): huge or deeply nested filters and empty tags are usage errors
 * (exit 2) that name the limit or the fix, with no stack trace; a filter's caret diagram is printed as lines.
 */
final class HostileInputCliTest {
    @TempDir
    Path cwd;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void noModelServer() throws IOException {
        env.put("OLLAMA_BASE_URL", CliRun.deadServerUrl());
        CliRun.write(cwd, "docs/keys.md", "---\ntitle: API keys\n---\n# API keys\n\nAPI keys rotate every ninety "
                + "days.\n");
    }

    private CliRun run(String... args) {
        return CliRun.of(env, cwd, args);
    }

    private static void assertUsageWithoutTrace(CliRun run) {
        assertThat(run.code()).as(run.err()).isEqualTo(RagkitCli.USAGE);
        assertThat(run.err()).startsWith("ragkit: ").contains("Try 'ragkit ").doesNotContain("\tat ")
                .doesNotContain("Exception").doesNotContain("Error:");
        assertThat(run.err().lines().count()).as(run.err()).isLessThanOrEqualTo(4);
    }

    @Test
    void deeplyNestedFilters_areUsageErrorsNamingTheLimit() {
        CliRun parens = run("ask", "keys?", "--filter", "(".repeat(3_000) + "a = 1" + ")".repeat(3_000));
        CliRun nots = run("ask", "keys?", "--filter", "not ".repeat(20_000) + "a = 1");

        for (CliRun r : List.of(parens, nots)) {
            assertUsageWithoutTrace(r);
            assertThat(r.err()).contains("--filter, column ")
                    .contains("deeper than " + MetadataFilter.MAX_NESTING + " levels");
            assertThat(r.err().length()).as("the 6 KB filter is not echoed whole").isLessThan(600);
        }
    }

    @Test
    void filtersWithTooManyConditions_areUsageErrorsNamingTheLimit() {
        List<String> comparisons = new ArrayList<>();
        for (int i = 0; i < 1_100; i++) {
            comparisons.add("k = v" + i);
        }

        CliRun big = run("ask", "keys?", "--filter", String.join(" or ", comparisons));

        assertUsageWithoutTrace(big);
        assertThat(big.err()).contains("more than " + MetadataFilter.MAX_CONDITIONS + " conditions")
                .contains("key in (a, b, c)");
    }

    @Test
    void theCaretDiagram_isPrintedAsLinesWithTheCaretUnderTheColumn() {
        CliRun bad = run("ask", "keys?", "--filter", "year >= and");

        assertUsageWithoutTrace(bad);
        List<String> lines = bad.err().lines().toList();
        assertThat(lines.get(0)).startsWith("ragkit: --filter, column 9: 'and' is neither a number nor");
        assertThat(lines.get(1)).isEqualTo("  year >= and");
        assertThat(lines.get(2)).isEqualTo("  " + " ".repeat(8) + "^");
        assertThat(bad.err()).doesNotContain("\\n");
    }

    @Test
    void controlCharactersInTheFilter_areEscapedAndTheCaretFollowsThem() {
        CliRun bad = run("ask", "keys?", "--filter", "year\u001b[2J >= and");

        assertThat(bad.code()).isEqualTo(RagkitCli.USAGE);
        List<String> lines = bad.err().lines().toList();
        assertThat(bad.err()).doesNotContain("\u001b");
        assertThat(lines.get(1)).isEqualTo("  year\\e[2J >= and");
        assertThat(lines.get(2).indexOf('^')).isEqualTo(lines.get(1).indexOf("and"));
    }

    @Test
    void emptyTags_areUsageErrorsWhereverTheyStand() {
        for (String command : List.of("ask", "mcp")) {
            for (String tags : List.of(",", ",,", " ", "", "a,,b", "a,", ",a", "a, ,b")) {
                List<String> args = new ArrayList<>(command.equals("ask") ? List.of("ask", "keys?") : List.of("mcp"));
                args.addAll(List.of("--tags", tags));

                CliRun r = run(args.toArray(String[]::new));

                assertUsageWithoutTrace(r);
                assertThat(r.err()).as(command + " --tags '" + tags + "'").contains("--tags")
                        .containsAnyOf("is blank; name the tags", "is empty; separate the tags with single commas");
            }
        }
        assertThat(run("ask", "keys?", "--tags", "a,,b").err()).contains("tag 2 of 3 is empty");
    }

    @Test
    void wellFormedTags_stillWork_commaSeparatedBlankPaddedOrRepeated() {
        assertThat(run("index", "docs").code()).isZero();

        List<String[]> uses = List.of(new String[] {"--tags", "eng, hr"},
                new String[] {"--tags", "eng", "--tags", "hr"});
        for (String[] tags : uses) {
            List<String> args = new ArrayList<>(List.of("ask", "How often do API keys rotate?", "--json"));
            args.addAll(List.of(tags));

            CliRun ask = run(args.toArray(String[]::new));

            assertThat(ask.code()).as(ask.err()).isEqualTo(RagkitCli.OK);
            assertThat(ask.out()).contains("ninety days");
        }
    }
}
