package dev.ragkit.serving;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.RagResponse;
import dev.ragkit.grounding.Citation;
import dev.ragkit.grounding.ConfidenceScore;
import dev.ragkit.grounding.RouteTarget;
import java.util.Objects;

/**
 * The JSON shape of an answer that RagKit's servers send (the MCP tool {@code rag_query} and {@code POST /v1/ask}):
 * <pre>{@code
 * {"answer": "...", "action": "CITE",
 *  "confidence": {"overall": 82, "retrieval": 0.9, "coverage": 0.8, "selfRating": 4, "explanation": "..."},
 *  "citations": [{"sourceId": "...", "documentId": "...", "path": "docs/keys.md", "title": "API keys",
 *                 "startLine": 7, "endLine": 8, "page": 3, "section": "API keys", "snippet": "..."}],
 *  "route": {"tag": "hr", "ownerEmail": "hr@example.com", "reason": "...", "fallback": false},
 *  "model": "extractive", "flags": []}
 * }</pre>
 * {@code page}, {@code section}, {@code selfRating} and {@code route} are left out when absent. Stateless.
 */
public final class ResponseJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ResponseJson() {
    }

    /**
     * @param response an answer
     * @return its JSON form
     */
    public static ObjectNode answer(RagResponse response) {
        Objects.requireNonNull(response, "response");
        ObjectNode out = NODES.objectNode();
        out.put("answer", response.answer());
        out.put("action", response.action().name());
        out.set("confidence", confidence(response.confidence()));
        ArrayNode citations = out.putArray("citations");
        response.citations().forEach(c -> citations.add(citation(c)));
        RouteTarget route = response.routeTo();
        if (route != null) {
            ObjectNode r = out.putObject("route");
            r.put("tag", route.tag());
            r.put("ownerEmail", route.ownerEmail());
            r.put("reason", route.reason());
            r.put("fallback", route.fallback());
        }
        out.put("model", response.modelUsed());
        ArrayNode flags = out.putArray("flags");
        response.flags().forEach(f -> flags.add(f.name()));
        return out;
    }

    /**
     * @param confidence a confidence score
     * @return its JSON form: overall, retrieval, coverage, selfRating (when rated) and explanation
     */
    public static ObjectNode confidence(ConfidenceScore confidence) {
        ObjectNode node = NODES.objectNode();
        node.put("overall", confidence.overall());
        node.put("retrieval", confidence.retrieval());
        node.put("coverage", confidence.coverage());
        if (confidence.selfRating() != null) {
            node.put("selfRating", confidence.selfRating());
        }
        node.put("explanation", confidence.explanation());
        return node;
    }

    /**
     * @param c a citation
     * @return its JSON form: sourceId, documentId, path, title, startLine, endLine, page and section when known,
     *         snippet
     */
    public static ObjectNode citation(Citation c) {
        ObjectNode node = NODES.objectNode();
        node.put("sourceId", c.sourceId());
        node.put("documentId", c.documentId());
        node.put("path", c.path());
        node.put("title", c.documentName());
        node.put("startLine", c.startLine());
        node.put("endLine", c.endLine());
        if (c.page() != null) {
            node.put("page", c.page());
        }
        if (c.section() != null) {
            node.put("section", c.section());
        }
        node.put("snippet", c.snippet());
        return node;
    }
}
