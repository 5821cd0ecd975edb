package dev.ragkit.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ragkit.internal.OversizedBodies;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads a route's request body as the API takes it: {@code application/json} (415), at most
 * {@code --max-request-bytes} (413, after reading a body a little over it to its end: {@link OversizedBodies}),
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
        long deadline = System.nanoTime() + settings.idleTimeout().toNanos();
        long announced = request.getContentLengthLong();
        if (announced > max) {
            if (OversizedBodies.readBeforeRefusal(announced, max)) {
                drop(request, announced, deadline);
            }
            throw tooLarge(max);
        }
        byte[] bytes;
        try (InputStream in = request.getInputStream()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) != -1; ) {
                if (out.size() + n > max) {
                    drop(request, max + OversizedBodies.SWALLOW_BYTES - out.size() - n, deadline);
                    throw tooLarge(max);
                }
                out.write(buffer, 0, n);
                if (System.nanoTime() > deadline) {
                    throw slow();
                }
            }
            bytes = out.toByteArray();
        } catch (IOException e) {
            throw slow();
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

    /** Reads and drops the rest of a body over the limit ({@link OversizedBodies}). */
    private static void drop(HttpServletRequest request, long limit, long deadline) {
        try {
            OversizedBodies.drop(request.getInputStream(), limit, deadline);
        } catch (IOException e) {
            // no body to read: the refusal goes out all the same
        }
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
