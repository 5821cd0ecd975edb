package dev.ragkit.docs;

import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles documentation snippets with the JDK's compiler, in this process, against the test class path: every
 * snippet of every page in one compiler run.
 *
 * <p>Each compiled snippet becomes one source file in its own package {@code snippetN}:
 * <ul>
 *   <li>{@link Snippet.Kind#UNIT} (its first code line is {@code package} or {@code import}) is compiled as it is
 *       (a {@code package snippetN;} is put in front when it has none);</li>
 *   <li>{@link Snippet.Kind#MEMBERS} (its first code line, after annotations, declares a class, interface, record or
 *       enum) becomes the body of {@code class Snippet} with the {@link #STANDARD_IMPORTS};</li>
 *   <li>{@link Snippet.Kind#STATEMENTS} (anything else) becomes the body of {@code void run(<given>) throws
 *       Exception} in such a class, so that checked exceptions need no handling in a page.</li>
 * </ul>
 * A {@code continues=id} snippet is compiled after the code of the snippet it continues (and of the ones that one
 * continues), in the same method or class, with their {@code given} declarations. A failure names the page and line
 * of the code the compiler rejected, with its message; deprecation warnings count as failures too (a page should not
 * teach what is on its way out).
 */
final class SnippetCompiler {

    /**
     * What a {@link Snippet.Kind#MEMBERS} or {@link Snippet.Kind#STATEMENTS} snippet may use without importing it:
     * every public RagKit package, the common JDK packages, the few Spring, LangChain4j and JUnit types the pages
     * show, and {@code com.example.store.MyStore}, the example plugin's store of docs/store-plugins.md (a stand-in in
     * this module's tests).
     */
    static final List<String> STANDARD_IMPORTS = List.of(
            "dev.ragkit.*", "dev.ragkit.audit.*", "dev.ragkit.budget.*", "dev.ragkit.error.*", "dev.ragkit.eval.*",
            "dev.ragkit.generation.*", "dev.ragkit.grounding.*", "dev.ragkit.ingest.*", "dev.ragkit.embedding.*",
            "dev.ragkit.parse.*", "dev.ragkit.chunk.*", "dev.ragkit.onnx.*", "dev.ragkit.prompt.*",
            "dev.ragkit.retrieval.*", "dev.ragkit.tokens.*", "dev.ragkit.documents.*", "dev.ragkit.http.*",
            "dev.ragkit.langchain4j.*", "dev.ragkit.mcp.*", "dev.ragkit.micrometer.*", "dev.ragkit.ollama.*",
            "dev.ragkit.openai.*", "dev.ragkit.server.*", "dev.ragkit.spring.*", "dev.ragkit.store.*",
            "dev.ragkit.store.inmemory.*",
            "dev.ragkit.store.lucene.*", "dev.ragkit.store.solr.*", "dev.ragkit.store.tck.*",
            "org.junit.jupiter.api.io.TempDir", "com.example.store.MyStore",
            "java.io.*", "java.nio.file.*", "java.security.Principal", "java.time.*", "java.util.*",
            "java.util.function.*",
            "org.springframework.context.annotation.Bean", "org.springframework.context.annotation.Configuration",
            "org.springframework.web.bind.annotation.GetMapping",
            "org.springframework.web.bind.annotation.PostMapping",
            "org.springframework.web.bind.annotation.RequestBody",
            "org.springframework.web.bind.annotation.RequestParam",
            "org.springframework.web.bind.annotation.RestController",
            "dev.langchain4j.data.segment.TextSegment",
            "dev.langchain4j.model.chat.ChatModel", "dev.langchain4j.model.chat.StreamingChatModel",
            "dev.langchain4j.model.embedding.EmbeddingModel",
            "dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel",
            "dev.langchain4j.rag.content.retriever.EmbeddingStoreContentRetriever",
            "dev.langchain4j.service.AiServices", "dev.langchain4j.store.embedding.EmbeddingStore");

    private static final Pattern TYPE_DECLARATION = Pattern.compile(
            "^((public|protected|private|static|final|abstract|sealed|non-sealed|strictfp)\\s+)*"
                    + "(class|interface|record|enum|@interface)\\s+\\w+.*");
    private static final Pattern ANNOTATION = Pattern.compile("^@\\w+(\\.\\w+)*(\\([^)]*\\))?\\s*");
    private static final Pattern LOCATION = Pattern.compile("([^:\\s]+):(\\d+):");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+((final|abstract|sealed|non-sealed|strictfp)\\s+)*(class|interface|record|enum)\\s+(\\w+)");

    private SnippetCompiler() {
    }

    /**
     * The outcome of one run.
     *
     * @param compiled how many snippets were compiled
     * @param skipped  the snippets marked {@code skip}, not compiled
     * @param failures one entry per rejected line: {@code file:line: message}, the line's code, and the compiler's
     *                 detail lines
     */
    record Report(int compiled, List<Snippet> skipped, List<String> failures) {
    }

    /**
     * Compiles the snippets.
     *
     * @param snippets  the snippets of all pages, each page's in page order
     * @param classPath the class path to compile against
     * @return what compiled, what was skipped and what failed
     */
    static Report compile(List<Snippet> snippets, String classPath) {
        Map<String, Snippet> byId = new HashMap<>();
        List<Snippet> skipped = new ArrayList<>();
        List<Source> sources = new ArrayList<>();
        Set<String> failures = new LinkedHashSet<>();
        for (Snippet snippet : snippets) {
            String id = snippet.marker().id();
            if (id != null && byId.putIfAbsent(snippet.file() + "#" + id, snippet) != null) {
                failures.add(snippet.file() + ":" + snippet.marker().line() + ": snippet id '" + id
                        + "' is used twice in this page");
            }
            if (snippet.marker().skipReason() != null) {
                skipped.add(snippet);
                continue;
            }
            try {
                sources.add(source(sources.size(), chain(snippet, byId)));
            } catch (IllegalArgumentException e) {
                failures.add(e.getMessage());
            }
        }
        if (!sources.isEmpty()) {
            failures.addAll(run(sources, classPath));
        }
        List<String> sorted = new ArrayList<>(failures);
        sorted.sort(Comparator.comparing(SnippetCompiler::pageOf).thenComparingInt(SnippetCompiler::lineOf));
        return new Report(sources.size(), List.copyOf(skipped), List.copyOf(sorted));
    }

    private static String pageOf(String failure) {
        Matcher m = LOCATION.matcher(failure);
        return m.lookingAt() ? m.group(1) : "";
    }

    private static int lineOf(String failure) {
        Matcher m = LOCATION.matcher(failure);
        return m.lookingAt() ? Integer.parseInt(m.group(2)) : 0;
    }

    /** The snippet and the ones it continues, earliest first. */
    private static List<Snippet> chain(Snippet snippet, Map<String, Snippet> byId) {
        List<Snippet> chain = new ArrayList<>();
        chain.add(snippet);
        Snippet current = snippet;
        while (current.marker().continues() != null) {
            String ref = current.marker().continues();
            Snippet earlier = byId.get(current.file() + "#" + ref);
            if (earlier == null || earlier == current) {
                throw new IllegalArgumentException(current.file() + ":" + current.marker().line()
                        + ": continues=" + ref + " names no earlier snippet of this page (mark it id=" + ref + ")");
            }
            if (earlier.marker().skipReason() != null) {
                throw new IllegalArgumentException(current.file() + ":" + current.marker().line()
                        + ": continues=" + ref + " names a skipped snippet");
            }
            if (kind(earlier) != kind(snippet) || kind(snippet) == Snippet.Kind.UNIT) {
                throw new IllegalArgumentException(current.file() + ":" + current.marker().line()
                        + ": only statements continue statements and members continue members; "
                        + ref + " is " + kind(earlier).name().toLowerCase(Locale.ROOT) + ", this one "
                        + kind(snippet).name().toLowerCase(Locale.ROOT));
            }
            chain.add(0, earlier);
            current = earlier;
        }
        return chain;
    }

    /**
     * How a snippet is compiled: its marker's {@code kind}, else {@code UNIT} when its first code line is
     * {@code package} or {@code import}, {@code MEMBERS} when it is (after annotations) a type declaration, else
     * {@code STATEMENTS}.
     */
    static Snippet.Kind kind(Snippet snippet) {
        if (snippet.marker().kind() != null) {
            return snippet.marker().kind();
        }
        for (String line : snippet.lines()) {
            String code = line.strip();
            while (true) {
                Matcher annotation = ANNOTATION.matcher(code);
                if (!annotation.lookingAt() || code.startsWith("@interface")) {
                    break;
                }
                code = code.substring(annotation.end());
            }
            if (code.isEmpty() || code.startsWith("//")) {
                continue;
            }
            if (code.startsWith("package ") || code.startsWith("import ")) {
                return Snippet.Kind.UNIT;
            }
            return TYPE_DECLARATION.matcher(code).matches() ? Snippet.Kind.MEMBERS : Snippet.Kind.STATEMENTS;
        }
        return Snippet.Kind.STATEMENTS;
    }

    /** One generated source file, and for each of its lines the snippet and page line it came from. */
    private record Source(JavaFileObject file, Snippet owner, List<Snippet> lineSnippet, List<Integer> lineOrigin,
                          List<String> lineText) {
    }

    private static Source source(int index, List<Snippet> chain) {
        Snippet snippet = chain.get(chain.size() - 1);
        String pkg = "snippet" + index;
        List<String> text = new ArrayList<>();
        List<Snippet> owners = new ArrayList<>();
        List<Integer> origins = new ArrayList<>();
        Snippet.Kind kind = kind(snippet);
        String typeName = "Snippet";
        if (kind == Snippet.Kind.UNIT) {
            List<String> lines = new ArrayList<>(snippet.lines());
            String joined = String.join("\n", lines);
            Matcher publicType = PUBLIC_TYPE.matcher(joined);
            if (publicType.find()) {
                typeName = publicType.group(4);
            }
            boolean hasPackage = lines.stream().anyMatch(l -> l.strip().startsWith("package "));
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (i == 0 && !hasPackage) {
                    line = "package " + pkg + "; " + line;  // same line: the page's line numbers still hold
                } else if (hasPackage && line.strip().startsWith("package ")) {
                    pkg = line.strip().substring("package ".length()).replace(";", "").strip();
                }
                add(text, owners, origins, line, snippet, snippet.pageLine(i));
            }
        } else {
            add(text, owners, origins, "package " + pkg + ";", snippet, snippet.fenceLine());
            for (String imp : STANDARD_IMPORTS) {
                add(text, owners, origins, "import " + imp + ";", snippet, snippet.fenceLine());
            }
            add(text, owners, origins, "@SuppressWarnings(\"unused\") class Snippet {", snippet, snippet.fenceLine());
            List<String> given = new ArrayList<>();
            chain.forEach(s -> given.addAll(s.marker().given()));
            if (kind == Snippet.Kind.MEMBERS) {
                for (String field : given) {
                    add(text, owners, origins, field + ";", snippet, markerOrFence(snippet));
                }
            } else {
                add(text, owners, origins, "void run(" + String.join(", ", given) + ") throws Exception {",
                        snippet, markerOrFence(snippet));
            }
            for (Snippet part : chain) {
                for (int i = 0; i < part.lines().size(); i++) {
                    add(text, owners, origins, part.lines().get(i), part, part.pageLine(i));
                }
            }
            add(text, owners, origins, kind == Snippet.Kind.MEMBERS ? "}" : "}}", snippet, snippet.fenceLine());
        }
        String path = pkg.replace('.', '/') + "/" + typeName + ".java";
        String code = String.join("\n", text) + "\n";
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + index + "/" + path),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        };
        return new Source(file, snippet, owners, origins, text);
    }

    private static int markerOrFence(Snippet snippet) {
        return snippet.marker().line() > 0 ? snippet.marker().line() : snippet.fenceLine();
    }

    private static void add(List<String> text, List<Snippet> owners, List<Integer> origins, String line,
                            Snippet owner, int origin) {
        text.add(line);
        owners.add(owner);
        origins.add(origin);
    }

    private static List<String> run(List<Source> sources, String classPath) {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("no Java compiler in this runtime; run the tests on a JDK, not a JRE");
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        StandardJavaFileManager standard = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8);
        Map<JavaFileObject, Source> byFile = new HashMap<>();
        sources.forEach(s -> byFile.put(s.file(), s));
        // should-stop.ifError=FLOW: a syntax error in one snippet must not hide the type errors of the others.
        List<String> options = List.of("-classpath", classPath, "-proc:none", "--release", "17",
                "-Xlint:deprecation,removal", "-Xmaxerrs", "10000", "-Xmaxwarns", "10000",
                "-XDshould-stop.ifError=FLOW");
        try (JavaFileManager discarding = new DiscardingFileManager(standard)) {
            compiler.getTask(null, discarding, diagnostics, options, null,
                    sources.stream().map(Source::file).toList()).call();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Set<String> failures = new LinkedHashSet<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            boolean failing = d.getKind() == Diagnostic.Kind.ERROR || d.getKind() == Diagnostic.Kind.WARNING
                    || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING;
            if (!failing) {
                continue;
            }
            Source source = d.getSource() == null ? null : byFile.get(d.getSource());
            String message = d.getMessage(Locale.ROOT);
            if (source == null) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    failures.add("compiler: " + message);
                }
                continue;
            }
            int index = (int) Math.max(1, d.getLineNumber()) - 1;
            index = Math.min(index, source.lineText().size() - 1);
            Snippet owner = source.lineSnippet().get(index);
            int pageLine = source.lineOrigin().get(index);
            boolean inPage = pageLine > owner.fenceLine() && pageLine <= owner.fenceLine() + owner.lines().size();
            String kind = d.getKind() == Diagnostic.Kind.ERROR ? "error" : "warning";
            StringBuilder failure = new StringBuilder(owner.file()).append(':').append(pageLine).append(": ")
                    .append(kind).append(": ").append(message);
            if (inPage) {
                failure.append("\n    ").append(source.lineText().get(index).strip());
            } else {
                failure.append("\n    (in the code wrapped around the snippet at ").append(owner.where())
                        .append(": check its marker's given declarations or kind)");
            }
            failures.add(failure.toString());
        }
        return List.copyOf(failures);
    }

    /** Keeps the compiler's class files in memory and drops them: only the diagnostics matter. */
    private static final class DiscardingFileManager extends ForwardingJavaFileManager<StandardJavaFileManager> {

        DiscardingFileManager(StandardJavaFileManager delegate) {
            super(delegate);
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                                   FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension),
                    kind) {
                @Override
                public OutputStream openOutputStream() {
                    return OutputStream.nullOutputStream();
                }
            };
        }
    }
}
