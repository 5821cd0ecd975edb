package dev.ragkit.server;

import dev.ragkit.audit.AuditTrail;
import dev.ragkit.internal.BearerTokens;
import dev.ragkit.internal.HostOriginCheck;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.Collections;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What every request passes before a route, in this order: {@code Host} and {@code Origin}
 * ({@link HostOriginCheck}, 403), then for {@code /v1/} routes the bearer token (401; the grant it carries is put on
 * the request as {@link #GRANT}) and a place among the requests running at once (429 with {@code Retry-After}).
 * The page, its script and style, and {@code /openapi.json} need no token (the page asks for one). Every refusal is
 * audited as {@code REFUSED} with its code, the method and the path: under the caller's tenant when its token is
 * known (429), else under {@link #UNKNOWN_TENANT}; never with the token or the body.
 */
final class RequestGuard implements Filter {
    /** The request attribute holding the caller's {@link Grant}. */
    static final String GRANT = "dev.ragkit.server.grant";
    /** The tenant of an audit record for a request refused before its tenant is known (403 Host/Origin, 401). */
    static final String UNKNOWN_TENANT = "-";

    private final ServerSettings settings;
    private final AuditTrail audit;
    private final Supplier<HostOriginCheck> checkFactory;
    private final Semaphore running;
    private volatile @Nullable HostOriginCheck check;

    RequestGuard(ServerSettings settings, AuditTrail audit, Supplier<HostOriginCheck> checkFactory) {
        this.settings = settings;
        this.audit = audit;
        this.checkFactory = checkFactory;
        this.running = new Semaphore(settings.maxConcurrentRequests());
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        Instant start = Instant.now();
        HostOriginCheck c = check;
        if (c == null) {
            c = checkFactory.get();
            check = c;
        }
        HostOriginCheck.Refusal refusal = c.check(Collections.list(request.getHeaders("Host")),
                Collections.list(request.getHeaders("Origin")));
        if (refusal != null) {
            boolean origin = refusal.header() == HostOriginCheck.Header.ORIGIN;
            refuse(request, response, start, UNKNOWN_TENANT, new ApiException(403, origin ? "ORIGIN_NOT_ALLOWED"
                    : "HOST_NOT_ALLOWED", "Forbidden: " + (origin ? "Origin '" + Api.shown(refusal.value())
                            + "' may not call this server; allow it with --allow-origin" : "Host '"
                            + Api.shown(refusal.value()) + "' does not name this server; call it by its address or "
                            + "allow the name with --allow-host") + " (protection against DNS rebinding)"));
            return;
        }
        if (!request.getRequestURI().startsWith("/v1/")) {
            chain.doFilter(request, response);
            return;
        }
        String token = BearerTokens.fromHeader(request.getHeader("Authorization"));
        Grant grant = settings.grant(token);
        if (grant == null) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"ragkit\""
                    + (token == null ? "" : ", error=\"invalid_token\""));
            refuse(request, response, start, UNKNOWN_TENANT, new ApiException(401, token == null ? "TOKEN_MISSING"
                    : "TOKEN_INVALID", token == null ? "Unauthorized: send Authorization: Bearer <token>, a token "
                    + "from the server's tokens file" : "Unauthorized: the bearer token is not one of this server's"));
            return;
        }
        if (!running.tryAcquire()) {
            response.setHeader("Retry-After", "1");
            refuse(request, response, start, grant.tenant(), new ApiException(429, "TOO_MANY_REQUESTS",
                    "Too Many Requests: " + settings.maxConcurrentRequests() + " requests are running, the most "
                    + "this server takes at once (--max-concurrent); retry in a moment"));
            return;
        }
        try {
            request.setAttribute(GRANT, grant);
            chain.doFilter(request, response);
        } finally {
            running.release();
        }
    }

    /** Audits the refusal (its code, the method and the path; never the token or the body), then sends it. */
    private void refuse(HttpServletRequest request, HttpServletResponse response, Instant start, String tenant,
            ApiException e) throws IOException {
        String path = request.getRequestURI();
        Api.refused(audit, Api.operation(path), start, tenant, e, e.getMessage() + " [" + Api.shown(
                request.getMethod()) + " " + Api.shown(path) + "]");
        Api.send(response, e);
    }
}
