package dev.ragkit.retrieval;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Follows stored links breadth first, level by level, from the seed documents.
 *
 * <h2>What is returned</h2>
 * Level 1 holds the documents the seeds link to, level 2 the documents those link to, and so on up to
 * {@code maxDepth}; the walk stops early once {@code maxDocuments} documents are found or a level brings nothing
 * new. Each document comes once, with the path of the document whose link reached it first and its level as
 * {@link LinkedDocument#depth()}. The order is deterministic: level by level; inside a level, in the order of
 * the documents of the level before (the seeds, in the order given, for level 1) and, for each of them, in the
 * order of its {@link StoredDocument#links()}. When the cap falls inside a level, the first documents in that
 * order are kept.
 *
 * <h2>What is never returned</h2>
 * <ul>
 *   <li>a seed, nor a document whose id is in {@code excludeIds}. An excluded document that a link reaches is
 *       still walked through: its own links count one level further, since it is in the context anyway;</li>
 *   <li>anything the caller's scope cannot see: every lookup is {@link DocumentStore#findByPaths}{@code (scope,
 *       paths)} with the caller's scope, never a wider one, and each document found is checked again with
 *       {@link Scope#canSee(StoredDocument)};</li>
 *   <li>nothing for a link that names no stored document (a broken link, a link to a non-markdown file, an
 *       mdBook rule id such as {@code expr.closure}): such links are skipped silently.</li>
 * </ul>
 *
 * <h2>mdBook {@code .html} links</h2>
 * mdBook sources often link to the rendered page, {@code foo.html}, rather than to {@code foo.md} (the Rust
 * Reference uses both). When a link ends in {@code .html} and no visible document is stored at that path, the
 * same path ending in {@code .md} is tried instead. A document stored under the {@code .html} path itself wins.
 *
 * <h2>Cost</h2>
 * One {@link DocumentStore#findByPaths} call per level, for every new path of that level at once (plus the
 * {@code .md} alternatives of its {@code .html} links); no call at all when {@code maxDepth} or
 * {@code maxDocuments} is 0 or there are no seeds. Each path is looked up at most once per call, which is also
 * what makes cycles terminate.
 *
 * <p>Stateless and thread-safe.
 */
public final class BreadthFirstLinkResolver implements LinkResolver {

    private static final String HTML = ".html";
    private static final String MD = ".md";

    /** Creates a resolver; it has no settings, the limits come with each call. */
    public BreadthFirstLinkResolver() {
    }

    /**
     * {@inheritDoc}
     *
     * @throws NullPointerException     when an argument, a seed or an excluded id is {@code null}
     * @throws IllegalArgumentException when {@code maxDepth} or {@code maxDocuments} is negative
     */
    @Override
    public List<LinkedDocument> resolve(DocumentStore store, Scope scope, List<StoredDocument> seeds,
            Collection<String> excludeIds, int maxDepth, int maxDocuments) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(seeds, "seeds");
        Objects.requireNonNull(excludeIds, "excludeIds");
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth must not be negative, got " + maxDepth
                    + "; use 0 to follow no links");
        }
        if (maxDocuments < 0) {
            throw new IllegalArgumentException("maxDocuments must not be negative, got " + maxDocuments
                    + "; use 0 to return no linked documents");
        }
        Walk walk = new Walk(store, scope, seeds, excludeIds, maxDocuments);
        List<StoredDocument> frontier = List.copyOf(seeds);
        for (int depth = 1; depth <= maxDepth && maxDocuments > 0 && !frontier.isEmpty() && !walk.full(); depth++) {
            Map<String, String> linkedFrom = walk.newLinks(frontier);
            frontier = linkedFrom.isEmpty() ? List.of() : walk.level(depth, linkedFrom, walk.lookUp(linkedFrom));
        }
        return List.copyOf(walk.result);
    }

    /** One call's walk: what was looked up, what may not be returned, and what was found. */
    private static final class Walk {
        private final DocumentStore store;
        private final Scope scope;
        private final int maxDocuments;
        /** Ids never returned: the seeds and the caller's exclusions. */
        private final Set<String> excluded = new HashSet<>();
        /** Paths looked up (or being seeds): each path once, which also ends cycles. */
        private final Set<String> lookedUp = new HashSet<>();
        /** Ids returned or never to be returned. */
        private final Set<String> seen;
        /** Excluded ids whose links were queued for the next level. */
        private final Set<String> walked = new HashSet<>();
        private final List<LinkedDocument> result = new ArrayList<>();

        Walk(DocumentStore store, Scope scope, List<StoredDocument> seeds, Collection<String> excludeIds,
                int maxDocuments) {
            this.store = store;
            this.scope = scope;
            this.maxDocuments = maxDocuments;
            for (String id : excludeIds) {
                excluded.add(Objects.requireNonNull(id, "excluded id"));
            }
            for (StoredDocument seed : seeds) {
                Objects.requireNonNull(seed, "seed");
                excluded.add(seed.id());
                lookedUp.add(seed.path());
            }
            this.seen = new HashSet<>(excluded);
        }

        boolean full() {
            return result.size() >= maxDocuments;
        }

        /** The paths the frontier links to that were never looked up, in order, each with the first linking path. */
        Map<String, String> newLinks(List<StoredDocument> frontier) {
            Map<String, String> linkedFrom = new LinkedHashMap<>();
            for (StoredDocument doc : frontier) {
                for (String link : doc.links()) {
                    if (lookedUp.add(link)) {
                        linkedFrom.put(link, doc.path());
                    }
                }
            }
            return linkedFrom;
        }

        /** One {@code findByPaths} for the level's paths and their {@code .md} alternatives; only visible hits. */
        Map<String, List<StoredDocument>> lookUp(Map<String, String> linkedFrom) {
            Set<String> paths = new LinkedHashSet<>(linkedFrom.keySet());
            for (String link : linkedFrom.keySet()) {
                String alternative = markdownAlternative(link);
                if (alternative != null && !lookedUp.contains(alternative)) {
                    paths.add(alternative);
                }
            }
            Map<String, List<StoredDocument>> byPath = new HashMap<>();
            for (StoredDocument doc : store.findByPaths(scope, paths)) {
                if (scope.canSee(doc)) {
                    byPath.computeIfAbsent(doc.path(), p -> new ArrayList<>(1)).add(doc);
                }
            }
            return byPath;
        }

        /** Records the level's new documents (up to the cap) and returns the documents whose links come next. */
        List<StoredDocument> level(int depth, Map<String, String> linkedFrom, Map<String, List<StoredDocument>> byPath) {
            List<StoredDocument> next = new ArrayList<>();
            for (Map.Entry<String, String> link : linkedFrom.entrySet()) {
                List<StoredDocument> found = byPath.get(link.getKey());
                if (found == null) {
                    String alternative = markdownAlternative(link.getKey());
                    found = alternative == null ? null : byPath.get(alternative);
                }
                if (found == null) {
                    continue; // broken link, rule id, non-markdown target, or invisible in this scope
                }
                for (StoredDocument doc : found) {
                    lookedUp.add(doc.path()); // an .md reached through its .html link is not looked up again
                    if (excluded.contains(doc.id())) {
                        if (walked.add(doc.id())) {
                            next.add(doc); // in the context already: not returned, but its links are followed
                        }
                    } else if (seen.add(doc.id())) {
                        result.add(new LinkedDocument(doc, link.getValue(), depth));
                        if (full()) {
                            return List.of();
                        }
                        next.add(doc);
                    }
                }
            }
            return next;
        }
    }

    /** The {@code .md} path to try when an {@code .html} link finds nothing, or {@code null} for other links. */
    private static @Nullable String markdownAlternative(String link) {
        if (link.length() > HTML.length() && link.endsWith(HTML)) {
            return link.substring(0, link.length() - HTML.length()) + MD;
        }
        return null;
    }
}
