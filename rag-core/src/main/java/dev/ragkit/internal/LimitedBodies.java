package dev.ragkit.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import org.jspecify.annotations.Nullable;

/**
 * How RagKit's HTTP servers read a request body under their size limit. A body over the limit is refused (413),
 * but not before reading it to its end when it is at most {@link #SWALLOW_BYTES} over: a server that refuses without
 * reading and closes the connection lets the bytes the client is still sending arrive at a closed socket, the kernel
 * then resets the connection, and a reset can discard the 413 on the client's side before it is read (Tomcat reads
 * such bodies for the same reason, its {@code maxSwallowSize} being 2 MB by default). A body announced larger is
 * refused without reading any of it.
 */
public final class LimitedBodies {
    /** How far past the limit a body is still read, and dropped, before the refusal: 2 MiB. */
    public static final long SWALLOW_BYTES = 2L * 1024 * 1024;
    /** A deadline for a read that only the server's own idle timeout bounds. */
    public static final long NO_DEADLINE = Long.MAX_VALUE;

    private LimitedBodies() {
    }

    /**
     * @param in            the request body
     * @param announced     its {@code Content-Length}, or -1 when it has none
     * @param max           the most bytes the server takes
     * @param deadlineNanos a {@link System#nanoTime()} by which the body must have arrived, or {@link #NO_DEADLINE}
     * @return the body, or {@code null} when it is over {@code max} (its rest read and dropped as above)
     * @throws InterruptedIOException when the deadline passes before the body ends
     * @throws IOException            when reading fails (the client went away, the server's idle timeout)
     */
    public static byte @Nullable [] read(InputStream in, long announced, int max, long deadlineNanos)
            throws IOException {
        if (announced > max) {
            if (announced <= max + SWALLOW_BYTES) {
                drop(in, announced, deadlineNanos);
            }
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) != -1; ) {
            if (out.size() + n > max) {
                drop(in, max + SWALLOW_BYTES - out.size() - n, deadlineNanos);
                return null;
            }
            out.write(buffer, 0, n);
            if (System.nanoTime() > deadlineNanos) {
                throw new InterruptedIOException("the request body did not arrive in time");
            }
        }
        return out.toByteArray();
    }

    /** Reads and drops up to {@code limit} bytes, until the body ends, the deadline passes or a read fails. */
    private static void drop(InputStream in, long limit, long deadlineNanos) {
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
