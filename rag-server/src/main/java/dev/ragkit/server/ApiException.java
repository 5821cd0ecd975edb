package dev.ragkit.server;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * A request the server refuses or cannot answer, sent as
 * {@code {"error": {"status": 400, "type": "invalid_request_error", "code": "UNKNOWN_FIELD", "message": "..."}}}
 * (the OpenAI error shape, with RagKit's code): the message says what to fix and never holds Java internals.
 */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;

    ApiException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    ObjectNode json() {
        return json(status, code, getMessage());
    }

    static ObjectNode json(int status, String code, String message) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode error = root.putObject("error");
        error.put("status", status);
        error.put("type", status == 401 || status == 403 ? "authentication_error" : status == 429
                ? "rate_limit_error" : status < 500 ? "invalid_request_error" : "server_error");
        error.put("code", code);
        error.put("message", message);
        return root;
    }

    static byte[] body(int status, String code, String message) {
        return json(status, code, message).toString().getBytes(StandardCharsets.UTF_8);
    }
}
