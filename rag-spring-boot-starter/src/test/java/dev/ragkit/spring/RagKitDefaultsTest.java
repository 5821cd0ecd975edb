package dev.ragkit.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ragkit.RagConfig;
import dev.ragkit.RagPipeline;
import dev.ragkit.embedding.Embedder;
import dev.ragkit.testing.HashedBagOfWordsEmbedder;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * One default per setting: what the starter runs with when a property is not set is RagKit's own default
 * ({@link RagConfig#defaults()}), and the property's description (the IDE's completion) and the table of
 * docs/spring-boot.md say the same number.
 */
class RagKitDefaultsTest {
    private static final Path PAGE = Path.of("../docs/spring-boot.md");

    /** The defaults as RagConfig has them, by property, written as the docs write them. */
    private static Map<String, String> coreDefaults() {
        RagConfig d = RagConfig.defaults();
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("ragkit.confidence-threshold", Integer.toString(d.confidenceThreshold()));
        expected.put("ragkit.temperature", number(d.temperature()));
        expected.put("ragkit.min-relevance", number(d.minRelevance()));
        expected.put("ragkit.top-k", Integer.toString(d.topK()));
        expected.put("ragkit.model", d.chatModel());
        return expected;
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%s", value);
    }

    @Test
    void anEmptyConfigurationRunsWithRagKitsDefaults() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RagKitAutoConfiguration.class))
                .withBean(Embedder.class, () -> new HashedBagOfWordsEmbedder("word-hash-64", 64))
                .withPropertyValues("ragkit.backend.provider=extractive")
                .run(context -> {
                    RagConfig used = context.getBean(RagPipeline.class).config();
                    RagConfig defaults = RagConfig.defaults();
                    assertThat(used.confidenceThreshold()).isEqualTo(defaults.confidenceThreshold());
                    assertThat(used.temperature()).isEqualTo(defaults.temperature());
                    assertThat(used.minRelevance()).isEqualTo(defaults.minRelevance());
                    assertThat(used.topK()).isEqualTo(defaults.topK());
                });
    }

    @Test
    void thePropertyDescriptionsSayTheDefaultsRagKitUses() throws IOException {
        JsonNode metadata = starterMetadata();
        Map<String, String> descriptions = new LinkedHashMap<>();
        for (JsonNode p : metadata.path("properties")) {
            descriptions.put(p.path("name").asText(), p.path("description").asText());
        }
        coreDefaults().forEach((property, value) -> assertThat(descriptions.get(property)).as(property)
                .contains("default " + value));
    }

    @Test
    void thePagesTableSaysTheDefaultsRagKitUses() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        coreDefaults().forEach((property, value) -> {
            Matcher row = Pattern.compile("(?m)^\\| `" + Pattern.quote(property) + "` \\| ([^|]*) \\|").matcher(page);
            assertThat(row.find()).as("a row for " + property + " in " + PAGE).isTrue();
            assertThat(row.group(1).strip().replace("`", "")).as(property).isEqualTo(value);
        });
        assertThat(page).as("no other confidence threshold is shown")
                .doesNotContainPattern("confidence-threshold=(?!" + RagConfig.defaults().confidenceThreshold() + ")");
    }

    /** The configuration metadata the starter's annotation processor wrote (not Spring Boot's own). */
    private static JsonNode starterMetadata() throws IOException {
        Enumeration<URL> all = RagKitDefaultsTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json");
        while (all.hasMoreElements()) {
            try (InputStream in = all.nextElement().openStream()) {
                JsonNode node = new ObjectMapper().readTree(in);
                for (JsonNode group : node.path("groups")) {
                    if (group.path("sourceType").asText().equals(RagKitProperties.class.getName())) {
                        return node;
                    }
                }
            }
        }
        throw new AssertionError("no configuration metadata of " + RagKitProperties.class.getName());
    }
}
