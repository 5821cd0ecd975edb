package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

final class DocumentSegmentTest {

    private static StoredChunk chunk(int index, String text, int startLine, int endLine) {
        return new StoredChunk("d", index, text, null, 1, startLine, endLine, null, null);
    }

    /** The lines {@code from..to} of a document whose line {@code n} reads {@code "line n"}. */
    private static StoredChunk lines(int index, int from, int to) {
        StringBuilder text = new StringBuilder();
        for (int n = from; n <= to; n++) {
            text.append(n == from ? "" : "\n").append("line ").append(n);
        }
        return chunk(index, text.toString(), from, to);
    }

    @Test
    void reassemble_overlapsGapsAndSplitLines_areWrittenOnce() {
        List<StoredChunk> chunks = List.of(
                new StoredChunk("d", 0, "l1\nl2\nl3", null, 1, 1, 3, null, null),
                new StoredChunk("d", 1, "l3\nl4", null, 1, 3, 4, null, null),     // overlap of l3
                new StoredChunk("d", 2, "l6 first half", null, 1, 6, 6, null, null), // gap: blank l5
                new StoredChunk("d", 3, "half second half", null, 1, 6, 6, null, null));  // overlap "half", then more
        assertThat(DocumentSegment.join(DocumentSegment.of(chunks))).isEqualTo("l1\nl2\nl3\nl4\n\nl6 first half second half");
    }

    @Test
    void of_overlappingChunks_segmentLineRangesDoNotOverlapAndJoinIsTheDocumentText() {
        List<StoredChunk> chunks = List.of(lines(0, 1, 10), lines(1, 8, 17), lines(2, 15, 24), lines(3, 22, 30));
        StoredDocument d = StoredDocument.builder().id("d").tenant("acme").path("d.md").build();

        List<DocumentSegment> segments = DocumentSegment.of(chunks);

        assertThat(segments).extracting(DocumentSegment::startLine).containsExactly(1, 11, 18, 25);
        assertThat(segments).extracting(DocumentSegment::endLine).containsExactly(10, 17, 24, 30);
        assertThat(segments).extracting(s -> s.chunk().index()).containsExactly(0, 1, 2, 3);
        for (int i = 1; i < segments.size(); i++) {
            assertThat(segments.get(i).startLine()).isGreaterThan(segments.get(i - 1).endLine());
        }
        assertThat(segments.get(1).text()).startsWith("line 11\n").endsWith("\nline 17");
        assertThat(segments).extracting(DocumentSegment::separator).containsExactly("", "\n", "\n", "\n");
        String expected = lines(0, 1, 30).text();
        assertThat(DocumentSegment.join(segments)).isEqualTo(expected);
        assertThat(RetrievedDocument.of(d, chunks, 0.5, 0.5).text()).isEqualTo(expected);
        assertThat(RetrievedDocument.of(d, chunks, 0.5, 0.5).segments()).isEqualTo(segments);
    }

    @Test
    void of_eachSegment_showsExactlyItsLineRange() {
        List<DocumentSegment> segments = DocumentSegment.of(List.of(lines(0, 1, 5), lines(1, 4, 9)));

        for (DocumentSegment s : segments) {
            assertThat(s.text().split("\n")).hasSize(s.endLine() - s.startLine() + 1);
            assertThat(s.text()).startsWith("line " + s.startLine()).endsWith("line " + s.endLine());
        }
    }

    @Test
    void of_partsOfOneLongLine_continueTheLineWithoutTheirOverlap() {
        // the chunker's parts: the whitespace after a cut starts the next part, which repeats the previous tail
        List<StoredChunk> chunks = List.of(lines(0, 1, 2), chunk(1, "a very long", 3, 3),
                chunk(2, "long line in", 3, 3), chunk(3, "in three parts", 3, 3), lines(4, 4, 4));

        List<DocumentSegment> segments = DocumentSegment.of(chunks);

        assertThat(segments).extracting(DocumentSegment::text).containsExactly("line 1\nline 2", "a very long",
                " line in", " three parts", "line 4");
        assertThat(segments).extracting(DocumentSegment::separator).containsExactly("", "\n", "", "", "\n");
        assertThat(DocumentSegment.join(segments)).isEqualTo("line 1\nline 2\na very long line in three parts\nline 4");
    }

    @Test
    void of_chunkStartingWithTheTailOfAShownLine_showsOnlyItsNewLines() {
        List<StoredChunk> chunks = List.of(chunk(0, "Intro.\nOne long paragraph. Its last sentence.", 1, 2),
                chunk(1, "Its last sentence.\nThe next line.", 2, 3));

        List<DocumentSegment> segments = DocumentSegment.of(chunks);

        assertThat(segments.get(1).startLine()).isEqualTo(3);
        assertThat(DocumentSegment.join(segments))
                .isEqualTo("Intro.\nOne long paragraph. Its last sentence.\nThe next line.");
    }

    @Test
    void of_chunksOnSeveralPages_restartTheLineNumbersOnEachPage() {
        List<StoredChunk> chunks = List.of(
                new StoredChunk("d", 0, "p1 l1\np1 l2", null, 1, 1, 2, null, 1),
                new StoredChunk("d", 1, "p1 l2\np1 l3", null, 1, 2, 3, null, 1),
                new StoredChunk("d", 2, "p2 l1", null, 1, 1, 1, null, 2));

        assertThat(DocumentSegment.join(DocumentSegment.of(chunks))).isEqualTo("p1 l1\np1 l2\np1 l3\n\np2 l1");
    }

    @Test
    void of_gapInLineNumbers_becomesABlankLine() {
        List<DocumentSegment> segments = DocumentSegment.of(List.of(lines(0, 1, 2), lines(1, 5, 6)));

        assertThat(segments).extracting(DocumentSegment::separator).containsExactly("", "\n\n");
        assertThat(DocumentSegment.join(segments)).isEqualTo("line 1\nline 2\n\nline 5\nline 6");
    }

    @Test
    void of_chunkFullyInsideThePreviousOne_producesNoSegment() {
        List<StoredChunk> chunks = List.of(lines(0, 1, 6), lines(1, 3, 5), lines(2, 6, 8));

        List<DocumentSegment> segments = DocumentSegment.of(chunks);

        assertThat(segments).extracting(s -> s.chunk().index()).containsExactly(0, 2);
        assertThat(segments.get(1).startLine()).isEqualTo(7);
        assertThat(DocumentSegment.join(segments)).isEqualTo(lines(0, 1, 8).text());
    }

    @Test
    void of_noChunks_noSegmentsAndEmptyText() {
        assertThat(DocumentSegment.of(List.of())).isEmpty();
        assertThat(DocumentSegment.join(List.of())).isEmpty();
    }

    @Test
    void new_linesOutsideTheChunk_areRejected() {
        StoredChunk c = lines(0, 3, 6);

        assertThatThrownBy(() -> new DocumentSegment(c, "x", 2, 4, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2-4").hasMessageContaining("d:0");
        assertThatThrownBy(() -> new DocumentSegment(c, "x", 4, 7, "")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DocumentSegment(c, "x", 5, 4, "")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new DocumentSegment(c, "x", 3, 6, "\n").endLine()).isEqualTo(6);
    }

    @Test
    void new_nullArguments_areRejected() {
        StoredChunk c = lines(0, 1, 1);

        assertThatThrownBy(() -> new DocumentSegment(null, "x", 1, 1, "")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DocumentSegment(c, null, 1, 1, "")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new DocumentSegment(c, "x", 1, 1, null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> DocumentSegment.of(null)).isInstanceOf(NullPointerException.class);
    }
}
