package dev.ragkit.mcp;

import dev.ragkit.internal.BearerTokens;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How {@link RagMcpServer#http(RagMcpTools, McpHttpSettings)} serves Streamable HTTP: the address, who may call it
 * and how much it keeps open.
 *
 * <ul>
 *   <li><b>DNS rebinding</b>: every request's {@code Host} must name this server ({@code localhost},
 *       {@code 127.0.0.1} or {@code [::1]} with its port, the bound address with its port, or an
 *       {@link Builder#allowHost allowed host}), and a request carrying {@code Origin} must come from
 *       {@code http://localhost:<port>}, {@code http://127.0.0.1:<port>}, {@code http://[::1]:<port>} or an
 *       {@link Builder#allowOrigin allowed origin}; anything else gets 403.</li>
 *   <li><b>Beyond this machine</b>: binding an address other than a loopback one needs
 *       {@link Builder#allowRemote(boolean) allowRemote(true)} and a {@link Builder#bearerToken bearer token};
 *       requests without {@code Authorization: Bearer <token>} then get 401. Only the token's SHA-256 is kept, and
 *       tokens are compared in constant time ({@link MessageDigest#isEqual}); neither is ever printed.</li>
 *   <li><b>Limits</b>: at most {@link Builder#maxSessions} open sessions ({@value #DEFAULT_MAX_SESSIONS} by default;
 *       one more {@code initialize} gets 503), a session unused for {@link Builder#sessionIdleTimeout}
 *       ({@value #DEFAULT_IDLE_MINUTES} minutes by default, not counting time with a request or a stream open) is
 *       closed, and a request body may hold {@link Builder#maxRequestBytes} bytes
 *       ({@value #DEFAULT_MAX_REQUEST_BYTES} by default; more gets 413).</li>
 * </ul>
 * Immutable; {@link #toString()} never shows the token.
 */
public final class McpHttpSettings {
    /** The default cap on open sessions. */
    public static final int DEFAULT_MAX_SESSIONS = 100;
    /** The default idle time after which a session is closed, in minutes. */
    public static final int DEFAULT_IDLE_MINUTES = 10;
    /** The default largest request body, in bytes (4 MiB). */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

    private final String host;
    private final int port;
    private final List<String> allowedOrigins;
    private final List<String> allowedHosts;
    private final boolean remote;
    private final byte @Nullable [] tokenSha256;
    private final int maxSessions;
    private final Duration sessionIdleTimeout;
    private final int maxRequestBytes;

    private McpHttpSettings(Builder b, boolean remote) {
        this.host = Objects.requireNonNull(b.host);
        this.port = b.port;
        this.allowedOrigins = List.copyOf(b.allowedOrigins);
        this.allowedHosts = List.copyOf(b.allowedHosts);
        this.remote = remote;
        this.tokenSha256 = b.tokenSha256 == null ? null : b.tokenSha256.clone();
        this.maxSessions = b.maxSessions;
        this.sessionIdleTimeout = b.sessionIdleTimeout;
        this.maxRequestBytes = b.maxRequestBytes;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @param host a loopback address, e.g. {@code 127.0.0.1}
     * @param port the port, 0 for any free one
     * @return settings with every default, for this machine only
     */
    public static McpHttpSettings loopback(String host, int port) {
        return builder().address(host, port).build();
    }

    /** @return the address to bind */
    public String host() {
        return host;
    }

    /** @return the port to bind, 0 for any free one */
    public int port() {
        return port;
    }

    /** @return the origins allowed besides this server's own loopback origins */
    public List<String> allowedOrigins() {
        return allowedOrigins;
    }

    /** @return the {@code Host} values allowed besides the loopback names and the bound address */
    public List<String> allowedHosts() {
        return allowedHosts;
    }

    /** @return whether the bound address is reachable from other machines (not a loopback address) */
    public boolean remote() {
        return remote;
    }

    /** @return whether requests must carry {@code Authorization: Bearer <token>} */
    public boolean requiresToken() {
        return tokenSha256 != null;
    }

    /** @return the cap on open sessions */
    public int maxSessions() {
        return maxSessions;
    }

    /** @return how long an unused session stays open */
    public Duration sessionIdleTimeout() {
        return sessionIdleTimeout;
    }

    /** @return the largest request body accepted, in bytes */
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    /**
     * @param presented the token a request carries
     * @return whether it is this server's token, compared in constant time over SHA-256 digests
     */
    boolean tokenMatches(String presented) {
        byte[] expected = tokenSha256;
        return expected != null && BearerTokens.matches(presented, expected);
    }

    /** @return the settings without the token */
    @Override
    public String toString() {
        return "McpHttpSettings[" + host + ":" + port + ", remote=" + remote + ", token=" + (requiresToken()
                ? "required" : "none") + ", allowedOrigins=" + allowedOrigins + ", allowedHosts=" + allowedHosts
                + ", maxSessions=" + maxSessions + ", sessionIdleTimeout=" + sessionIdleTimeout + ", maxRequestBytes="
                + maxRequestBytes + "]";
    }

    private static final Pattern DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");

    /** Whether {@code host} is four numbers from 0 to 255 joined by dots (not the shorter forms a resolver takes). */
    private static boolean isIpv4(String host) {
        String[] parts = host.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || Integer.parseInt(part) > 255) {
                return false;
            }
        }
        return true;
    }

    /** Configures {@link McpHttpSettings}. Setters check their value at once; {@link #build()} checks the whole. */
    public static final class Builder {
        private @Nullable String host;
        private int port = -1;
        private final List<String> allowedOrigins = new ArrayList<>();
        private final List<String> allowedHosts = new ArrayList<>();
        private boolean allowRemote;
        private byte @Nullable [] tokenSha256;
        private int maxSessions = DEFAULT_MAX_SESSIONS;
        private Duration sessionIdleTimeout = Duration.ofMinutes(DEFAULT_IDLE_MINUTES);
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

        private Builder() {
        }

        /**
         * @param host the address to bind, e.g. {@code 127.0.0.1}
         * @param port the port, 0 for any free one
         * @return this builder
         * @throws IllegalArgumentException when the host is blank or numbers-and-dots that are not an IPv4 address
         *                                  (such as {@code 256.1.1.1}, which would otherwise be looked up as a name),
         *                                  or the port is out of range
         */
        public Builder address(String host, int port) {
            Objects.requireNonNull(host, "host");
            if (host.isBlank()) {
                throw new IllegalArgumentException("host is blank; give an address such as 127.0.0.1");
            }
            if (DIGITS_AND_DOTS.matcher(host.strip()).matches() && !isIpv4(host.strip())) {
                throw new IllegalArgumentException("'" + host.strip() + "' is not a valid IPv4 address (four numbers "
                        + "from 0 to 255)");
            }
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be 0-65535, got " + port);
            }
            this.host = host.strip();
            this.port = port;
            return this;
        }

        /**
         * @param origin an origin allowed to call from a browser besides the loopback ones, e.g.
         *               {@code https://app.example.com} (scheme, host and optional port; no path)
         * @return this builder
         */
        public Builder allowOrigin(String origin) {
            Objects.requireNonNull(origin, "origin");
            URI uri;
            try {
                uri = new URI(origin.strip());
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("origin '" + origin + "' is not a URL; give scheme://host[:port], "
                        + "e.g. https://app.example.com");
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null
                    || !(uri.getRawPath() == null || uri.getRawPath().isEmpty()) || uri.getRawQuery() != null) {
                throw new IllegalArgumentException("origin '" + origin + "' must be scheme://host[:port] with http "
                        + "or https and no path, e.g. https://app.example.com");
            }
            allowedOrigins.add(origin.strip());
            return this;
        }

        /**
         * @param hostAndPort a {@code Host} header value clients use to reach this server besides the loopback names
         *                    and the bound address, e.g. {@code mcp.internal.example:8808}
         * @return this builder
         */
        public Builder allowHost(String hostAndPort) {
            Objects.requireNonNull(hostAndPort, "hostAndPort");
            String value = hostAndPort.strip();
            if (value.isEmpty() || value.contains("/") || value.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("host '" + hostAndPort + "' must be host[:port], e.g. "
                        + "mcp.internal.example:8808");
            }
            allowedHosts.add(value.toLowerCase(Locale.ROOT));
            return this;
        }

        /**
         * @param allow whether binding an address other machines can reach is intended (required for such an
         *              address, together with {@link #bearerToken})
         * @return this builder
         */
        public Builder allowRemote(boolean allow) {
            this.allowRemote = allow;
            return this;
        }

        /**
         * @param token the secret clients send as {@code Authorization: Bearer <token>}, at least 16 characters
         *              (e.g. from {@code openssl rand -hex 32}); only its SHA-256 is kept
         * @return this builder
         */
        public Builder bearerToken(String token) {
            this.tokenSha256 = BearerTokens.digest(BearerTokens.checked(token));
            return this;
        }

        /** @param sessions the cap on open sessions, at least 1 @return this builder */
        public Builder maxSessions(int sessions) {
            if (sessions < 1) {
                throw new IllegalArgumentException("maxSessions must be at least 1, got " + sessions);
            }
            this.maxSessions = sessions;
            return this;
        }

        /** @param timeout how long an unused session stays open, at least one second @return this builder */
        public Builder sessionIdleTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("sessionIdleTimeout must be at least 1 second, got " + timeout);
            }
            this.sessionIdleTimeout = timeout;
            return this;
        }

        /** @param bytes the largest request body, at least 1,024 @return this builder */
        public Builder maxRequestBytes(int bytes) {
            if (bytes < 1_024) {
                throw new IllegalArgumentException("maxRequestBytes must be at least 1024, got " + bytes);
            }
            this.maxRequestBytes = bytes;
            return this;
        }

        /**
         * @return the settings
         * @throws IllegalStateException when the address is missing or cannot be resolved, or names a non-loopback
         *                               address without both {@code allowRemote(true)} and a bearer token
         */
        public McpHttpSettings build() {
            if (host == null) {
                throw new IllegalStateException("address(host, port) is required, e.g. address(\"127.0.0.1\", 8808)");
            }
            boolean remote;
            try {
                remote = !InetAddress.getByName(host).isLoopbackAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException("'" + host + "' is not a valid address: it is not an IP address, and "
                        + "no host has that name; give an IP address such as 127.0.0.1, or a name such as localhost");
            }
            if (remote && (!allowRemote || tokenSha256 == null)) {
                throw new IllegalStateException("binding " + host + " makes the MCP server reachable from other "
                        + "machines; confirm it with allowRemote(true) and require a token with bearerToken(...)"
                        + (allowRemote ? " (the token is missing)" : "") + ", or bind 127.0.0.1");
            }
            return new McpHttpSettings(this, remote);
        }
    }
}
