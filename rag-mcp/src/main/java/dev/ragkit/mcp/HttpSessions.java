package dev.ragkit.mcp;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The open MCP sessions of one HTTP server, by {@code Mcp-Session-Id}: the cap on how many may be open and the idle
 * expiry. A session is idle while it has no request or stream open; one idle longer than the timeout is forgotten
 * here, so its id gets 404 (the client then initializes anew), and the SDK's own sweep (run at the same interval)
 * releases it. Expiry is checked whenever a session is opened or used. Thread-safe (one lock; at most
 * {@code max} entries).
 */
final class HttpSessions {
    private final int max;
    private final long idleNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Entry> open = new HashMap<>();
    private int reserved;

    private static final class Entry {
        long lastUsed;
        int active;

        Entry(long now) {
            this.lastUsed = now;
        }
    }

    HttpSessions(int max, Duration idleTimeout, LongSupplier nanoTime) {
        this.max = max;
        this.idleNanos = idleTimeout.toNanos();
        this.nanoTime = nanoTime;
    }

    /** @return whether a new session may start; if so, a slot is held until {@link #opened} */
    synchronized boolean reserve() {
        expire();
        if (open.size() + reserved >= max) {
            return false;
        }
        reserved++;
        return true;
    }

    /** @param id the new session's id, or {@code null} when none was opened; releases the reserved slot */
    synchronized void opened(@Nullable String id) {
        reserved--;
        if (id != null) {
            open.put(id, new Entry(nanoTime.getAsLong()));
        }
    }

    /** @return whether the session is open; if so, it counts as in use until {@link #end} */
    synchronized boolean begin(String id) {
        expire();
        Entry e = open.get(id);
        if (e == null) {
            return false;
        }
        e.active++;
        e.lastUsed = nanoTime.getAsLong();
        return true;
    }

    /** Ends one use of the session begun with {@link #begin}. */
    synchronized void end(String id) {
        Entry e = open.get(id);
        if (e != null) {
            e.active = Math.max(0, e.active - 1);
            e.lastUsed = nanoTime.getAsLong();
        }
    }

    /** Forgets a session the client deleted, or the SDK no longer knows. */
    synchronized void closed(String id) {
        open.remove(id);
    }

    /** @return how many sessions are open */
    synchronized int size() {
        expire();
        return open.size();
    }

    private void expire() {
        long now = nanoTime.getAsLong();
        open.values().removeIf(e -> e.active == 0 && now - e.lastUsed > idleNanos);
    }
}
