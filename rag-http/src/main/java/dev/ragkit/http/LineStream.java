package dev.ragkit.http;

import dev.ragkit.error.RagException;
import dev.ragkit.generation.Cancellable;
import dev.ragkit.generation.ChatResult;
import dev.ragkit.generation.StreamHandler;
import java.io.EOFException;
import java.io.IOException;
import java.net.ProtocolException;
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
 * {@code onComplete}/{@code onError} follows (neither after a cancel). The connection is retried as
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
         * @return the result, or {@code null} (then {@link #endedEarly} is thrown); {@code null} by default
         */
        default @Nullable ChatResult ended(String partial) {
            return null;
        }

        /**
         * @param partial the text that arrived
         * @return the error for a stream that ended without its final line
         */
        RagException endedEarly(String partial);

        /**
         * @param partial the text that arrived
         * @param cause   the transport's report (an unexpected end of the body, a bad chunk)
         * @return the error for a stream whose body broke off
         */
        RagException brokeOff(String partial, IOException cause);
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
        Consumer<String> emit = token -> {
            partial.append(token);
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
                String line;
                while (!cancelled && (line = source.readUtf8Line()) != null) {
                    if (!line.isBlank()) {
                        result = reader.read(line, partial, emit);
                        if (result != null) {
                            break;
                        }
                    }
                }
            }
            if (result == null && !cancelled) {
                result = reader.ended(partial.toString());
                if (result == null) {
                    throw reader.endedEarly(partial.toString());
                }
            }
        } catch (ModelHttp.CancelledException e) {
            return; // cancelled while connecting: stay silent
        } catch (IOException e) {
            if (!cancelled) {
                // the body broke off (OkHttp: "unexpected end of stream", a bad chunk) vs. a timeout or reset
                handler.onError(e instanceof ProtocolException || e instanceof EOFException
                        ? reader.brokeOff(partial.toString(), e) : http.ioError(e));
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
