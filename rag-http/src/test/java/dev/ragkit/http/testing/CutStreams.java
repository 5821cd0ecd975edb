package dev.ragkit.http.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import mockwebserver3.MockResponse;
import mockwebserver3.MockResponseBody;
import mockwebserver3.SocketEffect;
import okio.BufferedSink;

/**
 * Streamed model-server responses broken off before their end, in the three ways a server or a proxy breaks them,
 * for the backends' tests (shared through rag-http's test-jar).
 */
public final class CutStreams {

    private CutStreams() {
    }

    /**
     * A 200 response whose stream stops early.
     *
     * @param how         {@code content-length}: the whole body declared, part of it sent, the socket closed;
     *                    {@code chunked}: {@code sent} as one chunk with no last chunk, the socket closed;
     *                    {@code until-close}: no length, {@code sent}, the socket closed
     * @param contentType the stream's media type
     * @param whole       the whole body (declared by {@code content-length})
     * @param sent        what the other two ways send before they close
     * @return the response to enqueue
     */
    public static MockResponse cut(String how, String contentType, String whole, String sent) {
        MockResponse.Builder response = new MockResponse.Builder().code(200).setHeader("Content-Type", contentType);
        if (how.equals("content-length")) {
            // MockWebServer sends half the declared body, then closes the socket
            return response.body(whole).onResponseBody(new SocketEffect.CloseSocket()).build();
        }
        if (!how.equals("chunked") && !how.equals("until-close")) {
            throw new IllegalArgumentException("how: content-length, chunked or until-close, got " + how);
        }
        byte[] bytes = sent.getBytes(StandardCharsets.UTF_8);
        boolean chunked = how.equals("chunked");
        MockResponseBody body = new MockResponseBody() {
            @Override
            public long getContentLength() {
                return -1;
            }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                if (chunked) {
                    sink.writeUtf8(Integer.toHexString(bytes.length)).writeUtf8("\r\n").write(bytes)
                            .writeUtf8("\r\n");
                } else {
                    sink.write(bytes);
                }
                sink.flush();
            }
        };
        response.body(body).removeHeader("Content-Length").onResponseEnd(new SocketEffect.CloseSocket());
        return (chunked ? response.setHeader("Transfer-Encoding", "chunked") : response).build();
    }
}
