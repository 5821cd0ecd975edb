package dev.ragkit.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.internal.LimitedBodies;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads a route's request body as the API takes it: {@code application/json} (415), at most
 * {@code --max-request-bytes} (413, after reading a body a little over it to its end: {@link LimitedBodies}),
 * arriving within the idle timeout (408), a JSON object (400) holding only the route's fields (400).
 */
final class RequestBodies {
    private final ServerSettings settings;

    RequestBodies(ServerSettings settings) {
        this.settings = settings;
    }

    /**
     * Reads the JSON body: {@code application/json}, at most the size limit, arriving within the idle timeout, an
     * object holding only the known fields (when {@code fields} is given).
     */
    ObjectNode read(HttpServletRequest request, @Nullable Set<String> fields) {
        String type = request.getContentType();
        String bare = type == null ? "" : type.split(";", 2)[0].strip();
        if (!bare.equalsIgnoreCase("application/json")) {
            throw new ApiException(415, "UNSUPPORTED_MEDIA_TYPE", "Unsupported Media Type: send the body as JSON "
                    + "with Content-Type: application/json");
        }
        int max = settings.maxRequestBytes();
        byte @Nullable [] bytes;
        try (InputStream in = request.getInputStream()) {
            bytes = LimitedBodies.read(in, request.getContentLengthLong(), max,
                    System.nanoTime() + settings.idleTimeout().toNanos());
        } catch (IOException e) {
            throw slow();
        }
        if (bytes == null) {
            throw tooLarge(max);
        }
        JsonNode node;
        try {
            node = Api.JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            throw new ApiException(400, "BAD_JSON", "Bad Request: the body is not valid JSON" + where + " ("
                    + Api.shown(e.getOriginalMessage()) + ")");
        } catch (IOException e) {
            throw new ApiException(400, "BAD_JSON", "Bad Request: the body is not valid JSON");
        }
        if (node == null || !node.isObject()) {
            throw new ApiException(400, "NOT_AN_OBJECT", "Bad Request: the body must be a JSON object, e.g. "
                    + "{\"question\": \"How do I rotate the API key?\"}");
        }
        if (fields != null) {
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!fields.contains(name)) {
                    throw new ApiException(400, "UNKNOWN_FIELD", "Bad Request: unknown field '" + Api.shown(name)
                            + "'; this route takes " + String.join(", ", fields.stream().sorted().toList()));
                }
            }
        }
        return (ObjectNode) node;
    }

    private ApiException slow() {
        return new ApiException(408, "REQUEST_TIMEOUT", "Request Timeout: the body did not arrive within "
                + settings.idleTimeout().toSeconds() + " s; send it at once");
    }

    private static ApiException tooLarge(int max) {
        return new ApiException(413, "BODY_TOO_LARGE", "Payload Too Large: a request body may hold at most " + max
                + " bytes (--max-request-bytes)");
    }
}
