package com.example.ask;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/spring-boot.md shows this module as it is built and tested: each code block marked
 * {@code <!-- sample: <path> -->} is that file of the repository, byte for byte (or, for
 * {@code pom.xml#dependencies}, the pom's dependencies between its {@code docs/spring-boot.md: dependencies} and
 * {@code end} comments), every source and resource of the application is on the page, and the RagKit version the page
 * names is this build's. So the page cannot drift from the application {@link AskApplicationTest} starts.
 */
class SpringBootPageTest {
    private static final Path ROOT = Path.of("..");
    private static final Path PAGE = ROOT.resolve("docs/spring-boot.md");
    private static final Path MODULE = ROOT.resolve("rag-spring-boot-sample");
    private static final Pattern BLOCK = Pattern.compile(
            "<!-- sample: (\\S+) -->\\s*\\n```[a-z]*\\n(.*?)\\n```", Pattern.DOTALL);

    /** The marked blocks of the page: path (relative to the repository) → text. */
    private static Map<String, String> blocks() throws IOException {
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher m = BLOCK.matcher(Files.readString(PAGE, StandardCharsets.UTF_8));
        while (m.find()) {
            assertThat(blocks.put(m.group(1), m.group(2))).as("one block for " + m.group(1)).isNull();
        }
        return blocks;
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8).stripTrailing();
    }

    @Test
    void everyMarkedBlockIsTheFileItNames() throws IOException {
        Map<String, String> blocks = blocks();
        assertThat(blocks).isNotEmpty();
        blocks.forEach((path, text) -> {
            try {
                String expected = path.endsWith("pom.xml#dependencies")
                        ? dependencies(ROOT.resolve(path.substring(0, path.indexOf('#'))))
                        : read(ROOT.resolve(path));
                assertThat(text).as("the block of " + path + " on " + PAGE).isEqualTo(expected);
            } catch (IOException e) {
                throw new AssertionError(path + ": " + e, e);
            }
        });
    }

    @Test
    void everySourceAndResourceOfTheApplicationIsOnThePage() throws IOException {
        Map<String, String> blocks = blocks();
        List<String> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(MODULE.resolve("src/main"))) {
            walk.filter(Files::isRegularFile).forEach(f -> files.add(ROOT.relativize(f).toString().replace('\\', '/')));
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);
        assertThat(blocks.keySet()).containsAll(files).contains("rag-spring-boot-sample/pom.xml#dependencies");
    }

    @Test
    void theVersionThePageNamesIsThisBuilds() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        Matcher named = Pattern.compile("<ragkit\\.version>([^<]+)</ragkit\\.version>").matcher(page);
        assertThat(named.find()).as("the page names the RagKit version").isTrue();
        Matcher built = Pattern.compile("<parent>.*?<version>([^<]+)</version>", Pattern.DOTALL)
                .matcher(Files.readString(MODULE.resolve("pom.xml"), StandardCharsets.UTF_8));
        assertThat(built.find()).isTrue();
        assertThat(named.group(1)).isEqualTo(built.group(1));
    }

    /** The pom's dependencies the page shows: the lines between the marker comments, without their indent. */
    private static String dependencies(Path pom) throws IOException {
        List<String> lines = Files.readAllLines(pom, StandardCharsets.UTF_8);
        int from = -1;
        int to = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.equals("<!-- docs/spring-boot.md: dependencies -->")) {
                from = i + 1;
            } else if (from >= 0 && to < 0 && l.equals("<!-- end -->")) {
                to = i;
            }
        }
        assertThat(from).as("the start marker in " + pom).isPositive();
        assertThat(to).as("the end marker in " + pom).isGreaterThan(from);
        List<String> shown = lines.subList(from, to);
        int indent = shown.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String l : shown) {
            out.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return out.toString().stripTrailing();
    }
}
