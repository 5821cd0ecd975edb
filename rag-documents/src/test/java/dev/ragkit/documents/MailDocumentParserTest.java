package dev.ragkit.documents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.chunk.TextChunk;
import dev.ragkit.chunk.TokenWindowChunker;
import dev.ragkit.tokens.TokenCounters;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** E-mail through mime4j: headers as metadata, the body, attachments as parts with their own pages. */
final class MailDocumentParserTest {
    private final MailDocumentParser parser = new MailDocumentParser();

    @Test
    void parse_messageWithAttachments_headersBodyAndEachAttachmentAsAPart() {
        ParsedDocument doc = parser.parse(Fixtures.source("thread.eml"));

        assertThat(doc.title()).isEqualTo("Q3 budget and offsite");
        assertThat(doc.docType()).isEqualTo("email");
        assertThat(doc.date()).isEqualTo(LocalDate.of(2024, 5, 17));
        assertThat(doc.metadata()).containsEntry("from", "alice@example.com")
                .containsEntry("from_name", "Alice Martin")
                .containsEntry("to", "bob@example.com, carol@example.com")
                .containsEntry("date", "2024-05-17T08:15:30Z")
                .containsEntry("message_id", "<q3-budget@example.com>")
                .containsEntry("attachments", "report.pdf, notes.txt, venue.eml");
        assertThat(doc.metadata().get(MailDocumentParser.ATTACHMENTS_NOT_READ))
                .isEqualTo("logo.png (no parser reads .png files)");
        assertThat(doc.warnings()).containsExactly("1 attachment not read: logo.png (no parser reads .png files)");
        // header block and body: no section, no page
        int body = doc.lines().indexOf("the quarterly report is attached; see the travel page.") + 1;
        assertThat(body).isPositive();
        assertThat(doc.section(body)).isNull();
        assertThat(doc.page(body)).isNull();
        assertThat(doc.lines()).contains("Subject: Q3 budget and offsite", "From: Alice Martin <Alice@Example.com>");
        // the PDF attachment keeps its pages under its name
        int travel = doc.lines().indexOf("The Q3 travel budget is 42,000 euros.") + 1;
        assertThat(doc.section(travel)).isEqualTo("report.pdf");
        assertThat(doc.page(travel)).isEqualTo(3);
        assertThat(doc.page(doc.lines().indexOf("Revenue grew by 12 percent over the quarter.") + 1)).isEqualTo(2);
        // the text attachment and the forwarded message: their own sections, no pages
        int parking = doc.lines().indexOf("Parking is free on Fridays.") + 1;
        assertThat(doc.section(parking)).isEqualTo("notes.txt");
        assertThat(doc.page(parking)).isNull();
        int venue = doc.lines().indexOf("The offsite takes place at the lakeside hotel in Lindau.") + 1;
        assertThat(doc.section(venue)).isEqualTo("venue.eml");
        assertThat(doc.lines()).contains("From: Dana Field <dana@example.com>");
    }

    @Test
    void chunks_ofTheAttachment_arePlacedOnItsPageUnderItsName() {
        ParsedDocument doc = parser.parse(Fixtures.source("thread.eml"));

        List<TextChunk> chunks = TokenWindowChunker.builder().counter(TokenCounters.jtokkit()).build().chunk(doc);

        TextChunk travel = chunks.stream().filter(c -> c.text().contains("42,000 euros")).findFirst().orElseThrow();
        assertThat(travel.section()).isEqualTo("report.pdf");
        assertThat(travel.page()).isEqualTo(3);
        assertThat(travel.startLine()).isEqualTo(1);               // line numbers count within page 3 of the PDF
        assertThat(travel.text()).doesNotContain("Parking");
        TextChunk parking = chunks.stream().filter(c -> c.text().contains("Parking")).findFirst().orElseThrow();
        assertThat(parking.section()).isEqualTo("notes.txt");
        assertThat(parking.page()).isNull();
        assertThat(chunks).noneMatch(c -> c.text().contains("Hello Bob") && c.text().contains("Revenue"));
    }

