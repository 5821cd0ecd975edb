package dev.ragkit.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Reads one JSON-RPC message from a client, as text (a stdio line or an HTTP body), and says exactly what is wrong
 * with one that cannot be handled, as a JSON-RPC error response without internals:
 * <ul>
 *   <li>not JSON at all: {@value #PARSE_ERROR} (parse error), id {@code null};</li>
 *   <li>JSON that is not one message object ({@code null}, {@code 42}, {@code []}, a batch): {@value #INVALID_REQUEST}
 *       (invalid request), id {@code null} — JSON-RPC 2.0 keeps -32700 for text that does not parse;</li>
 *   <li>an object whose {@code jsonrpc}, {@code id}, {@code method} or {@code params} is malformed (e.g.
 *       {@code "params": "x"}): {@value #INVALID_REQUEST}, with the id when it could be read;</li>
 *   <li>{@code tools/call} whose {@code name} is not text or whose {@code arguments} are not an object:
 *       {@value #INVALID_PARAMS} (invalid params).</li>
 * </ul>
 * The SDK's own reading of such input fails with Java exception text (or, for {@code null}, a
 * {@code NullPointerException}); nothing reaches it that this class has not accepted. Thread-safe.
 */
final class JsonRpcInput {
    /** JSON-RPC: the text is not JSON. */
    static final int PARSE_ERROR = -32700;
    /** JSON-RPC: JSON, but not a valid request object. */
    static final int INVALID_REQUEST = -32600;
    /** JSON-RPC: the method's parameters are wrong. */
    static final int INVALID_PARAMS = -32602;
    /** Server error range: the transport refused the request (origin, authorisation, limits). */
    static final int TRANSPORT_ERROR = -32000;
    /** Server error range: the session named by {@code Mcp-Session-Id} is not (or no longer) open. */
    static final int SESSION_NOT_FOUND = -32001;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonRpcInput() {
    }

    /**
     * One message read, or the error response that answers it.
     *
     * @param message the message, or {@code null} when refused
     * @param error   the JSON-RPC error response to send instead, or {@code null}
     * @param method  the message's method, or {@code null} for responses and refusals
     */
    record Read(McpSchema.@Nullable JSONRPCMessage message, @Nullable ObjectNode error, @Nullable String method) {

        /** @return whether the message is an {@code initialize} request */
        boolean isInitialize() {
            return McpSchema.METHOD_INITIALIZE.equals(method) && message instanceof McpSchema.JSONRPCRequest;
        }

        /** @return whether the message is a request (it gets an answer) */
        boolean isRequest() {
            return message instanceof McpSchema.JSONRPCRequest;
        }
    }

    /**
     * @param mapper the SDK's mapper, which builds the message once the text passed every check
     * @param text   the message as received
     * @return the message, or the error response to send
     */
    static Read read(McpJsonMapper mapper, String text) {
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return refused(error(null, PARSE_ERROR, "Parse error: the message is not JSON ("
                    + e.getOriginalMessage() + location(e) + ")"));
        }
        if (root == null || root.isMissingNode()) {
            return refused(error(null, PARSE_ERROR, "Parse error: the message is empty"));
        }
        if (root.isArray()) {
            return refused(error(null, INVALID_REQUEST, "Invalid Request: a batch (JSON array) is not supported; "
                    + "send one JSON-RPC message object at a time"));
        }
        if (!root.isObject()) {
            return refused(error(null, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object, got "
                    + kind(root)));
        }
        JsonNode idNode = root.get("id");
        if (idNode != null && !idNode.isTextual() && !idNode.isIntegralNumber()) {
            return refused(error(null, INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer, got "
                    + kind(idNode)));
        }
        JsonNode id = idNode == null ? NullNode.getInstance() : idNode;
        if (!"2.0".equals(root.path("jsonrpc").asText(null)) || !root.path("jsonrpc").isTextual()) {
            return refused(error(id, INVALID_REQUEST, "Invalid Request: 'jsonrpc' must be \"2.0\""));
        }
        JsonNode method = root.get("method");
        if (method != null && (!method.isTextual() || method.asText().isEmpty())) {
            return refused(error(id, INVALID_REQUEST, "Invalid Request: 'method' must be a non-empty string, got "
                    + kind(method)));
        }
        JsonNode params = root.get("params");
        if (params != null && !params.isObject() && !params.isNull()) {
            return refused(error(id, INVALID_REQUEST, "Invalid Request: 'params' must be an object, got "
                    + kind(params)));
        }
        if (method != null && McpSchema.METHOD_TOOLS_CALL.equals(method.asText()) && idNode != null) {
            JsonNode name = params == null ? null : params.get("name");
            if (name == null || !name.isTextual()) {
                return refused(error(id, INVALID_PARAMS, "Invalid params: tools/call needs 'name', the tool's name "
                        + "as a string"));
            }
            JsonNode arguments = params.get("arguments");
            if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
                return refused(error(id, INVALID_PARAMS, "Invalid params: 'arguments' must be an object, got "
                        + kind(arguments)));
            }
        }
        if (method == null && idNode == null) {
            return refused(error(null, INVALID_REQUEST, "Invalid Request: a message needs 'method' (a request or a "
                    + "notification) or 'id' with 'result' or 'error' (a response)"));
        }
        try {
            McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(mapper, text);
            return new Read(message, null, method == null ? null : method.asText());
        } catch (IOException | RuntimeException e) {
            return refused(error(id, INVALID_REQUEST, "Invalid Request: not a JSON-RPC request, notification or "
                    + "response"));
        }
    }

    /**
     * @param id      the request's id, or {@code null} when it is not known
     * @param code    the JSON-RPC error code
     * @param message what is wrong and what to do, for people
     * @return {@code {"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}}
     */
    static ObjectNode error(@Nullable JsonNode id, int code, String message) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("jsonrpc", "2.0");
        out.set("id", id == null ? NullNode.getInstance() : id);
        ObjectNode error = out.putObject("error");
        error.put("code", code);
        error.put("message", message);
        return out;
    }

    /** @return the id of a JSON-RPC message text when it has a readable one, else {@code null} */
    static @Nullable JsonNode idOf(@Nullable String text) {
        if (text == null) {
            return null;
        }
        try {
            JsonNode id = JSON.readTree(text).get("id");
            return id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }

    private static Read refused(ObjectNode error) {
        return new Read(null, error, null);
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr();
    }

    private static String kind(JsonNode node) {
        if (node.isNull()) {
            return "null";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        return node.isArray() ? "an array" : "an object";
    }
}
