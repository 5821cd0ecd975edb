package dev.ragkit.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP connection one tool call is answered on, as far as the call needs to know it: whether the client is still
 * there. The HTTP guard probes the connection while the call runs and reports a client that went away; the tool
 * then cancels its work (a model call, above all). Reaches the tool through the SDK's transport context. Thread-safe.
 */
final class ClientConnection {
    /** The request attribute and transport-context key. */
    static final String KEY = "dev.ragkit.mcp.clientConnection";

    private final List<Runnable> onDisconnect = new ArrayList<>();
    private boolean disconnected;
    private boolean done;

    /** @return the connection of the call this context belongs to, or {@code null} (stdio, or no probe) */
    static @Nullable ClientConnection of(@Nullable McpTransportContext context) {
        Object value = context == null ? null : context.get(KEY);
        return value instanceof ClientConnection ? (ClientConnection) value : null;
    }

    /**
     * Runs {@code action} once when the client disconnects (at once when it already has).
     *
     * @param action what stops the call's work
     */
    void onDisconnect(Runnable action) {
        boolean now;
        synchronized (this) {
            now = disconnected;
            if (!now) {
                onDisconnect.add(action);
            }
        }
        if (now) {
            action.run();
        }
    }

    /** @return whether the client went away before the answer was sent */
    synchronized boolean isDisconnected() {
        return disconnected;
    }

    /** Reports the client gone; runs the registered actions, unless the call already ended. */
    void disconnected() {
        List<Runnable> actions;
        synchronized (this) {
            if (disconnected || done) {
                return;
            }
            disconnected = true;
            actions = List.copyOf(onDisconnect);
            onDisconnect.clear();
        }
        actions.forEach(Runnable::run);
    }

    /** Reports the answer sent (or the exchange over): later probes mean nothing. */
    synchronized void done() {
        done = true;
        onDisconnect.clear();
    }

    /** @return whether the exchange is over */
    synchronized boolean isDone() {
        return done;
    }
}