    @Test
    void parse_htmlOnlyBody_goesThroughTheHtmlParser() {
        ParsedDocument doc = parser.parse(Fixtures.source("newsletter.eml"));

        assertThat(doc.title()).isEqualTo("Newsletter May");
        assertThat(doc.metadata()).containsEntry("from", "news@example.org").containsEntry("to", "team@example.com");
        int line = doc.lines().indexOf("The canteen opens at 11:30 from June.") + 1;
        assertThat(line).isPositive();
        assertThat(doc.section(line)).isEqualTo("Canteen");
        assertThat(String.join("\n", doc.lines())).doesNotContain("track()");
        assertThat(doc.paged()).isFalse();
    }

    @Test
    void parse_aPreBlockInAnHtmlBody_staysAFencedBlockThatTheChunkerKeepsWhole() {
        String eml = "Subject: Deploy\nFrom: ops@example.com\nContent-Type: text/html; charset=utf-8\n\n"
                + "<html><body><p>Run this:</p><pre>make deploy\nmake verify</pre></body></html>\n";
        String plain = "Subject: Lunch\nFrom: bob@example.com\n\nLunch is at noon.\n";

        ParsedDocument html = parser.parse(DocumentSource.of("deploy.eml", eml.getBytes(StandardCharsets.UTF_8)));
        ParsedDocument text = parser.parse(DocumentSource.of("lunch.eml", plain.getBytes(StandardCharsets.UTF_8)));

        assertThat(html.lines()).containsSubsequence("Run this:", "```", "make deploy", "make verify", "```");
        assertThat(html.structure()).isEqualTo(ParsedDocument.Structure.FENCED);
        assertThat(text.structure()).isEqualTo(ParsedDocument.Structure.PLAIN);
    }

    @Test
    void parse_mbox_eachMessageIsAPartUnderItsSubject() throws Exception {
        String mbox = "From alice@example.com Fri May 17 08:15:30 2024\n"
                + new String(MailBookScanFixtures.htmlOnly(), StandardCharsets.UTF_8).replace("\r\n", "\n")
                + "\nFrom bob@example.com Sat May 18 10:00:00 2024\n"
                + "Subject: Lunch\nFrom: bob@example.com\n\nLunch is at noon.\n>From the kitchen: soup.\n";

        ParsedDocument doc = parser.parse(DocumentSource.of("archive.mbox", mbox.getBytes(StandardCharsets.UTF_8)));

        assertThat(doc.metadata()).containsEntry("messages", "2");
        assertThat(doc.section(doc.lines().indexOf("Lunch is at noon.") + 1)).isEqualTo("Lunch");
        assertThat(doc.lines()).contains("From the kitchen: soup.");
        assertThat(doc.section(doc.lines().indexOf("The canteen opens at 11:30 from June.") + 1))
                .isEqualTo("Newsletter May > Canteen");
    }

    @Test
    void parse_thousandsOfAttachments_failsSayingSo() throws Exception {
        DocumentSource source = DocumentSource.of("many.eml", MailBookScanFixtures.manyAttachments(3000));

        assertThatThrownBy(() -> parser.parse(source)).isInstanceOf(IngestException.class)
                .hasMessageStartingWith("many.eml: ")
                .hasMessageContaining("more than " + MailDocumentParser.MAX_PARTS + " MIME parts");
    }

    @Test
    void parse_messagesNestedTooDeep_failsSayingSo() throws Exception {
        ParsedDocument ok = parser.parse(DocumentSource.of("ok.eml",
                MailBookScanFixtures.nestedMessages(MailDocumentParser.MAX_MESSAGE_DEPTH)));
        assertThat(ok.lines()).contains("innermost text");
        assertThat(ok.section(ok.lines().indexOf("innermost text") + 1))
                .isEqualTo("level1.eml > level2.eml > level3.eml");

        DocumentSource deep = DocumentSource.of("deep.eml",
                MailBookScanFixtures.nestedMessages(MailDocumentParser.MAX_MESSAGE_DEPTH + 1));
        assertThatThrownBy(() -> parser.parse(deep)).isInstanceOf(IngestException.class)
                .hasMessageContaining("attached messages nest more than " + MailDocumentParser.MAX_MESSAGE_DEPTH
                        + " deep");
    }

    @Test
    void parse_notAMessage_failsWithTheFix() {
        DocumentSource source = DocumentSource.of("box.mbox", "just text\n".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> parser.parse(source)).isInstanceOf(IngestException.class)
                .hasMessageContaining("not an mbox file");
    }
}
