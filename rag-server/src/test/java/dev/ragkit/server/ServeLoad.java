package dev.ragkit.server;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A load client for a running {@code ragkit serve}: N clients, each sending one request after another for a while,
 * to {@code /v1/search} or {@code /v1/ask}; prints requests per second and the p50/p95 latency. JDK only, so it runs
 * as a source file, without a build (the numbers in docs/benchmarks.md came from this):
 * <pre>
 * java rag-server/src/test/java/dev/ragkit/server/ServeLoad.java http://127.0.0.1:8080 search 8 20 [token]
 * </pre>
 * Arguments: the server's URL, {@code search} or {@code ask}, the number of clients, the seconds to run (after one
 * second of warm-up), and a bearer token when the server has a tokens file.
 */
public final class ServeLoad {
    private static final List<String> QUESTIONS = List.of("How are tenants isolated?",
            "How do I rotate the API key?", "What does the token budget drop first?",
            "How is confidence computed?", "Which stores are supported?", "How are questions routed to owners?",
            "What does the extractive backend do?", "How do I index PDF files?");

    /** One run's result. */
    record Result(String route, int clients, int requests, int errors, double perSecond, double p50Millis,
            double p95Millis) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.1f | %.1f | %d |", route, clients, requests,
                    perSecond, p50Millis, p95Millis, errors);
        }
    }

    private ServeLoad() {
    }

    /**
     * @param args URL, route, clients, seconds, optional token
     * @throws Exception when the run fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: ServeLoad <url> search|ask <clients> <seconds> [token]");
            System.exit(2);
        }
        Result r = run(URI.create(args[0]), args[1], Integer.parseInt(args[2]), Duration.ofSeconds(
                Long.parseLong(args[3])), args.length > 4 ? args[4] : null);
        System.out.println("| route | clients | requests | requests/s | p50 ms | p95 ms | errors |");
        System.out.println(r);
    }

    /**
     * @param base     the server's URL
     * @param route    {@code search} or {@code ask}
     * @param clients  how many clients send at once
     * @param duration how long to measure (after one second of warm-up, not counted)
     * @param token    the bearer token, or {@code null}
     * @return what was measured
     * @throws Exception when a client fails
     */
    static Result run(URI base, String route, int clients, Duration duration, String token) throws Exception {
        if (!route.equals("search") && !route.equals("ask")) {
            throw new IllegalArgumentException("route must be search or ask, got " + route);
        }
        ExecutorService io = Executors.newFixedThreadPool(Math.max(2, clients));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(io).build();
        URI uri = base.resolve("/v1/" + route);
        long warmEnd = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        long end = warmEnd + duration.toNanos();
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            running.add(pool.submit(() -> {
                while (System.nanoTime() < end) {
                    String q = QUESTIONS.get(Math.floorMod(next.getAndIncrement(), QUESTIONS.size()));
                    String body = route.equals("search") ? "{\"query\": \"" + q + "\", \"k\": 5}"
                            : "{\"question\": \"" + q + "\"}";
                    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body));
                    if (token != null) {
                        request.header("Authorization", "Bearer " + token);
                    }
                    long start = System.nanoTime();
                    boolean ok;
                    try {
                        ok = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    } catch (java.io.IOException e) {
                        ok = false;
                    }
                    long stop = System.nanoTime();
                    if (start >= warmEnd && stop <= end) {
                        if (ok) {
                            latencies.add(stop - start);
                        } else {
                            errors.incrementAndGet();
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        io.shutdown();
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        double seconds = duration.toNanos() / 1e9;
        return new Result(route, clients, sorted.size(), errors.get(), sorted.size() / seconds,
                percentile(sorted, 0.50), percentile(sorted, 0.95));
    }

    private static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i))) / 1e6;
    }
}
