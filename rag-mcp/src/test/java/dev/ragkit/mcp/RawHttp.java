package dev.ragkit.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One real HTTP/1.0 exchange over a socket, every header under the test's control (the JDK's client will not send a
 * forged {@code Host}); the connection closes after the response.
 *
 * @param status  the status code
 * @param headers the response headers, names in lower case
 * @param body    the response body
 */
record RawHttp(int status, Map<String, String> headers, String body) {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";

    /**
     * @param port    the server's port on 127.0.0.1
     * @param method  the HTTP method
     * @param path    the path
     * @param body    the body, or {@code null}
     * @param headers name, value, name, value…: they replace the defaults (Host 127.0.0.1:port, JSON content type,
     *                Accept of JSON and event streams); a {@code null} value leaves the header out
     * @return the response
     */
    static RawHttp send(int port, String method, String path, String body, String... headers) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Host", "127.0.0.1:" + port);
        all.put("Accept", "application/json, text/event-stream");
        if (body != null) {
            all.put("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            String name = headers[i];
            all.keySet().removeIf(k -> k.equalsIgnoreCase(name));
            if (headers[i + 1] != null) {
                all.put(name, headers[i + 1]);
            }
        }
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.0\r\n");
        all.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
        if (body != null) {
            head.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RawHttp post(int port, String body, String... headers) {
        return send(port, "POST", RagMcpServer.ENDPOINT, body, headers);
    }

    private static RawHttp parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        String head = end < 0 ? text : text.substring(0, end);
        String[] lines = head.split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip());
        }
        return new RawHttp(status, headers, end < 0 ? "" : text.substring(end + 4));
    }

    /** @return the body as JSON, or the first server-sent event's data as JSON */
    JsonNode json() {
        try {
            String data = body;
            if (body.contains("data:")) {
                data = body.lines().filter(l -> l.startsWith("data:")).findFirst().orElseThrow().substring(5);
            }
            return JSON.readTree(data);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + body, e);
        }
    }

    /** @return the session id the server gave, or {@code null} */
    String sessionId() {
        return headers.get("mcp-session-id");
    }
}
