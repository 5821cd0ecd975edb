package dev.ragkit.internal;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The languages of source files by their extension, as the code parser records them ({@code java}, {@code python},
 * {@code shell}, …), and the extensions of plain text: the lists that both the parsers and the reading of their lines
 * ({@link Sentences.Layout}) use.
 */
public final class CodeLanguages {

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("java", "java"), Map.entry("kt", "kotlin"), Map.entry("kts", "kotlin"),
            Map.entry("scala", "scala"), Map.entry("groovy", "groovy"), Map.entry("gradle", "groovy"),
            Map.entry("js", "javascript"), Map.entry("jsx", "javascript"), Map.entry("mjs", "javascript"),
            Map.entry("cjs", "javascript"), Map.entry("ts", "typescript"), Map.entry("tsx", "typescript"),
            Map.entry("go", "go"), Map.entry("rs", "rust"), Map.entry("c", "c"), Map.entry("h", "c"),
            Map.entry("cc", "cpp"), Map.entry("cpp", "cpp"), Map.entry("cxx", "cpp"), Map.entry("hpp", "cpp"),
            Map.entry("cs", "csharp"), Map.entry("swift", "swift"), Map.entry("php", "php"),
            Map.entry("proto", "protobuf"), Map.entry("py", "python"), Map.entry("rb", "ruby"),
            Map.entry("sh", "shell"), Map.entry("bash", "shell"), Map.entry("zsh", "shell"),
            Map.entry("sql", "sql"), Map.entry("yaml", "yaml"), Map.entry("yml", "yaml"), Map.entry("json", "json"),
            Map.entry("xml", "xml"), Map.entry("toml", "toml"), Map.entry("properties", "properties"),
            Map.entry("ini", "ini"));

    /**
     * The languages whose unquoted values are names (a literal would be quoted): not shell, SQL or the configuration
     * formats, where {@code password=…} holds the password itself.
     */
    private static final Set<String> PROGRAMS = Set.of("java", "kotlin", "scala", "groovy", "javascript",
            "typescript", "go", "rust", "c", "cpp", "csharp", "swift", "php", "python", "ruby");

    /** The extensions of plain text files, {@code ""} for a file without one (README, INSTALL). */
    private static final Set<String> PLAIN_TEXT = Set.of("txt", "text", "log", "csv", "tsv", "");

    private CodeLanguages() {
    }

    /** @return the extensions of plain text files (lower case, without the dot; {@code ""} for none) */
    public static Set<String> plainTextExtensions() {
        return PLAIN_TEXT;
    }

    /**
     * @param path a document's path
     * @return whether its file's extension (in any letter case), or its lack of one, is plain text's
     */
    public static boolean isPlainText(String path) {
        return PLAIN_TEXT.contains(extension(path));
    }

    /**
     * @param language a language as {@link #ofExtension} names it, or {@code null}
     * @return whether it is a programming language, whose unquoted values are names rather than literals
     */
    public static boolean isProgram(@Nullable String language) {
        return language != null && PROGRAMS.contains(language);
    }

    /** @return the extensions of source files (lower case, without the dot) */
    public static Set<String> extensions() {
        return BY_EXTENSION.keySet();
    }

    /**
     * @param extension a file's extension, lower case, without the dot
     * @return its language, or {@code null} when it is no source file's
     */
    public static @Nullable String ofExtension(String extension) {
        return BY_EXTENSION.get(extension);
    }

    /**
     * @param path a document's path
     * @return the language of its file's extension (in any letter case), or {@code null} when it is no source file's
     */
    public static @Nullable String ofPath(String path) {
        return BY_EXTENSION.get(extension(path));
    }

    /**
     * A path's extension as the parsers are chosen by it ({@code DocumentPaths.extension}, which calls this): lower
     * case without the dot, {@code ""} for none (a name's leading dot, {@code .bashrc}, starts none); a file named
     * {@code mbox} in a folder named {@code *.mbox} (Apple Mail's {@code Inbox.mbox/mbox}) has the extension
     * {@code mbox}.
     *
     * @param path a document path
     * @return its extension
     */
    public static String extension(String path) {
        int slash = path.lastIndexOf('/');
        String name = path.substring(slash + 1);
        int dot = name.lastIndexOf('.');
        if (dot <= 0 && name.equals("mbox") && slash > 0
                && path.substring(0, slash).toLowerCase(Locale.ROOT).endsWith(".mbox")) {
            return "mbox";
        }
        return dot > 0 ? name.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
    }
}
