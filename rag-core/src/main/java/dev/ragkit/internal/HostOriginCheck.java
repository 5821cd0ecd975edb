package dev.ragkit.internal;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.LinkedHashSet;
import org.jspecify.annotations.Nullable;

/**
 * The check against DNS rebinding that every RagKit HTTP server makes before anything else: a request's
 * {@code Host} must name this server ({@code localhost}, {@code 127.0.0.1} or {@code [::1]} with its port, the bound
 * address with its port, or an allowed host), and a request carrying {@code Origin} must come from
 * {@code http://localhost:<port>}, {@code http://127.0.0.1:<port>}, {@code http://[::1]:<port>}, the bound address's
 * origin, or an allowed origin. Port 80 also allows the names without a port. Hosts are compared without letter case.
 * Immutable and thread-safe.
 */
public final class HostOriginCheck {
    private final Set<String> hosts;
    private final Set<String> origins;
    private final boolean sameOrigin;

    private HostOriginCheck(Set<String> hosts, Set<String> origins, boolean sameOrigin) {
        this.hosts = hosts;
        this.origins = origins;
        this.sameOrigin = sameOrigin;
    }

    /** Which header a request failed on. */
    public enum Header {
        /** the {@code Host} header: missing, or not a name of this server */
        HOST,
        /** the {@code Origin} header: a browser page from another site */
        ORIGIN
    }

    /**
     * Why a request was refused.
     *
     * @param header the header at fault
     * @param value  its value, or {@code null} when it was missing
     */
    public record Refusal(Header header, @Nullable String value) {
    }

    /**
     * @param boundHost      the address the server is bound to
     * @param port           the port it listens on
     * @param allowedOrigins origins allowed besides the server's own ({@code scheme://host[:port]})
     * @param allowedHosts   {@code Host} values allowed besides the server's own ({@code host[:port]})
     * @return the check
     */
    public static HostOriginCheck of(String boundHost, int port, Collection<String> allowedOrigins,
            Collection<String> allowedHosts) {
        Objects.requireNonNull(boundHost, "boundHost");
        Set<String> hosts = new LinkedHashSet<>();
        Set<String> origins = new LinkedHashSet<>();
        String bound = boundHost.contains(":") && !boundHost.startsWith("[") ? "[" + boundHost + "]" : boundHost;
        for (String name : List.of("localhost", "127.0.0.1", "[::1]")) {
            hosts.add(name + ":" + port);
            origins.add("http://" + name + ":" + port);
            if (port == 80) {
                hosts.add(name);
                origins.add("http://" + name);
            }
        }
        hosts.add(bound.toLowerCase(Locale.ROOT) + ":" + port);
        allowedHosts.forEach(h -> hosts.add(h.strip().toLowerCase(Locale.ROOT)));
        allowedOrigins.forEach(o -> origins.add(o.strip()));
        return new HostOriginCheck(Set.copyOf(hosts), Set.copyOf(origins), false);
    }

    /**
     * @return this check that also lets a page served by this server call it: an {@code Origin} of
     *         {@code http://<Host>} where the request's {@code Host} is one this check allows (a server with a web
     *         page of its own needs this; the {@code Host} check still stops DNS rebinding)
     */
    public HostOriginCheck withSameOrigin() {
        return new HostOriginCheck(hosts, origins, true);
    }

    /**
     * @param hostValues   the request's {@code Host} header values (the first counts)
     * @param originValues the request's {@code Origin} header values (the first counts; none for non-browser clients)
     * @return why the request must be refused (answer 403), or {@code null} when it may go on
     */
    public @Nullable Refusal check(List<String> hostValues, List<String> originValues) {
        if (!originValues.isEmpty()) {
            String origin = originValues.get(0);
            if (origin != null && !origin.isBlank() && !origins.contains(origin.strip())
                    && !(sameOrigin && isSameOrigin(origin.strip(), hostValues))) {
                return new Refusal(Header.ORIGIN, origin);
            }
        }
        String host = hostValues.isEmpty() ? null : hostValues.get(0);
        if (host == null || host.isBlank() || !hosts.contains(host.strip().toLowerCase(Locale.ROOT))) {
            return new Refusal(Header.HOST, host);
        }
        return null;
    }

    private boolean isSameOrigin(String origin, List<String> hostValues) {
        String host = hostValues.isEmpty() || hostValues.get(0) == null ? "" : hostValues.get(0).strip()
                .toLowerCase(Locale.ROOT);
        return !host.isEmpty() && hosts.contains(host) && origin.toLowerCase(Locale.ROOT).equals("http://" + host);
    }
}
