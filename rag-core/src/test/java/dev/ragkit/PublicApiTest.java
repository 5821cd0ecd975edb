package dev.ragkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API of rag-core, written down: every accessible type outside {@code dev.ragkit.internal} (public, or
 * nested public or protected in an accessible type) with its public and protected constructors, methods and fields,
 * read by reflection from the compiled classes and compared with the checked-in
 * {@code rag-core/src/test/resources/public-api.txt}. A change to the API then shows in review as a change to that
 * file, so it is made on purpose (issue 26).
 *
 * <p>{@code dev.ragkit.internal} is left out: its package documentation says it is not API, and listing it would make
 * every helper change look like an API change.
 *
 * <p><b>To accept a deliberate change</b>, rewrite the file and commit it with the change:
 *
 * <pre>{@code
 * mvn -B -ntp -q -pl rag-core -am test -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false -Dragkit.api.update=true
 * }</pre>
 *
 * <p>The format, one line each, sorted: {@code <type> | <the type's declaration>} for a type, and
 * {@code <type> | <member's declaration>} for each member ({@link Class#toGenericString()},
 * {@link Method#toGenericString()} and the like, with the declaring type's name left out of the member's), prefixed
 * {@code @Deprecated } where the element is deprecated.
 */
final class PublicApiTest {
    /** The checked-in listing, relative to the module (Surefire runs in the module's folder). */
    static final Path API_FILE = Path.of("src/test/resources/public-api.txt");
    /** The system property that rewrites {@link #API_FILE} instead of comparing. */
    static final String UPDATE = "ragkit.api.update";
    static final String HOW_TO_ACCEPT = "if the change is deliberate, rewrite the listing and commit it with the change:"
            + " mvn -B -ntp -q -pl rag-core -am test -Dtest=PublicApiTest -Dsurefire.failIfNoSpecifiedTests=false"
            + " -D" + UPDATE + "=true";

    @Test
    void publicApi_matchesTheCheckedInListing() throws Exception {
        List<String> actual = listing(classesFolder());
        assertThat(actual).as("public types found").anyMatch(l -> l.startsWith("dev.ragkit.RagPipeline |"));

        if (Boolean.getBoolean(UPDATE)) {
            Files.writeString(API_FILE, String.join("\n", actual) + "\n", StandardCharsets.UTF_8);
            return;
        }
        assertThat(API_FILE).as("the listing (create it with -D" + UPDATE + "=true)").exists();
        List<String> expected = Files.readAllLines(API_FILE, StandardCharsets.UTF_8).stream()
                .filter(l -> !l.isBlank()).toList();
        String difference = difference(expected, actual);
        if (!difference.isEmpty()) {
            fail(difference);
        }
    }

    @Test
    void difference_plantedChange_failsNamingTheLinesAndHowToAccept() throws Exception {
        List<String> actual = listing(classesFolder());
        String removed = actual.stream().filter(l -> l.startsWith("dev.ragkit.RagPipeline | ")
                && l.contains(" builder()")).findFirst().orElseThrow();
        List<String> planted = new ArrayList<>(actual);
        planted.remove(removed);
        planted.add("dev.ragkit.RagPipeline | public void plantedButGone()");

        String difference = difference(planted, actual);

        assertThat(difference(actual, actual)).isEmpty();
        assertThat(difference).contains("+ " + removed)
                .contains("- dev.ragkit.RagPipeline | public void plantedButGone()")
                .contains("-D" + UPDATE + "=true");
    }

    @Test
    void listing_leavesOutInternalAndInaccessibleTypes_andSeesDeprecation() throws Exception {
        List<String> actual = listing(classesFolder());

        assertThat(actual).noneMatch(l -> l.startsWith("dev.ragkit.internal."));
        assertThat(actual).as("a package-private class").noneMatch(l -> l.startsWith("dev.ragkit.Exchange |"));
        assertThat(actual).as("a deprecated method").anyMatch(l -> l.startsWith(
                "dev.ragkit.grounding.ConfidenceScorer | @Deprecated ") && l.contains("selfRatingPrompt("));
        assertThat(actual).isSorted().doesNotHaveDuplicates();
    }

    /**
     * @param expected the checked-in lines
     * @param actual   the lines of the compiled classes
     * @return empty when equal, else what was added ({@code +}) and removed ({@code -}) and how to accept it
     */
    static String difference(List<String> expected, List<String> actual) {
        Set<String> was = new TreeSet<>(expected);
        Set<String> is = new TreeSet<>(actual);
        List<String> added = is.stream().filter(l -> !was.contains(l)).toList();
        List<String> removed = was.stream().filter(l -> !is.contains(l)).toList();
        if (added.isEmpty() && removed.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder("the public API of rag-core differs from " + API_FILE + " ("
                + added.size() + " added, " + removed.size() + " removed):\n");
        added.forEach(l -> out.append("+ ").append(l).append('\n'));
        removed.forEach(l -> out.append("- ").append(l).append('\n'));
        return out.append(HOW_TO_ACCEPT).toString();
    }

    /** @return the lines of every accessible type under {@code classes}, sorted */
    static List<String> listing(Path classes) throws IOException, ClassNotFoundException {
        Set<String> lines = new TreeSet<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).sorted().toList();
        }
        ClassLoader loader = PublicApiTest.class.getClassLoader();
        for (Path file : files) {
            String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
            name = name.substring(0, name.length() - ".class".length());
            if (name.endsWith("package-info") || name.startsWith("dev.ragkit.internal.")) {
                continue;
            }
            Class<?> type = Class.forName(name, false, loader);
            if (!accessible(type)) {
                continue;
            }
            String key = type.getName();
            lines.add(key + " | " + deprecated(type) + declaration(type));
            for (Constructor<?> c : type.getDeclaredConstructors()) {
                member(lines, key, c, c.toGenericString());
            }
            for (Method m : type.getDeclaredMethods()) {
                if (!m.isBridge()) {
                    member(lines, key, m, m.toGenericString());
                }
            }
            for (Field f : type.getDeclaredFields()) {
                member(lines, key, f, f.toGenericString());
            }
        }
        return new ArrayList<>(lines);
    }

    private static void member(Set<String> lines, String key, Member member, String text) {
        int modifiers = member.getModifiers();
        if (member.isSynthetic() || !(Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers))) {
            return;
        }
        String declaring = member.getDeclaringClass().getName() + ".";
        String shown = member instanceof Executable && !(member instanceof Constructor<?>)
                || member instanceof Field ? text.replace(declaring + member.getName(), member.getName()) : text;
        lines.add(key + " | " + deprecated((java.lang.reflect.AnnotatedElement) member) + shown);
    }

    /** Public, or protected and nested, in a type that is itself accessible; never anonymous, local or synthetic. */
    private static boolean accessible(Class<?> type) {
        if (type.isAnonymousClass() || type.isLocalClass() || type.isSynthetic()) {
            return false;
        }
        int m = type.getModifiers();
        Class<?> outer = type.getDeclaringClass();
        return outer == null ? Modifier.isPublic(m)
                : (Modifier.isPublic(m) || Modifier.isProtected(m)) && accessible(outer);
    }

    private static String declaration(Class<?> type) {
        StringBuilder out = new StringBuilder(type.toGenericString());
        Type superclass = type.getGenericSuperclass();
        if (superclass != null && superclass != Object.class && !type.isEnum() && !type.isRecord()) {
            out.append(" extends ").append(superclass.getTypeName());
        }
        Type[] interfaces = type.getGenericInterfaces();
        if (interfaces.length > 0) {
            out.append(type.isInterface() ? " extends " : " implements ").append(Arrays.stream(interfaces)
                    .map(Type::getTypeName).collect(Collectors.joining(", ")));
        }
        return out.toString();
    }

    private static String deprecated(java.lang.reflect.AnnotatedElement element) {
        return element.isAnnotationPresent(Deprecated.class) ? "@Deprecated " : "";
    }

    /** @return rag-core's compiled main classes ({@code target/classes}) */
    static Path classesFolder() throws URISyntaxException {
        Path folder = Path.of(RagPipeline.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertThat(folder).as("rag-core's classes as a folder").isDirectory();
        return folder;
    }
}
