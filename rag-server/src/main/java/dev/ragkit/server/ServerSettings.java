package dev.ragkit.server;

import dev.ragkit.internal.BearerTokens;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link RagServer} listens, who may call it and how much it takes.
 *
 * <ul>
 *   <li><b>Scope</b>: with {@link Builder#tokensFile tokens} every request must carry
 *       {@code Authorization: Bearer <token>}, and the token fixes the tenant and access tags it reads (401
 *       otherwise). Only each token's SHA-256 is kept; a presented token is compared with every entry in constant
 *       time, and tokens are never logged or shown. Without tokens the server serves the one
 *       {@link Builder#scope scope} given, and only on a loopback address.</li>
 *   <li><b>DNS rebinding</b>: {@code Host} and {@code Origin} are checked as for the MCP server
 *       ({@link dev.ragkit.internal.HostOriginCheck}); the server's own page may call it (same origin).</li>
 *   <li><b>Limits</b>: a request body holds at most {@link Builder#maxRequestBytes} bytes (413), must arrive within
 *       {@link Builder#idleTimeout} (408), at most {@link Builder#maxConcurrentRequests} API requests run at once
 *       (429 with {@code Retry-After}), and an answer that takes longer than {@link Builder#requestTimeout} is
 *       cancelled (504).</li>
 * </ul>
 * Immutable; {@link #toString()} never shows a token.
 */
public final class ServerSettings {
    /** The default largest request body, in bytes (1 MiB). */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
    /** The default cap on API requests running at once. */
    public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 16;
    /** The default longest answer time, in seconds. */
    public static final int DEFAULT_REQUEST_TIMEOUT_SECONDS = 120;
    /** The default time a connection may stall (a slow client), in seconds. */
    public static final int DEFAULT_IDLE_TIMEOUT_SECONDS = 30;
    /** The default longest question, in characters. */
    public static final int DEFAULT_MAX_QUESTION_CHARS = 4_000;

    /** One tokens-file entry: the token's digest and what it grants. */
    private record Entry(byte[] digest, Grant grant) {
    }

    private final String host;
    private final int port;
    private final List<Entry> tokens;
    private final @Nullable Grant scope;
    private final List<String> allowedOrigins;
    private final List<String> allowedHosts;
    private final int maxRequestBytes;
    private final int maxConcurrentRequests;
    private final Duration requestTimeout;
    private final Duration idleTimeout;
    private final int maxQuestionChars;

    private ServerSettings(Builder b) {
        this.host = Objects.requireNonNull(b.host);
        this.port = b.port;
        this.tokens = List.copyOf(b.tokens);
        this.scope = b.scope;
        this.allowedOrigins = List.copyOf(b.allowedOrigins);
        this.allowedHosts = List.copyOf(b.allowedHosts);
        this.maxRequestBytes = b.maxRequestBytes;
        this.maxConcurrentRequests = b.maxConcurrentRequests;
        this.requestTimeout = b.requestTimeout;
        this.idleTimeout = b.idleTimeout;
        this.maxQuestionChars = b.maxQuestionChars;
    }

    /** @return a builder */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the address to bind */
    public String host() {
        return host;
    }

    /** @return the port, 0 for any free one */
    public int port() {
        return port;
    }

    /** @return whether requests must carry a bearer token */
    public boolean requiresToken() {
        return !tokens.isEmpty();
    }

    /**
     * @param presented the token a request carries, or {@code null}
     * @return what it grants, or {@code null} when it is no token of this server; without tokens, the one scope
     */
    @Nullable Grant grant(@Nullable String presented) {
        if (tokens.isEmpty()) {
            return scope;
        }
        if (presented == null) {
            return null;
        }
        Grant found = null;
        for (Entry e : tokens) {            // every entry is compared: the time does not tell which one matched
            if (BearerTokens.matches(presented, e.digest()) && found == null) {
                found = e.grant();
            }
        }
        return found;
    }

    /** @return the origins allowed besides the server's own */
    public List<String> allowedOrigins() {
        return allowedOrigins;
    }

    /** @return the {@code Host} values allowed besides the server's own */
    public List<String> allowedHosts() {
        return allowedHosts;
    }

    /** @return the largest request body, in bytes */
    public int maxRequestBytes() {
        return maxRequestBytes;
    }

    /** @return the cap on API requests running at once */
    public int maxConcurrentRequests() {
        return maxConcurrentRequests;
    }

    /** @return the longest time an answer may take */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** @return how long a connection may stall before it is closed (and a body not yet read gets 408) */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** @return the longest question or query, in characters */
    public int maxQuestionChars() {
        return maxQuestionChars;
    }

    @Override
    public String toString() {
        return "ServerSettings[" + host + ":" + port + ", " + (tokens.isEmpty() ? "scope=" + scope
                : tokens.size() + " token(s)") + ", maxRequestBytes=" + maxRequestBytes + ", maxConcurrentRequests="
                + maxConcurrentRequests + ", requestTimeout=" + requestTimeout + ", idleTimeout=" + idleTimeout + "]";
    }

    /** Configures {@link ServerSettings}. Setters check their value at once; {@link #build()} checks the whole. */
    public static final class Builder {
        private @Nullable String host;
        private int port = -1;
        private final List<Entry> tokens = new ArrayList<>();
        private @Nullable Grant scope;
        private final List<String> allowedOrigins = new ArrayList<>();
        private final List<String> allowedHosts = new ArrayList<>();
        private int maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private int maxConcurrentRequests = DEFAULT_MAX_CONCURRENT_REQUESTS;
        private Duration requestTimeout = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);
        private Duration idleTimeout = Duration.ofSeconds(DEFAULT_IDLE_TIMEOUT_SECONDS);
        private int maxQuestionChars = DEFAULT_MAX_QUESTION_CHARS;

        private Builder() {
        }

        /**
         * @param host the address to bind, e.g. {@code 127.0.0.1}
         * @param port the port, 0 for any free one
         * @return this builder
         */
        public Builder address(String host, int port) {
            Objects.requireNonNull(host, "host");
            if (host.isBlank()) {
                throw new IllegalArgumentException("host is blank; give an address such as 127.0.0.1");
            }
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port must be 0-65535, got " + port);
            }
            this.host = host.strip();
            this.port = port;
            return this;
        }

        /**
         * Grants a token a tenant and tags.
         *
         * @param token  the secret clients send, at least 16 characters without spaces (only its SHA-256 is kept)
         * @param tenant the tenant it reads
         * @param tags   the access tags it holds
         * @return this builder
         */
        public Builder token(String token, String tenant, Collection<String> tags) {
            byte[] digest = BearerTokens.digest(BearerTokens.checked(token));
            for (Entry e : tokens) {
                if (Arrays.equals(e.digest(), digest)) {
                    throw new IllegalArgumentException("the same token is granted twice; give each token one "
                            + "tenant and one set of tags");
                }
            }
            tokens.add(new Entry(digest, Grant.of(tenant, tags)));
            return this;
        }

        /**
         * Reads a tokens file: one grant per line, {@code <token> <tenant> [tag,tag,...]}, separated by spaces or
         * tabs; blank lines and lines starting with {@code #} are skipped. Example:
         * <pre>
         * # token                                                            tenant  tags
         * 9f2c4e0b7a1d3f5e8c6b2a4d0e9f1c3b5a7d9e1f3c5b7a9d0e2f4c6b8a0d2e4f   acme    eng,ops
         * </pre>
         *
         * @param file the file
         * @return this builder
         * @throws IllegalArgumentException naming the file and the line (never the token) when a line is malformed
         */
        public Builder tokensFile(Path file) {
            Objects.requireNonNull(file, "file");
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("cannot read the tokens file " + file + " ("
                        + e.getClass().getSimpleName() + "); give a readable UTF-8 file with lines "
                        + "'<token> <tenant> [tag,tag]'");
            }
            int before = tokens.size();
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\\s+");
                if (parts.length < 2 || parts.length > 3) {
                    throw new IllegalArgumentException("tokens file " + file + ", line " + (i + 1) + ": expected "
                            + "'<token> <tenant> [tag,tag]', got " + parts.length + " fields");
                }
                List<String> tags = parts.length == 3 ? Arrays.stream(parts[2].split(",")).map(String::strip)
                        .filter(t -> !t.isEmpty()).toList() : List.of();
                try {
                    token(parts[0], parts[1], tags);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("tokens file " + file + ", line " + (i + 1) + ": "
                            + e.getMessage());
                }
            }
            if (tokens.size() == before) {
                throw new IllegalArgumentException("the tokens file " + file + " grants no token; add lines "
                        + "'<token> <tenant> [tag,tag]' (make a token with: openssl rand -hex 32)");
            }
            return this;
        }

        /**
         * @param tenant the one tenant served when there are no tokens
         * @param tags   the access tags its callers hold
         * @return this builder
         */
        public Builder scope(String tenant, Collection<String> tags) {
            this.scope = Grant.of(tenant, tags);
            return this;
        }

        /** @param origin a browser origin allowed besides the server's own, e.g. https://app.example.com @return this builder */
        public Builder allowOrigin(String origin) {
            Objects.requireNonNull(origin, "origin");
            if (!origin.strip().matches("https?://[^/\\s?#]+")) {
                throw new IllegalArgumentException("origin '" + origin + "' must be scheme://host[:port] with http "
                        + "or https and no path, e.g. https://app.example.com");
            }
            allowedOrigins.add(origin.strip());
            return this;
        }

        /** @param hostAndPort a Host value clients use besides the loopback names, e.g. rag.example:8080 @return this builder */
        public Builder allowHost(String hostAndPort) {
            Objects.requireNonNull(hostAndPort, "hostAndPort");
            String value = hostAndPort.strip();
            if (value.isEmpty() || value.contains("/") || value.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("host '" + hostAndPort + "' must be host[:port], e.g. "
                        + "rag.example:8080");
            }
            allowedHosts.add(value);
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

        /** @param requests the cap on API requests running at once, at least 1 @return this builder */
        public Builder maxConcurrentRequests(int requests) {
            if (requests < 1) {
                throw new IllegalArgumentException("maxConcurrentRequests must be at least 1, got " + requests);
            }
            this.maxConcurrentRequests = requests;
            return this;
        }

        /** @param timeout the longest time an answer may take, at least 1 s @return this builder */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = atLeastOneSecond(timeout, "requestTimeout");
            return this;
        }

        /** @param timeout how long a connection may stall, at least 1 s @return this builder */
        public Builder idleTimeout(Duration timeout) {
            this.idleTimeout = atLeastOneSecond(timeout, "idleTimeout");
            return this;
        }

        /** @param chars the longest question or query, at least 1 @return this builder */
        public Builder maxQuestionChars(int chars) {
            if (chars < 1) {
                throw new IllegalArgumentException("maxQuestionChars must be at least 1, got " + chars);
            }
            this.maxQuestionChars = chars;
            return this;
        }

        private static Duration atLeastOneSecond(Duration d, String name) {
            Objects.requireNonNull(d, name);
            if (d.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException(name + " must be at least 1 second, got " + d);
            }
            return d;
        }

        /**
         * @return the settings
         * @throws IllegalStateException when the address is missing or unresolvable, when neither tokens nor a scope
         *                               are given or both are, or when a non-loopback address has no tokens
         */
        public ServerSettings build() {
            if (host == null) {
                throw new IllegalStateException("address(host, port) is required, e.g. address(\"127.0.0.1\", 8080)");
            }
            if (tokens.isEmpty() == (scope == null)) {
                throw new IllegalStateException(tokens.isEmpty()
                        ? "give either scope(tenant, tags) (one tenant, loopback only) or a tokens file"
                        : "scope(tenant, tags) and tokens clash: with tokens, each token fixes its own scope");
            }
            boolean loopback;
            try {
                loopback = InetAddress.getByName(host).isLoopbackAddress();
            } catch (UnknownHostException e) {
                throw new IllegalStateException("'" + host + "' is not a valid address; give an IP address such as "
                        + "127.0.0.1, or a name such as localhost");
            }
            if (!loopback && tokens.isEmpty()) {
                throw new IllegalStateException("binding " + host + " makes the server reachable from other machines;"
                        + " without a tokens file it serves loopback only: bind 127.0.0.1 or give a tokens file");
            }
            return new ServerSettings(this);
        }
    }
}
