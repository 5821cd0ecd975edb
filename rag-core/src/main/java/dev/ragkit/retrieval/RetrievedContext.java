package dev.ragkit.retrieval;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What retrieval found for one question, in the order a prompt should use it.
 *
 * @param critical          the scope's critical documents (when included), each once, whether or not they matched
 * @param relevant          the relevant chunks, best first, critical documents' chunks excluded; at document
 *                          granularity, the kept chunks of the relevant documents
 * @param relevantDocuments at document granularity, the relevant documents, best first; at chunk granularity with
 *                          {@link RetrievalOptions#neighbourChunks()}, each document with relevant chunks cut down
 *                          to them and their neighbours (what the model reads); otherwise empty
 * @param linked            documents reached by following links from the relevant ones
 * @param totalMatches      candidates that passed the relevance threshold, before deduplication and the top-k cut
 * @param support           how well the best passage found supports the question (why nothing passed, if so)
 * @param timings           time spent per stage, in pipeline order (immutable)
 */
public record RetrievedContext(List<RetrievedDocument> critical, List<RetrievedChunk> relevant,
        List<RetrievedDocument> relevantDocuments, List<LinkedDocument> linked, int totalMatches, Support support,
        Map<String, Duration> timings) {

    /** Validates and copies the arguments. */
    public RetrievedContext {
        critical = List.copyOf(Objects.requireNonNull(critical, "critical"));
        relevant = List.copyOf(Objects.requireNonNull(relevant, "relevant"));
        relevantDocuments = List.copyOf(Objects.requireNonNull(relevantDocuments, "relevantDocuments"));
        linked = List.copyOf(Objects.requireNonNull(linked, "linked"));
        if (totalMatches < 0) {
            throw new IllegalArgumentException("totalMatches must not be negative");
        }
        Objects.requireNonNull(support, "support");
        timings = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(timings, "timings")));
    }

    /**
     * Context without a support judgement ({@link Support#NOTHING_FOUND} when nothing passed, else the best relevant
     * chunk's relevance), for retrievers that do not judge support themselves.
     *
     * @param critical          the critical documents
     * @param relevant          the relevant chunks, best first
     * @param relevantDocuments the relevant documents at document granularity
     * @param linked            the linked documents
     * @param totalMatches      candidates that passed the threshold
     * @param timings           time per stage
     */
    public RetrievedContext(List<RetrievedDocument> critical, List<RetrievedChunk> relevant,
            List<RetrievedDocument> relevantDocuments, List<LinkedDocument> linked, int totalMatches,
            Map<String, Duration> timings) {
        this(critical, relevant, relevantDocuments, linked, totalMatches, relevant.isEmpty() ? Support.NOTHING_FOUND
                : new Support(relevant.get(0).relevance(), 0, List.of()), timings);
    }

    /**
     * @return whether nothing at all was found: no critical, relevant or linked document
     */
    public boolean isEmpty() {
        return critical.isEmpty() && relevant.isEmpty() && relevantDocuments.isEmpty() && linked.isEmpty();
    }
}
