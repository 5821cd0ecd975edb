package dev.ragkit.internal;

import java.net.BindException;
import java.util.Locale;

/**
 * Why a server could not listen on an address, in one fact and its fix: the port is taken, the port needs
 * privileges, or the address is not one of this machine's. The operating system's words ({@link BindException}'s
 * message, on Linux, macOS and Windows) tell them apart; anything else is named with the server library's message.
 */
public final class BindFailures {
    private BindFailures() {
    }

    /**
     * @param what  what could not be served, e.g. {@code MCP} ("cannot serve MCP on …")
     * @param host  the address
     * @param port  the port
     * @param error what starting the server threw
     * @return the message
     */
    public static String message(String what, String host, int port, Throwable error) {
        String shown = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        String prefix = "cannot serve " + what + " on " + shown;
        Throwable root = error;
        for (Throwable e = error; e != null; e = e.getCause()) {
            root = e;
            if (!(e instanceof BindException)) {
                continue;
            }
            String os = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
            if (os.contains("in use")) {
                return prefix + ": port " + port + " is in use by another program; choose another port (0 picks a "
                        + "free one)";
            }
            if (os.contains("permission denied") || os.contains("access permissions")) {
                return prefix + ": this user may not open port " + port + " (ports below 1024 need administrator "
                        + "rights); choose a port from 1024 up, e.g. 8808";
            }
            if (os.contains("assign requested address") || os.contains("not valid in its context")) {
                return prefix + ": " + host + " is not an address of this machine; give one of its own, e.g. "
                        + "127.0.0.1";
            }
        }
        return prefix + " (" + (root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName())
                + ")";
    }
}
