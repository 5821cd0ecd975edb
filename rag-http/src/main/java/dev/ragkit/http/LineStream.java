package dev.ragkit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.ragkit.error.RagException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.StreamHandler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import okhttp3.Call;
import okhttp3.Request;
import okhttp3.Response;
import okio.BufferedSource;
import org.jspecify.annotations.Nullable;

/**
 * One streamed chat answer read line by line — Ollama's NDJSON, the OpenAI protocol's server-sent events — on
 * the thread that runs it: tokens reach the handler as their lines arrive, and exactly one of
 * {@code onComplete}/{@code onError} follows (neither after a cancel). A body that stops before the protocol's last
 * line — the server closed the connection, a chunk broke off, the last line is cut in half — is one error,
 * {@link ModelHttp#streamCut}, whatever the transport reported. The connection is retried as
 * {@link ModelHttp} retries, but never once a byte of the answer was read. What a line means is the
 * {@link Reader}'s business, so each protocol writes only that.
 *
 * <p>For RagKit's own backends; not an API for applications.
 */
public final class LineStream implements Runnable, Cancellable, ModelHttp.Cancelled {

    /** What the lines of one protocol mean. */
    public interface Reader {
        /**
         * Reads one non-blank line.
         *
         * @param line    the line
         * @param partial the answer text so far (do not change it; {@code emit} appends)
         * @param emit    delivers one token of the answer
         * @return the result when this line ends the answer, else {@code null}
         * @throws RagException when the line is an error or not the protocol
         */
        @Nullable ChatResult read(String line, CharSequence partial, Consumer<String> emit);

        /**
         * The body ended without the final line: a result when what arrived is a whole answer all the same.
         *
         * @param partial the text that arrived
         * @return the result, or {@code null} (then the stream counts as cut: {@link ModelHttp#streamCut});
         *         {@code null} by default
         */
        default @Nullable ChatResult ended(String partial) {
            return null;
        }
    }

    private final ModelHttp http;
    private final Request request;
    private final String model;
    private final StreamHandler handler;
    private final Reader reader;
    private final Function<Supplier<Response>, Response> around;
    private volatile boolean cancelled;
    private volatile @Nullable Call current;

    /**
     * @param http    the server
     * @param request the streaming request
     * @param model   the model it names (for errors)
     * @param handler receives the tokens and the end
     * @param reader  reads the protocol's lines
     * @param around  wraps opening the stream, e.g. to pull a missing model and try again; {@code Supplier::get}
     *                for nothing
     */
    public LineStream(ModelHttp http, Request request, String model, StreamHandler handler, Reader reader,
            Function<Supplier<Response>, Response> around) {
        this.http = Objects.requireNonNull(http, "http");
        this.request = Objects.requireNonNull(request, "request");
        this.model = Objects.requireNonNull(model, "model");
        this.handler = Objects.requireNonNull(handler, "handler");
        this.reader = Objects.requireNonNull(reader, "reader");
        this.around = Objects.requireNonNull(around, "around");
    }

    @Override
    public void run() {
        if (cancelled) {
            return;
        }
        StringBuilder partial = new StringBuilder();
        int[] tokens = {0};
        Consumer<String> emit = token -> {
            partial.append(token);
            tokens[0]++;
            handler.onToken(token);
        };
        @Nullable ChatResult result = null;
        try {
            Response response = around.apply(() -> http.open(request, model, this, call -> {
                current = call;
                if (cancelled) { // cancel() ran before it could see this call
                    call.cancel();
                }
            }));
            try (response) {
                BufferedSource source = Objects.requireNonNull(response.body()).source();
                while (!cancelled && result == null && !source.exhausted()) {
                    // a last line without its newline is where the body broke off
                    boolean cutLine = source.indexOf((byte) '\n') < 0;
                    String line = Objects.requireNonNull(source.readUtf8Line());
                    if (!line.isBlank()) {
                        result = read(line, partial, emit, cutLine, tokens[0]);
                    }
                }
            }
            if (result == null && !cancelled) {
                result = reader.ended(partial.toString());
                if (result == null) {
                    throw http.streamCut(partial.toString(), tokens[0], null);
                }
            }
        } catch (ModelHttp.CancelledException e) {
            return; // cancelled while connecting: stay silent
        } catch (IOException e) {
            if (!cancelled) {
                // the body broke off (OkHttp: "unexpected end of stream", a bad chunk, a reset) vs. a time limit
                handler.onError(e instanceof InterruptedIOException ? http.ioError(e)
                        : http.streamCut(partial.toString(), tokens[0], e));
            }
            return;
        } catch (RuntimeException e) {
            if (!cancelled) {
                handler.onError(e);
            }
            return;
        }
        if (result != null) {
            // outside the try: an exception thrown by the handler's onComplete is not a second, onError, ending
            handler.onComplete(result);
        }
    }

    /** Reads one line; a cut last line that is not JSON is a cut stream, not a server that speaks another format. */
    private @Nullable ChatResult read(String line, StringBuilder partial, Consumer<String> emit, boolean cutLine,
            int tokens) {
        try {
            return reader.read(line, partial, emit);
        } catch (RagException e) {
            if (cutLine && e.getCause() instanceof JsonProcessingException) {
                throw http.streamCut(partial.toString(), tokens, e.getCause());
            }
            throw e;
        }
    }

    @Override
    public void cancel() {
        cancelled = true;
        Call c = current;
        if (c != null) {
            c.cancel();
        }
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }
}
