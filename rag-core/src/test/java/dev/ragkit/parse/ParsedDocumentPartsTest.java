package dev.ragkit.parse;

import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.tokens.TokenCounters;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A document made of parts (an e-mail with attachments): lines outside any paged part have no page, and pages start
 * again where the section, the part, changes; within a part they still never go down.
 */
final class ParsedDocumentPartsTest {
    private static final List<String> LINES = List.of("body", "report p1", "report p2", "minutes p1", "notes");
    private static final List<String> SECTIONS = Arrays.asList(null, "report.pdf", "report.pdf", "minutes.pdf",
            "notes.txt");

    @Test
    void pages_restartAtANewPartAndMayBeMissingOutsidePagedParts() {
        ParsedDocument doc = ParsedDocument.builder("thread.eml").lines(LINES).sections(SECTIONS)
                .pages(Arrays.asList(null, 1, 2, 1, null)).build();

        assertThat(doc.paged()).isTrue();
        assertThat(doc.page(1)).isNull();
        assertThat(doc.page(4)).isEqualTo(1);
        List<TextChunk> chunks = TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).build().chunk(doc);
        assertThat(chunks).extracting(TextChunk::text).containsExactly("body", "report p1", "report p2",
                "minutes p1", "notes");
        assertThat(chunks).extracting(TextChunk::page).containsExactly(null, 1, 2, 1, null);
        assertThat(chunks).extracting(TextChunk::startLine).containsExactly(1, 1, 1, 1, 1);
    }

    @Test
    void pages_goingDownWithinOnePart_areRefused() {
        ParsedDocument.Builder builder = ParsedDocument.builder("report.pdf").lines(List.of("a", "b"))
                .sections(Arrays.asList("Part", "Part")).pages(List.of(2, 1));

        assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("never decrease within a part");
    }
}
