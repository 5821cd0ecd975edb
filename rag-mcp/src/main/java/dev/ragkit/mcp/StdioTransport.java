package dev.ragkit.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP over a pair of streams, one JSON-RPC message per line (the stdio transport), for the one client that started
 * the process. Unlike the SDK's {@code StdioServerTransportProvider}, which stops reading for good at the first
 * line it cannot parse and keeps the process alive after its input ends:
 * <ul>
 *   <li>a line that is not a JSON-RPC message gets a JSON-RPC error (see {@link JsonRpcInput}) and the next line is
 *       read as usual;</li>
 *   <li>when the input ends, the calls already received are answered, and then {@link #finished()} completes (the
 *       server then stops and the process exits); calls still running {@link #DRAIN_LIMIT} after the end of input
 *       are abandoned.</li>
 * </ul>
 * One reader thread (a daemon); answers are written whole, one line each, under one lock.
 */
final class StdioTransport implements McpServerTransportProvider {
    /** How long calls received before the end of input may still run. */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);
    /** The longest line read, in characters; a longer one is refused and skipped. */
    static final int MAX_LINE_CHARS = 8 * 1024 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

    private final McpJsonMapper mapper;
    private final InputStream in;
    private final OutputStream out;
    private final Object writeLock = new Object();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    private volatile boolean inputEnded;
    private volatile @Nullable McpServerSession session;

    StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out) {
        this.mapper = mapper;
        this.in = in;
        this.out = out;
    }

    /** @return completes when the input has ended and every call received was answered (or the server closed) */
    CompletableFuture<Void> finished() {
        return finished;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        session = factory.create(new LineSession());
        Thread reader = new Thread(this::readLoop, "ragkit-mcp-stdin");
        reader.setDaemon(true);
        reader.start();
    }

    private void readLoop() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            StringBuilder line = new StringBuilder();
            for (Line l; (l = readLine(reader, line)) != Line.END; ) {
                if (l == Line.TOO_LONG) {
                    writeLine(JsonRpcInput.error(null, JsonRpcInput.INVALID_REQUEST, "Invalid Request: the message "
                            + "has more than " + MAX_LINE_CHARS + " characters").toString());
                } else if (!line.toString().isBlank()) {
                    handle(line.toString());
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("stdin ended: {}", e.toString());
        } finally {
            inputEnded = true;
            finishWhenIdle();
            CompletableFuture.delayedExecutor(DRAIN_LIMIT.toMillis(), TimeUnit.MILLISECONDS)
                    .execute(() -> finished.complete(null));
        }
    }

    private void handle(String text) {
        JsonRpcInput.Read read = JsonRpcInput.read(mapper, text);
        McpServerSession current = session;
        if (read.error() != null) {
            writeLine(read.error().toString());
            return;
        }
        if (read.message() == null || current == null) {
            return;
        }
        inFlight.incrementAndGet();
        current.handle(read.message()).doFinally(signal -> {
            inFlight.decrementAndGet();
            finishWhenIdle();
        }).subscribe(ignored -> { }, e -> LOG.warn("an MCP message could not be handled: {}", e.toString()));
    }

    private void finishWhenIdle() {
        if (inputEnded && inFlight.get() == 0) {
            finished.complete(null);
        }
    }

    private enum Line { READ, TOO_LONG, END }

    /** Reads one line into {@code into} (without its end), at most {@link #MAX_LINE_CHARS} kept. */
    private static Line readLine(BufferedReader reader, StringBuilder into) throws IOException {
        into.setLength(0);
        boolean tooLong = false;
        int c;
        while ((c = reader.read()) != -1) {
            if (c == '\n') {
                return tooLong ? Line.TOO_LONG : Line.READ;
            }
            if (c == '\r') {
                reader.mark(1);
                if (reader.read() != '\n') {
                    reader.reset();
                }
                return tooLong ? Line.TOO_LONG : Line.READ;
            }
            if (into.length() >= MAX_LINE_CHARS) {
                tooLong = true;
            } else {
                into.append((char) c);
            }
        }
        if (tooLong) {
            return Line.TOO_LONG;
        }
        return into.length() == 0 ? Line.END : Line.READ;
    }

    private void writeLine(String json) {
        byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (writeLock) {
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                LOG.debug("the client no longer reads the answers: {}", e.toString());
            }
        }
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        return current == null ? Mono.empty() : current.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession current = session;
        return (current == null ? Mono.<Void>empty() : current.closeGracefully())
                .doFinally(signal -> finished.complete(null));
    }

    /** The one session's side of the streams. */
    private final class LineSession implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> {
                try {
                    writeLine(mapper.writeValueAsString(message));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }
    }
}
