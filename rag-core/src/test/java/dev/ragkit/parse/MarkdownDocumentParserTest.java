package dev.ragkit.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.ragkit.error.IngestException;
import dev.ragkit.store.PromotionLevel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class MarkdownDocumentParserTest {

    private final MarkdownDocumentParser parser = new MarkdownDocumentParser();

    private ParsedDocument parse(String content) {
        return parser.parse("docs/page.md", content);
    }

    private List<String> links(String markdown) {
        return parse(markdown).links();
    }

    private static String lines(String... lines) {
        return String.join("\n", lines) + "\n";
    }

    // ---------------------------------------------------------------------------------------------------------
    // Front matter

    @Test
    void parse_frontMatterWithEveryField_readsEachField() {
        ParsedDocument doc = parse(lines(
                "---",
                "title: Leave policy",
                "doc_type: policy",
                "promotion_level: important",
                "date: 2024-05-31",
                "tags: [hr, finance]",
                "owner: hr-team",
                "summary: How to take leave.",
                "---",
                "Body"));

        assertThat(doc.title()).isEqualTo("Leave policy");
        assertThat(doc.docType()).isEqualTo("policy");
        assertThat(doc.promotionLevel()).isEqualTo(PromotionLevel.IMPORTANT);
        assertThat(doc.date()).isEqualTo(LocalDate.of(2024, 5, 31));
        assertThat(doc.accessTags()).containsExactly("finance", "hr");
        assertThat(doc.owner()).isEqualTo("hr-team");
        assertThat(doc.summary()).isEqualTo("How to take leave.");
        assertThat(doc.metadata()).isEmpty();
        assertThat(doc.firstBodyLine()).isEqualTo(10);
        assertThat(doc.line(10)).isEqualTo("Body");
    }

    @Test
    void parse_unknownFrontMatterFields_keptAsTextOrCompactJson() {
        ParsedDocument doc = parse(lines(
                "---",
                "version: 1.10",
                "id: 0012",
                "draft: yes",
                "count: 3",
                "authors: [ann, 2, true]",
                "review: {by: bob, rounds: [1, 2.50]}",
                "nothing:",
                "tilde: ~",
                "empty: ''",
                "quoted: '007'",
                "---"));

        assertThat(doc.metadata()).containsExactly(
                Map.entry("version", "1.10"),
                Map.entry("id", "0012"),
                Map.entry("draft", "yes"),
                Map.entry("count", "3"),
                Map.entry("authors", "[\"ann\",2,true]"),
                Map.entry("review", "{\"by\":\"bob\",\"rounds\":[1,2.50]}"),
                Map.entry("empty", ""),
                Map.entry("quoted", "007"));
    }

    @Test
    void parse_noFrontMatter_usesDefaults() {
        ParsedDocument doc = parse("plain text\n");

        assertThat(doc.docType()).isNull();
        assertThat(doc.promotionLevel()).isEqualTo(PromotionLevel.STANDARD);
        assertThat(doc.date()).isNull();
        assertThat(doc.accessTags()).isEmpty();
        assertThat(doc.owner()).isNull();
        assertThat(doc.summary()).isNull();
        assertThat(doc.metadata()).isEmpty();
        assertThat(doc.firstBodyLine()).isEqualTo(1);
    }

    @Test
    void parse_promotionLevelInAnyCase_isRead() {
        assertThat(parse(lines("---", "promotion_level: CRITICAL", "---")).promotionLevel())
                .isEqualTo(PromotionLevel.CRITICAL);
        assertThat(parse(lines("---", "promotion_level: ' Important '", "---")).promotionLevel())
                .isEqualTo(PromotionLevel.IMPORTANT);
        assertThat(parse(lines("---", "promotion_level: standard", "---")).promotionLevel())
                .isEqualTo(PromotionLevel.STANDARD);
    }

    @Test
    void parse_quotedDate_isRead() {
        assertThat(parse(lines("---", "date: \"2023-12-01\"", "---")).date()).isEqualTo(LocalDate.of(2023, 12, 1));
    }

    @Test
    void parse_tagsAsOneString_isOneTag() {
        assertThat(parse(lines("---", "tags: hr", "---")).accessTags()).containsExactly("hr");
    }

    @Test
    void parse_tagsAsCommaSeparatedString_areSplitAndStripped() {
        assertThat(parse(lines("---", "tags: 'hr, finance ,,legal'", "---")).accessTags())
                .containsExactly("finance", "hr", "legal");
    }

    @Test
    void parse_tagsAsBlockList_areSortedWithoutDuplicates() {
        assertThat(parse(lines("---", "tags:", "  - legal", "  - hr", "  - legal", "---")).accessTags())
                .containsExactly("hr", "legal");
    }

    @Test
    void parse_blankTitleInFrontMatter_fallsBackToHeading() {
        assertThat(parse(lines("---", "title: '  '", "---", "# Heading")).title()).isEqualTo("Heading");
    }

    @Test
    void parse_emptyFrontMatter_isAccepted() {
        ParsedDocument doc = parse(lines("---", "---", "# Hello"));

        assertThat(doc.firstBodyLine()).isEqualTo(3);
        assertThat(doc.title()).isEqualTo("Hello");
        assertThat(doc.metadata()).isEmpty();
    }

    @Test
    void parse_frontMatterWithOnlyComments_isEmpty() {
        assertThat(parse(lines("---", "# just a comment", "---", "x")).metadata()).isEmpty();
    }

    @Test
    void parse_frontMatterClosedByDots_isAccepted() {
        ParsedDocument doc = parse(lines("---", "title: T", "...", "body"));

        assertThat(doc.title()).isEqualTo("T");
        assertThat(doc.firstBodyLine()).isEqualTo(4);
    }

    @Test
    void parse_frontMatterOnly_bodyStartsAfterLastLine() {
        ParsedDocument doc = parse(lines("---", "title: T", "---"));

        assertThat(doc.lines()).hasSize(3);
        assertThat(doc.firstBodyLine()).isEqualTo(4);
        assertThat(doc.bodyCharCount()).isZero();
        assertThat(doc.sections()).containsOnlyNulls();
    }

    @Test
    void parse_thematicBreakLaterInFile_isNotFrontMatter() {
        ParsedDocument doc = parse(lines("# Title", "", "---", "", "text"));

        assertThat(doc.firstBodyLine()).isEqualTo(1);
        assertThat(doc.title()).isEqualTo("Title");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Front matter errors: each names the file and the line

    private IngestException failure(String content) {
        return catchThrowableOfType(IngestException.class, () -> parser.parse("docs/bad.md", content));
    }

    @Test
    void parse_invalidPromotionLevel_failsWithFileLineAndValidValues() {
        IngestException e = failure(lines("---", "title: T", "promotion_level: urgent", "---"));

        assertThat(e.path()).isEqualTo("docs/bad.md");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e).hasMessageStartingWith("docs/bad.md:3: ")
                .hasMessageContaining("urgent")
                .hasMessageContaining("standard, important, critical");
    }

    @Test
    void parse_aliasAsAccessTag_failsWithItsLineInsteadOfTaggingWithTheAnchorName() {
        // Jackson would report "*x" as the text "x": the anchor's name would silently become the access tag
        IngestException e = failure(lines("---", "team: &x engineering", "tags: *x", "---", "# T"));

        assertThat(e.line()).isEqualTo(3);
        assertThat(e).hasMessageContaining("alias '*x'").hasMessageContaining("write the value out in full");
    }

    @Test
    void parse_aliasInsideAList_isRejectedToo() {
        IngestException e = failure(lines("---", "base: &b hr", "tags:", "  - eng", "  - *b", "---"));

        assertThat(e.line()).isEqualTo(5);
        assertThat(e).hasMessageContaining("alias '*b'");
    }

    @Test
    void parse_anchorWithoutAlias_isReadAsItsValue() {
        ParsedDocument doc = parse(lines("---", "tags: &t [eng]", "---", "# T"));

        assertThat(doc.accessTags()).containsExactly("eng");
    }

    @Test
    void parse_invalidDate_failsWithFileLineAndFormat() {
        IngestException e = failure(lines("---", "date: 31/05/2024", "---"));

        assertThat(e.line()).isEqualTo(2);
        assertThat(e).hasMessageStartingWith("docs/bad.md:2: ").hasMessageContaining("YYYY-MM-DD");
    }

    @Test
    void parse_impossibleDate_fails() {
        IngestException e = failure(lines("---", "title: x", "", "date: 2023-02-30", "---"));

        assertThat(e.line()).isEqualTo(5 - 1);
        assertThat(e).hasMessageContaining("2023-02-30");
    }

    @Test
    void parse_invalidYaml_failsWithTheLineInTheFile() {
        IngestException e = failure(lines("---", "title: ok", "owner: a: b", "---", "body"));

        assertThat(e.line()).isEqualTo(3);
        assertThat(e).hasMessageStartingWith("docs/bad.md:3: ")
                .hasMessageContaining("invalid YAML")
                .hasMessageNotContaining("in 'reader'");
    }

    @Test
    void parse_unclosedFlowListInYaml_failsWithLineInsideFrontMatter() {
        IngestException e = failure(lines("---", "a: 1", "tags: [hr", "b: 2", "---"));

        assertThat(e.line()).isEqualTo(4);
        assertThat(e).hasMessageStartingWith("docs/bad.md:4: ").hasMessageContaining("flow sequence");
    }

    @Test
    void parse_tabIndentationInYaml_failsWithLine() {
        IngestException e = failure(lines("---", "title: T", "\towner: x", "---"));

        assertThat(e.line()).isEqualTo(3);
    }

    @Test
    void parse_duplicateKey_failsWithLineOfSecondKey() {
        IngestException e = failure(lines("---", "title: A", "owner: x", "title: B", "---"));

        assertThat(e.line()).isEqualTo(4);
        assertThat(e).hasMessageContaining("title");
    }

    @Test
    void parse_unterminatedFrontMatter_failsAtLineOne() {
        IngestException e = failure(lines("---", "title: T", "", "# Body"));

        assertThat(e.line()).isEqualTo(1);
        assertThat(e).hasMessageStartingWith("docs/bad.md:1: ").hasMessageContaining("never closed");
    }

    @Test
    void parse_frontMatterList_failsAsNotAMapping() {
        IngestException e = failure(lines("---", "- a", "- b", "---"));

        assertThat(e.line()).isEqualTo(2);
        assertThat(e).hasMessageContaining("mapping").hasMessageContaining("a list");
    }

    @Test
    void parse_frontMatterScalar_failsAsNotAMapping() {
        assertThat(failure(lines("---", "just words", "---"))).hasMessageContaining("mapping");
    }

    @Test
    void parse_titleAsList_failsWithLine() {
        IngestException e = failure(lines("---", "owner: me", "title: [a, b]", "---"));

        assertThat(e.line()).isEqualTo(3);
        assertThat(e).hasMessageContaining("title must be a single value");
    }

    @Test
    void parse_tagsAsMapping_failsWithLine() {
        IngestException e = failure(lines("---", "tags:", "  a: b", "---"));

        assertThat(e.line()).isEqualTo(2);
        assertThat(e).hasMessageContaining("tags");
    }

    @Test
    void parse_yamlEndingInsideAList_failsAtTheLastFrontMatterLine() {
        IngestException e = failure(lines("---", "a: 1", "b: 2", "c: 3", "d: 4", "e: [", "---", "body"));

        assertThat(e.line()).isEqualTo(6);
    }

    // ---------------------------------------------------------------------------------------------------------
    // Title

    @Test
    void parse_frontMatterTitle_winsOverHeading() {
        assertThat(parse(lines("---", "title: From YAML", "---", "# From heading")).title()).isEqualTo("From YAML");
    }

    @Test
    void parse_noFrontMatterTitle_usesFirstLevelOneHeading() {
        assertThat(parse(lines("## Second level", "# The *real* `title`", "# Later")).title())
                .isEqualTo("The real title");
    }

    @Test
    void parse_setextHeading_isTitle() {
        assertThat(parse(lines("Setext title", "============", "", "text")).title()).isEqualTo("Setext title");
    }

    @Test
    void parse_noHeading_usesFileNameWithoutExtension() {
        assertThat(parser.parse("guide/install.notes.md", "text\n").title()).isEqualTo("install.notes");
        assertThat(parser.parse("README", "text\n").title()).isEqualTo("README");
    }

    @Test
    void parse_headingInsideCodeBlock_isNotTitle() {
        assertThat(parse(lines("```", "# not a title", "```")).title()).isEqualTo("page");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Links

    @Test
    void parse_inlineLink_isResolvedAgainstTheDocumentFolder() {
        assertThat(links("See [install](install.md).")).containsExactly("docs/install.md");
    }

    @Test
    void parse_referenceLink_usesItsDefinition() {
        assertThat(links(lines("See [the guide][g] and [Other][].", "", "[g]: guide/a.md", "[other]: b.md",
                "[unused]: never.md")))
                .containsExactly("docs/guide/a.md", "docs/b.md");
    }

    @Test
    void parse_linkInCodeSpan_isIgnored() {
        assertThat(links("Write `[x](code.md)` to link.")).isEmpty();
    }

    @Test
    void parse_linkInFencedCodeBlock_isIgnored() {
        assertThat(links(lines("```markdown", "[x](fenced.md)", "```", "[y](real.md)")))
                .containsExactly("docs/real.md");
    }

    @Test
    void parse_linkInIndentedCodeBlock_isIgnored() {
        assertThat(links(lines("Text", "", "    [x](indented.md)", "", "after"))).isEmpty();
    }

    @Test
    void parse_image_isIgnored() {
        assertThat(links("![diagram](diagram.md) ![logo](logo.png)")).isEmpty();
    }

    @Test
    void parse_linkAroundImage_keepsLinkOnly() {
        assertThat(links("[![badge](badge.svg)](status.md)")).containsExactly("docs/status.md");
    }

    @Test
    void parse_externalUrls_areIgnored() {
        assertThat(links("[a](https://x.org/a.md) [b](http://x.org) [c](ftp://x/y.md) [d](//cdn.x.org/z.md)"
                + " [e](file:///etc/passwd) [f](HTTPS://X.ORG)")).isEmpty();
    }

    @Test
    void parse_mailto_isIgnored() {
        assertThat(links("[mail](mailto:someone@example.org)")).isEmpty();
    }

    @Test
    void parse_pureAnchor_isIgnored() {
        assertThat(links("[below](#section-two)")).isEmpty();
    }

    @Test
    void parse_fragment_isStripped() {
        assertThat(links("[x](other.md#part)")).containsExactly("docs/other.md");
    }

    @Test
    void parse_query_isStripped() {
        assertThat(links("[x](other.md?plain=1#L10) [y](?only=query)")).containsExactly("docs/other.md");
    }

    @Test
    void parse_percentEncodedLink_isDecoded() {
        assertThat(links("[x](my%20notes.md) [y](<with space.md>) [z](caf%C3%A9.md) [w](100%25.md)"))
                .containsExactly("docs/my notes.md", "docs/with space.md", "docs/café.md", "docs/100%.md");
    }

    @Test
    void parse_invalidPercentEscape_isKeptAsWritten() {
        assertThat(links("[x](a%zz.md) [y](b%FF.md)")).containsExactly("docs/a%zz.md", "docs/b%FF.md");
    }

    @Test
    void parse_relativeLinks_areNormalised() {
        assertThat(parser.parse("a/b/page.md", "[1](../c.md) [2](./d/./e.md) [3](x/../y.md) [4](../../top.md)"
                + " [5](f//g.md)").links())
                .containsExactly("a/c.md", "a/b/d/e.md", "a/b/y.md", "top.md", "a/b/f/g.md");
    }

    @Test
    void parse_rootAbsoluteLink_isRelativeToDocumentRoot() {
        assertThat(parser.parse("a/b/page.md", "[x](/guide/start.md) [y](/a/../z.md)").links())
                .containsExactly("guide/start.md", "z.md");
    }

    @Test
    void parse_linkLeavingTheRoot_isDroppedAndCounted() {
        ParsedDocument doc = parser.parse("a/page.md",
                "[1](../../out.md) [2](/../out.md) [3](../in.md) [4](%2E%2E/%2E%2E/out.md)");

        assertThat(doc.links()).containsExactly("in.md");
        assertThat(doc.droppedLinks()).isEqualTo(3);
    }

    @Test
    void parse_duplicateLinks_keepFirstAppearanceOnce() {
        assertThat(links("[a](b.md) [c](c.md) [b again](b.md#x) [b via dot](./b.md) [c](../docs/c.md)"))
                .containsExactly("docs/b.md", "docs/c.md");
    }

    @Test
    void parse_autolinks_areExternal() {
        assertThat(links("<https://example.org/page.md> and <someone@example.org>")).isEmpty();
    }

    @Test
    void parse_linkToItself_isLeftOut() {
        ParsedDocument doc = parse("[me](page.md) [me too](./page.md#top) [root](/docs/page.md) [other](o.md)");

        assertThat(doc.links()).containsExactly("docs/o.md");
        assertThat(doc.droppedLinks()).isZero();
    }

    @Test
    void parse_emptyDestinationAndRootFolder_areLeftOut() {
        ParsedDocument doc = parse("[empty]() [root](/) [up](../)");

        assertThat(doc.links()).isEmpty();
        assertThat(doc.droppedLinks()).isZero();
    }

    @Test
    void parse_linksInHeadingsListsAndQuotes_areFound() {
        assertThat(links(lines("# See [a](a.md)", "", "- item [b](b.md)", "", "> quote [c](c.md)")))
                .containsExactly("docs/a.md", "docs/b.md", "docs/c.md");
    }

    @Test
    void parse_linkToNonMarkdownTarget_isKept() {
        assertThat(links("[pdf](files/report.pdf) [folder](guide/)"))
                .containsExactly("docs/files/report.pdf", "docs/guide");
    }

    @Test
    void parse_linkInFrontMatter_isNotALink() {
        assertThat(links(lines("---", "summary: '[x](fm.md)'", "---", "[y](body.md)"))).containsExactly("docs/body.md");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Sections

    @Test
    void parse_nestedHeadings_giveHeadingPathPerLine() {
        ParsedDocument doc = parse(lines(
                "intro",          // 1
                "# Install",      // 2
                "text",           // 3
                "## Linux",       // 4
                "apt",            // 5
                "### Debian",     // 6
                "deb",            // 7
                "## Windows",     // 8
                "msi",            // 9
                "# Usage",        // 10
                "run"));          // 11

        assertThat(doc.sections()).containsExactly(
                null,
                "Install", "Install",
                "Install > Linux", "Install > Linux",
                "Install > Linux > Debian", "Install > Linux > Debian",
                "Install > Windows", "Install > Windows",
                "Usage", "Usage");
    }

    @Test
    void parse_skippedLevels_nestUnderTheLastShallowerHeading() {
        ParsedDocument doc = parse(lines("# A", "### C", "## B"));

        assertThat(doc.sections()).containsExactly("A", "A > C", "A > B");
    }

    @Test
    void parse_headingInsideFencedCode_doesNotChangeSection() {
        ParsedDocument doc = parse(lines("# Real", "```bash", "# a comment", "echo hi", "```", "after"));

        assertThat(doc.sections()).containsOnly("Real");
    }

    @Test
    void parse_headingTextWithMarkup_isPlainText() {
        ParsedDocument doc = parse(lines("# The `run` **command** [link](x.md) <b>bold</b>  here ##"));

        assertThat(doc.section(1)).isEqualTo("The run command link bold here");
    }

    @Test
    void parse_setextHeadings_openSectionsAtTheirTextLine() {
        ParsedDocument doc = parse(lines("Top", "===", "text", "", "Sub", "---", "more"));

        assertThat(doc.sections()).containsExactly("Top", "Top", "Top", "Top", "Top > Sub", "Top > Sub", "Top > Sub");
    }

    @Test
    void parse_frontMatterLines_haveNoSection() {
        ParsedDocument doc = parse(lines("---", "title: T", "---", "before", "# H", "after"));

        assertThat(doc.sections()).containsExactly(null, null, null, null, "H", "H");
    }

    @Test
    void parse_headingInBlockQuoteAndEmptyHeading_areIgnored() {
        ParsedDocument doc = parse(lines("# A", "> # Quoted", "#", "text"));

        assertThat(doc.sections()).containsOnly("A");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Lines

    @Test
    void parse_crlfLineEndings_splitWithoutTerminators() {
        ParsedDocument doc = parse("---\r\ntitle: T\r\n---\r\n# H\r\ntext\r\n");

        assertThat(doc.lines()).containsExactly("---", "title: T", "---", "# H", "text");
        assertThat(doc.firstBodyLine()).isEqualTo(4);
        assertThat(doc.sections()).containsExactly(null, null, null, "H", "H");
    }

    @Test
    void parse_crLineEndings_splitWithoutTerminators() {
        ParsedDocument doc = parse("# A\rone\r## B\rtwo");

        assertThat(doc.lines()).containsExactly("# A", "one", "## B", "two");
        assertThat(doc.sections()).containsExactly("A", "A", "A > B", "A > B");
    }

    @Test
    void parse_mixedLineEndings_countEachTerminatorOnce() {
        assertThat(parse("a\r\nb\rc\nd\n\r\n").lines()).containsExactly("a", "b", "c", "d", "");
    }

    @Test
    void parse_trailingNewline_addsNoEmptyLine() {
        assertThat(parse("a\n").lines()).containsExactly("a");
        assertThat(parse("a").lines()).containsExactly("a");
        assertThat(parse("a\n\n").lines()).containsExactly("a", "");
        assertThat(parse("\n").lines()).containsExactly("");
    }

    @Test
    void parse_byteOrderMark_isStripped() {
        ParsedDocument doc = parse("\uFEFF---\ntitle: T\n---\n# H\n");

        assertThat(doc.line(1)).isEqualTo("---");
        assertThat(doc.title()).isEqualTo("T");
        assertThat(doc.firstBodyLine()).isEqualTo(4);
    }

    @Test
    void parse_emptyFile_hasNoLines() {
        ParsedDocument doc = parse("");

        assertThat(doc.lines()).isEmpty();
        assertThat(doc.sections()).isEmpty();
        assertThat(doc.firstBodyLine()).isEqualTo(1);
        assertThat(doc.title()).isEqualTo("page");
        assertThat(doc.links()).isEmpty();
    }

    @Test
    void parse_malformedMarkdown_neverThrows() {
        ParsedDocument doc = parse("[unclosed](link.md\n```\nunclosed fence\n<div>\n* * *\n[x]: \n\u0000\n");

        assertThat(doc.lines()).hasSize(7);
    }

    @Test
    void parse_hugeDocument_works() {
        StringBuilder text = new StringBuilder();
        int sections = 0;
        while (text.length() < 5_000_000) {
            sections++;
            text.append("# Part ").append(sections).append('\n')
                    .append("## Detail\n")
                    .append("Some text with a [link](page").append(sections % 50).append(".md) and more words.\n")
                    .append("```\n# not a heading\n```\n\n");
        }

        ParsedDocument doc = parse(text.toString());

        assertThat(doc.lines()).hasSize(sections * 7);
        assertThat(doc.links()).hasSize(50);
        assertThat(doc.section(doc.lines().size())).isEqualTo("Part " + sections + " > Detail");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Paths

    @Test
    void parse_pathWithDotSegments_isNormalised() {
        assertThat(parser.parse("./a/./b/../c.md", "").path()).isEqualTo("a/c.md");
        assertThat(parser.parse("a//c.md", "").path()).isEqualTo("a/c.md");
    }

    @Test
    void parse_badPaths_areRejected() {
        assertThatThrownBy(() -> parser.parse(" ", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> parser.parse("/etc/x.md", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("absolute");
        assertThatThrownBy(() -> parser.parse("C:/x.md", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("absolute");
        assertThatThrownBy(() -> parser.parse("a/../../x.md", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("above the document root");
        assertThatThrownBy(() -> parser.parse("a\\x.md", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'/'");
        assertThatThrownBy(() -> parser.parse("a/..", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("root");
    }

    @Test
    void parse_nulls_areRejectedByName() {
        assertThatThrownBy(() -> parser.parse((String) null, "")).hasMessage("path");
        assertThatThrownBy(() -> parser.parse("a.md", null)).hasMessage("content");
        assertThatThrownBy(() -> parser.parse((Path) null, Path.of("a"))).hasMessage("root");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Files

    @Test
    void parseFile_nestedFile_usesRootRelativePath(@TempDir Path root) throws IOException {
        Path file = root.resolve("guide/install.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "# Install\nsee [a](../a.md) and [é](caf%C3%A9.md)\n", StandardCharsets.UTF_8);

        ParsedDocument doc = parser.parse(root, file);

        assertThat(doc.path()).isEqualTo("guide/install.md");
        assertThat(doc.title()).isEqualTo("Install");
        assertThat(doc.links()).containsExactly("a.md", "guide/café.md");
    }

    @Test
    void parseFile_malformedUtf8_failsNamingFileAndLine(@TempDir Path root) throws IOException {
        Path file = root.resolve("bad.md");
        byte[] head = "line one\nline two\n".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = Arrays.copyOf(head, head.length + 3);
        bytes[head.length] = 'x';
        bytes[head.length + 1] = (byte) 0xC3; // a lead byte without its continuation
        bytes[head.length + 2] = '\n';
        Files.write(file, bytes);

        IngestException e = catchThrowableOfType(IngestException.class, () -> parser.parse(root, file));

        assertThat(e.path()).isEqualTo("bad.md");
        assertThat(e.line()).isEqualTo(3);
        assertThat(e).hasMessageContaining("UTF-8");
    }

    @Test
    void parseFile_fileOutsideRoot_fails(@TempDir Path tmp) throws IOException {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.writeString(tmp.resolve("outside.md"), "# x\n");

        assertThatThrownBy(() -> parser.parse(root, outside)).isInstanceOf(IngestException.class)
                .hasMessageContaining("not inside the document root");
        assertThatThrownBy(() -> parser.parse(root, root.resolve("../outside.md")))
                .isInstanceOf(IngestException.class);
        assertThatThrownBy(() -> parser.parse(root, root)).isInstanceOf(IngestException.class);
    }

    @Test
    void parseFile_symlinkLeavingRoot_fails(@TempDir Path tmp) throws IOException {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path outside = Files.writeString(tmp.resolve("secret.md"), "secret\n");
        Path link = root.resolve("link.md");
        try {
            Files.createSymbolicLink(link, outside);
        } catch (UnsupportedOperationException | IOException e) {
            assumeTrue(false, "symbolic links are not supported here: " + e);
        }

        assertThatThrownBy(() -> parser.parse(root, link)).isInstanceOf(IngestException.class)
                .hasMessageContaining("outside the document root");
    }

    @Test
    void parseFile_missingFile_fails(@TempDir Path root) {
        assertThatThrownBy(() -> parser.parse(root, root.resolve("nope.md"))).isInstanceOf(IngestException.class)
                .hasMessageContaining("nope.md")
                .hasMessageContaining("does not exist");
    }

    @Test
    void parseFile_frontMatterError_namesRootRelativePath(@TempDir Path root) throws IOException {
        Path file = Files.writeString(root.resolve("p.md"), "---\ndate: soon\n---\n");

        assertThatThrownBy(() -> parser.parse(root, file)).isInstanceOf(IngestException.class)
                .hasMessageStartingWith("p.md:2: ");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Threads

    @Test
    void parse_concurrentCalls_giveEqualResults() throws Exception {
        String text = lines("---", "title: T", "tags: [a]", "---", "# H", "[x](x.md)", "## S", "text");
        ParsedDocument expected = parse(text);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<ParsedDocument>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> parse(text)));
            }
            for (Future<ParsedDocument> result : results) {
                assertThat(result.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // The Rust Reference corpus (../shared/corpora/rust-reference, see its SOURCES.md)

    private static Path rustReference() {
        for (String candidate : List.of("../../shared/corpora/rust-reference/src",
                "../shared/corpora/rust-reference/src", "shared/corpora/rust-reference/src")) {
            Path path = Path.of(candidate).toAbsolutePath().normalize();
            if (Files.isDirectory(path)) {
                return path;
            }
        }
        assumeTrue(false, "the Rust Reference corpus is not here: expected shared/corpora/rust-reference/src beside"
                + " the repository (working directory " + Path.of("").toAbsolutePath() + ")");
        throw new AssertionError("unreachable");
    }

    @Test
    void parse_rustReferenceCorpus_readsEveryPageWithNormalisedLinks() throws IOException {
        Path src = rustReference();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(src)) {
            files = walk.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList());
        }
        assertThat(files).hasSize(122);

        Map<String, ParsedDocument> docs = new HashMap<>();
        for (Path file : files) {
            ParsedDocument doc = parser.parse(src, file);
            docs.put(doc.path(), doc);
        }

        long withHeadingTitle = docs.values().stream()
                .filter(d -> !d.title().equals(d.path().replaceAll("^.*/", "").replaceAll("\\.md$", ""))).count();
        long withLinks = docs.values().stream().filter(d -> !d.links().isEmpty()).count();
        assertThat(withHeadingTitle).isGreaterThanOrEqualTo(120);
        assertThat(withLinks).isGreaterThanOrEqualTo(100);
        assertThat(docs.get("items/functions.md").title()).isEqualTo("Functions");

        int dropped = 0;
        for (ParsedDocument doc : docs.values()) {
            dropped += doc.droppedLinks();
            assertThat(doc.sections()).hasSameSizeAs(doc.lines());
            assertThat(doc.links()).as(doc.path()).doesNotContain(doc.path()).doesNotHaveDuplicates()
                    .allSatisfy(link -> {
                        assertThat(link).doesNotStartWith("/").doesNotContain("#", "?", "//", "\\");
                        assertThat(link.split("/")).doesNotContain("..", ".", "");
                    });
        }
        // Links into the sibling rustc book (../rustc/...) leave the root: dropped and counted, never returned.
        assertThat(dropped).isEqualTo(43);
        assertThat(docs.get("panic.md").droppedLinks()).isEqualTo(2);
        assertThat(docs.get("panic.md").links()).contains("items/functions.md", "names/preludes.md")
                .noneMatch(link -> link.contains("rustc"));

        // Cycles and self-links (notation.md and destructors.md link to themselves) parse like any other link.
        assertThat(docs.get("notation.md").links()).doesNotContain("notation.md");
        assertThat(docs.get("destructors.md").links()).doesNotContain("destructors.md");
        Set<String> pages = docs.keySet();
        int pageLinks = 0;
        int mutualPairs = 0;
        for (ParsedDocument doc : docs.values()) {
            for (String link : doc.links()) {
                if (pages.contains(link)) {
                    pageLinks++;
                    if (doc.path().compareTo(link) < 0 && docs.get(link).links().contains(doc.path())) {
                        mutualPairs++;
                    }
                }
            }
        }
        // SOURCES.md counts 1,058 page-to-page links and 172 mutual pairs. It also counts reference definitions
        // that no text uses, links written as page.html (an mdBook convention) and self-links; none of those is
        // a link here, which leaves these numbers.
        assertThat(pageLinks).isEqualTo(1025);
        assertThat(mutualPairs).isEqualTo(164);

        // Targets that are no page are kept for the indexer to judge: mdBook rule names, .html links, a typo.
        assertThat(docs.get("abi.md").links()).contains("expr.closure");
        assertThat(docs.get("introduction.md").links()).contains("linkage.html");
        assertThat(docs.get("names/scopes.md").links()).contains("items/enumerations.mdr");
    }
}
