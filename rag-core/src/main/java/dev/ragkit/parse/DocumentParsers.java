package dev.ragkit.parse;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link DocumentParser}s an indexer chooses from: by a file's extension, or by what its bytes are when they say
 * otherwise. {@link #standard()} holds RagKit's own parsers in {@code rag-core} ({@code markdown}, {@code text},
 * {@code code}) and every parser found through {@link ServiceLoader} ({@code rag-documents} adds {@code pdf},
 * {@code docx} and {@code html}). Immutable and thread-safe.
 */
public final class DocumentParsers {
    private static final Logger LOG = LoggerFactory.getLogger(DocumentParsers.class);

    private final Map<String, DocumentParser> byId;
    private final Map<String, DocumentParser> byExtension;

    private DocumentParsers(Collection<DocumentParser> parsers) {
        Map<String, DocumentParser> ids = new LinkedHashMap<>();
        Map<String, DocumentParser> extensions = new LinkedHashMap<>();
        for (DocumentParser parser : parsers) {
            String id = Objects.requireNonNull(parser.id(), "parser id");
            DocumentParser clash = ids.putIfAbsent(id, parser);
            if (clash != null) {
                throw new IllegalStateException("two document parsers have the id '" + id + "': "
                        + clash.getClass().getName() + " and " + parser.getClass().getName()
                        + "; remove one of them from the class path or the list");
            }
            for (String extension : parser.extensions()) {
                DocumentParser other = extensions.putIfAbsent(extension, parser);
                if (other != null) {
                    throw new IllegalStateException("document parsers '" + other.id() + "' and '" + id
                            + "' both read ." + extension + "; remove one of them from the class path or the list");
                }
            }
        }
        this.byId = Collections.unmodifiableMap(ids);
        this.byExtension = Collections.unmodifiableMap(extensions);
    }

    /**
     * @return RagKit's own parsers and every {@link DocumentParser} on the class path (a user's parser for a new
     *         format included)
     * @throws IllegalStateException when two parsers share an id or an extension
     */
    public static DocumentParsers standard() {
        List<DocumentParser> parsers = new ArrayList<>(List.of(new MarkdownDocumentParser(),
                new TextDocumentParser(), new CodeDocumentParser()));
        for (DocumentParser found : ServiceLoader.load(DocumentParser.class)) {
            if (parsers.stream().noneMatch(p -> p.getClass() == found.getClass())) {
                LOG.debug("found document parser '{}' ({}) for {}", found.id(), found.getClass().getName(),
                        found.extensions());
                parsers.add(found);
            }
        }
        return new DocumentParsers(parsers);
    }

    /**
     * @param parsers the parsers, e.g. {@code List.of(new MarkdownDocumentParser())}
     * @return exactly these
     * @throws IllegalStateException when two share an id or an extension
     */
    public static DocumentParsers of(Collection<? extends DocumentParser> parsers) {
        return new DocumentParsers(new ArrayList<>(Objects.requireNonNull(parsers, "parsers")));
    }

    /**
     * @param path a document path
     * @return the parser for its extension, if any
     */
    public Optional<DocumentParser> forPath(String path) {
        return Optional.ofNullable(byExtension.get(DocumentPaths.extension(path)));
    }

    /**
     * @param kind what a file's bytes are
     * @return the parser that reads that kind, if any
     */
    public Optional<DocumentParser> forKind(ContentSniffer.Kind kind) {
        for (DocumentParser parser : byId.values()) {
            if (parser.kinds().contains(kind)) {
                return Optional.of(parser);
            }
        }
        return Optional.empty();
    }

    /**
     * @param id a parser id
     * @return the parser, if any
     */
    public Optional<DocumentParser> byId(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** @return the extensions some parser reads, sorted ({@code ""} for files without one) */
    public Set<String> extensions() {
        return new TreeSet<>(byExtension.keySet());
    }

    /** @return the parsers, in the order they were given or found */
    public List<DocumentParser> all() {
        return new ArrayList<>(byId.values());
    }

    @Override
    public String toString() {
        return "DocumentParsers" + byId.keySet();
    }
}
