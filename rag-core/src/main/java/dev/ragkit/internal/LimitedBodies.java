package dev.ragkit.internal;

import java.io.IOException;
import java.io.InputStream;

/**
 * What RagKit's HTTP servers do with a request body over their size limit before they answer 413. A server that
 * refuses without reading and closes the connection lets the bytes the client is still sending arrive at a closed
 * socket; the kernel then resets the connection, and a reset can discard the 413 on the client's side before it is
 * read. So a body up to {@link #SWALLOW_BYTES} past the limit is read and dropped first (Tomcat does the same, its
 * {@code maxSwallowSize} being 2 MB by default); a body announced larger is refused at once, without reading it.
 */
public final class OversizedBodies {
    /** How far past the limit a body is still read and dropped before the refusal: 2 MiB. */
    public static final long SWALLOW_BYTES = 2L * 1024 * 1024;

    private OversizedBodies() {
    }

    /**
     * @param announced the request's {@code Content-Length}, or -1 when it has none
     * @param max       the server's limit
     * @return whether a body of that length is read to its end before the refusal
     */
    public static boolean readBeforeRefusal(long announced, long max) {
        return announced <= max + SWALLOW_BYTES;
    }

    /**
     * Reads and drops up to {@code limit} more bytes, until the body ends, the deadline passes or the client stops
     * sending (a read fails); never throws.
     *
     * @param in            the request body
     * @param limit         the most bytes to read
     * @param deadlineNanos a {@link System#nanoTime()} after which reading stops
     */
    public static void drop(InputStream in, long limit, long deadlineNanos) {
        byte[] buffer = new byte[8192];
        try {
            for (long left = limit; left > 0 && System.nanoTime() < deadlineNanos; ) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    return;
                }
                left -= n;
            }
        } catch (IOException e) {
            // the client stopped sending: the refusal goes out (or not) all the same
        }
    }
}
