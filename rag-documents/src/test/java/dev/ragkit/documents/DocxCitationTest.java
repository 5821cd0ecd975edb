package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.generation.ChatRequest;
import dev.ragkit.generation.ExtractiveBackend;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.CitationExtractor;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.prompt.PromptBuilder;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.tokens.TokenCounters;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An answer from a Word document is cited with the heading it stands under and the lines of its sentence: the essay's
 * memo rules, under "Essay Memo" after a "Conclusion", were cited as {@code Body > Conclusion} when a chunk could
 * start in the conclusion and run on into the memo.
 */
final class DocxCitationTest {

    @Test
    void extractiveAnswer_fromTheLastSectionOfAWordFile_citesItsHeadingAndItsSentence() {
        ParsedDocument essay = new DocxDocumentParser().parse(Fixtures.source("essay.docx"));
        // one 500-token window would hold the whole essay: the chunker still ends a chunk at each new section
        List<TextChunk> chunks = TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).build().chunk(essay);
        StoredDocument doc = StoredDocument.builder().tenant("t").path(essay.path()).title(essay.title()).build();
        List<ContextBlock> blocks = new ArrayList<>();
        for (TextChunk c : chunks) {
            StoredChunk stored = new StoredChunk(doc.id(), c.index(), c.text(), null, c.tokenCount(), c.startLine(),
                    c.endLine(), c.section(), c.page());
            blocks.add(new ContextBlock(ContextBlock.Kind.RELEVANT, doc, stored, c.text(), c.startLine(), c.endLine(),
                    0.8, 0.8, 0.8, null, false));
        }

        String answer = new ExtractiveBackend(1).chat(ChatRequest.of(ExtractiveBackend.MODEL,
                PromptBuilder.standard().messages(blocks, List.of(), "When is the essay memo due to the tutor?")))
                .text();
        Citation cited = CitationExtractor.standard().extract(answer, blocks).citations().get(0);

        assertThat(chunks).extracting(TextChunk::section).containsExactly("Body", "Body > Conclusion",
                "Body > Essay Memo");
        assertThat(answer).contains("The memo is due to the tutor on the last Friday of term.")
                .doesNotContain("Essay Memo The memo");                   // the heading is not glued to it
        assertThat(cited.section()).isEqualTo("Body > Essay Memo");
        int line = essay.lines().indexOf("The memo is due to the tutor on the last Friday of term.") + 1;
        assertThat(cited.startLine()).isEqualTo(line);
        assertThat(cited.endLine()).isEqualTo(line);
    }
}
