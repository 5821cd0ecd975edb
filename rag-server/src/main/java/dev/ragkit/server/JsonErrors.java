package dev.ragkit.server;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error pages (a request it cannot parse, a header too large, an exception escaping the servlet) as this
 * server's JSON errors: status and reason only, never a message, a cause or a stack. Uses only what Jetty 12.0 and
 * 12.1 share: a Spring Boot 3.5 application runs rag-server on the Jetty 12.0 its dependency management picks.
 */
final class JsonErrors {
    private JsonErrors() {
    }

    private static byte[] body(int status) {
        return ApiException.body(status, "HTTP_" + status, status + " " + HttpStatus.getMessage(status));
    }

    private static boolean writeJson(Response response, Callback callback, int status) {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(body(status)), callback);
        return true;
    }

    /** For the server: also the bodies of requests that are not HTTP. */
    static final class ForServer extends org.eclipse.jetty.server.handler.ErrorHandler {
        ForServer() {
            setShowStacks(false);                 // (no setShowCauses: Jetty 12.0 lacks it, and the body below
            setShowMessageInTitle(false);         // holds no cause anyway)
        }

        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
                String contentType, List<Charset> charsets, int code, String message, Throwable cause) {
            return writeJson(response, callback, code);
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(HttpHeader.CONTENT_TYPE, "application/json");
            return ByteBuffer.wrap(body(status));
        }
    }

    /** For the servlet context. */
    static final class ForContext extends org.eclipse.jetty.ee10.servlet.ErrorHandler {
        ForContext() {
            setShowStacks(false);                 // (no setShowCauses: Jetty 12.0 lacks it, and the body below
            setShowMessageInTitle(false);         // holds no cause anyway)
        }

        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
                String contentType, List<Charset> charsets, int code, String message, Throwable cause) {
            return writeJson(response, callback, code);
        }
    }
}
