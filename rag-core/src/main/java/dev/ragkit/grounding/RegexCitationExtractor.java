package dev.ragkit.grounding;

import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.prompt.ContextBlock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link CitationExtractor}: finds {@code [SourceId: …]} markers with a regular expression and maps
 * each id to the block that carried it in the prompt.
 *
 * <p>What counts as a marker, exactly:
 * <ul>
 *   <li>an id is {@code [a-f0-9-]{36}:\d+}: 36 lower-case hex digits or hyphens, a colon, a chunk index in ASCII
 *       digits, compared as a string with the blocks' {@link ContextBlock#sourceId()} (so {@code id:03} does
 *       not match chunk 3);</li>
 *   <li>a marker is {@code [}, the keyword {@code SourceId} (case as written), {@code :}, then one or more ids
 *       separated by {@code ,} or {@code ;}; each id after the first may repeat {@code SourceId:} in front of
 *       it; then {@code ]}. Whitespace (including line breaks) is allowed around every part, so
 *       {@code [SourceId: a:0, b:3]}, {@code [SourceId: a:0; SourceId: b:3]} and {@code [ SourceId:a:0 ]}
 *       all count;</li>
 *   <li>a bracket with any malformed part (upper-case hex, an id of another length, no chunk index, another
 *       separator, stray text) is ignored as a whole: none of its ids is cited or reported.</li>
 * </ul>
 * A citation's lines are those of the block that support the statement it follows (the answer's text since the
 * previous marker): the lines of a quote, else of the block's sentence sharing the most words with the statement,
 * else the block's (see {@code SupportingLines}). A SourceId cited more than once gets the lines from the first to
 * the last supporting line.
 *
 * <p>Ids that are well formed but were not in the prompt are returned as
 * {@link Citations#unknownSourceIds()} and logged at DEBUG. Stateless and thread-safe.
 */
final class RegexCitationExtractor implements CitationExtractor {

    private static final Logger LOG = LoggerFactory.getLogger(RegexCitationExtractor.class);

    /** One SourceId: {@code documentId:chunkIndex}. */
    static final String SOURCE_ID = "[a-f0-9-]{36}:[0-9]+";

    /** A whole marker with one or more ids; group 1 holds the id list. */
    private static final Pattern MARKER = Pattern.compile("\\[\\s*SourceId\\s*:\\s*("
            + SOURCE_ID + "(?:\\s*[,;]\\s*(?:SourceId\\s*:\\s*)?" + SOURCE_ID + ")*)\\s*]");

    private static final Pattern ID = Pattern.compile(SOURCE_ID);

    static final int SNIPPET_CHARS = 200;
    static final int SNIPPET_FULL_CHARS = 1000;

    @Override
    public Citations extract(String answer, List<ContextBlock> blocks) {
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(blocks, "blocks");
        Map<String, ContextBlock> bySourceId = new LinkedHashMap<>();
        for (ContextBlock block : blocks) {
            Objects.requireNonNull(block, "blocks must not contain null");
            bySourceId.putIfAbsent(block.sourceId(), block);
        }
        Map<String, int[]> cited = new LinkedHashMap<>();
        Set<String> unknown = new LinkedHashSet<>();
        Matcher marker = MARKER.matcher(answer);
        int statementStart = 0;
        while (marker.find()) {
            String statement = answer.substring(statementStart, marker.start());
            statementStart = marker.end();
            Matcher id = ID.matcher(marker.group(1));
            while (id.find()) {
                String sourceId = id.group();
                ContextBlock block = bySourceId.get(sourceId);
                if (block == null) {
                    unknown.add(sourceId);
                } else {
                    int[] lines = SupportingLines.of(statement, block);
                    cited.merge(sourceId, lines, (a, b) -> new int[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
                }
            }
        }
        List<Citation> citations = new ArrayList<>(cited.size());
        for (Map.Entry<String, int[]> c : cited.entrySet()) {
            citations.add(toCitation(bySourceId.get(c.getKey()), c.getValue()));
        }
        if (!unknown.isEmpty()) {
            LOG.debug("The answer cited {} SourceId(s) that were not in the prompt, ignored: {}", unknown.size(),
                    unknown);
        }
        return new Citations(citations, new ArrayList<>(unknown));
    }

    private static Citation toCitation(ContextBlock block, int[] lines) {
        String text = block.text();
        return new Citation(block.sourceId(), block.document().id(), block.document().title(),
                block.document().path(), block.chunk().index(), lines[0], lines[1],
                block.chunk().section(), block.chunk().page(), orNull(block.similarity()), orNull(block.relevance()),
                TextCuts.prefixWithEllipsis(text, SNIPPET_CHARS), TextCuts.prefix(text, SNIPPET_FULL_CHARS),
                block.document().metadata().get(ParsedDocument.PAGE_LABEL));
    }

    private static @Nullable Double orNull(double score) {
        return Double.isNaN(score) ? null : score;
    }
}
