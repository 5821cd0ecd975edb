package dev.ragkit.server;

import static dev.ragkit.server.ServerFixture.ACME_TOKEN;
import static dev.ragkit.server.ServerFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ragkit.generation.ExtractiveBackend;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Word file and a real three-page PDF (made with POI and PDFBox, read by rag-documents), indexed, listed,
 * asked about through {@code /v1/ask}, and opened through the citation's link as the web page builds it: the cited
 * lines highlighted, and for the PDF the cited page.
 */
final class OfficeDocumentsTest {
    @TempDir
    Path dir;
    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir).withOfficeFiles().startWithTokens(new ExtractiveBackend(), b -> { });
    }

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void theDocumentsList_showsTypeAndPages() {
        JsonNode docs = json(fixture.get("/v1/documents", ACME_TOKEN)).get("documents");
        JsonNode pdf = find(docs, "hr-handbook.pdf");
        JsonNode word = find(docs, "guide.docx");
        assertThat(pdf.get("type").asText()).isEqualTo("pdf");
        assertThat(pdf.get("pages").asInt()).isEqualTo(3);
        assertThat(word.get("type").asText()).isEqualTo("docx");
        assertThat(word.get("pages").isNull()).isTrue();
    }

    @Test
    void pdfCitation_opensTheCitedPage_withTheCitedLinesHighlighted() {
        JsonNode citation = ask("How many weeks of paid parental leave do parents receive?", "hr-handbook.pdf", "sixteen weeks");
        assertThat(citation.get("page").asInt()).isEqualTo(3);
        JsonNode view = follow(citation);
        assertThat(view.at("/document/type").asText()).isEqualTo("pdf");
        assertThat(view.at("/highlight/page").asInt()).isEqualTo(3);
        List<String> marked = new ArrayList<>();
        Set<Integer> pages = new HashSet<>();
        for (JsonNode line : view.get("lines")) {
            pages.add(line.get("page").asInt());
            if (line.get("highlight").asBoolean()) {
                assertThat(line.get("page").asInt()).as(line.toString()).isEqualTo(3);
                marked.add(line.get("text").asText());
            }
        }
        assertThat(pages).containsExactlyInAnyOrder(1, 2, 3);
        // each page numbers its lines from 1: every page's lines are shown, none hides another's
        List<String> all = new ArrayList<>();
        view.get("lines").forEach(l -> all.add(l.get("page").asInt() + ":" + l.get("n").asInt() + " "
                + l.get("text").asText()));
        assertThat(all).contains("1:1 Welcome to the company.", "2:1 Working hours are flexible between seven and "
                + "seven.", "3:2 " + OfficeFiles.LEAVE);
        assertThat(String.join("\n", marked)).contains(OfficeFiles.LEAVE).doesNotContain("Welcome")
                .doesNotContain("Working hours");
    }

    @Test
    void wordCitation_opensTheIndexedText_withTheCitedLinesHighlighted() {
        JsonNode citation = ask("Which apt package installs the agent on Linux?", "guide.docx", "agentd");
        assertThat(citation.has("page")).isFalse();
        int from = citation.get("startLine").asInt();
        int to = citation.get("endLine").asInt();
        JsonNode view = follow(citation);
        assertThat(view.at("/document/type").asText()).isEqualTo("docx");
        List<String> marked = new ArrayList<>();
        List<String> all = new ArrayList<>();
        for (JsonNode line : view.get("lines")) {
            all.add(line.get("text").asText());
            if (line.get("highlight").asBoolean()) {
                assertThat(line.get("n").asInt()).isBetween(from, to);
                marked.add(line.get("text").asText());
            }
        }
        assertThat(marked).hasSize(to - from + 1);
        assertThat(String.join("\n", marked)).contains(OfficeFiles.LINUX);
        assertThat(String.join("\n", all)).contains("Agent guide").contains("MSI installer");
        assertThat(String.join("\n", marked)).doesNotContain("MSI installer");
    }

    /** Asks and returns the citation of {@code path} whose snippet holds {@code quoted}. */
    private JsonNode ask(String question, String path, String quoted) {
        HttpResponse<String> r = fixture.post("/v1/ask", ACME_TOKEN, "{\"question\": \"" + question + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        for (JsonNode c : json(r).get("citations")) {
            if (c.get("path").asText().equals(path) && c.get("snippet").asText().contains(quoted)) {
                return c;
            }
        }
        throw new AssertionError("no citation of " + path + " quoting '" + quoted + "': " + r.body());
    }

    /** Opens the citation's link the way the page does: lines, and the page when it has one. */
    private JsonNode follow(JsonNode citation) {
        String query = "lines=" + citation.get("startLine").asInt() + "-" + citation.get("endLine").asInt()
                + (citation.has("page") ? "&page=" + citation.get("page").asInt() : "");
        HttpResponse<String> r = fixture.get("/v1/documents/" + citation.get("documentId").asText() + "/view?"
                + query, ACME_TOKEN);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json(r);
    }

    private static JsonNode find(JsonNode docs, String path) {
        for (JsonNode d : docs) {
            if (d.get("path").asText().equals(path)) {
                return d;
            }
        }
        throw new AssertionError("not listed: " + path + " in " + docs);
    }
}
