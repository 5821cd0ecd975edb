package dev.ragkit.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** A subcommand: built with the {@link CliContext}, returns its exit code. */
abstract class CliCommand implements Callable<Integer> {
    final CliContext context;

    CliCommand(CliContext context) {
        this.context = context;
    }

    /**
     * @param value  what the user typed
     * @param option the option's name, for the message
     * @return the value, stripped
     * @throws UsageException when it is blank
     */
    static String requireText(String value, String option) {
        if (value == null || value.isBlank()) {
            throw new UsageException(option + " is blank; give a value, e.g. " + option + " acme");
        }
        return value.strip();
    }

    /**
     * Reads a comma-separated list of tags, as {@code --tags} takes it (also repeated: {@code --tags a,b --tags c}).
     * Every element must hold a tag: {@code ","}, {@code ",,"}, {@code "a,,b"}, {@code "a,"} and a blank value are
     * all refused alike, since none of them can mean what was typed (leaving the option out means no tags).
     *
     * @param values what the user typed, one string per use of the option
     * @param option the option's name, for the message
     * @return the tags, stripped, in the order given
     * @throws UsageException when a value or one of its elements is blank
     */
    static List<String> tags(List<String> values, String option) {
        List<String> tags = new ArrayList<>();
        for (String value : values) {
            if (value == null || value.isBlank()) {
                throw new UsageException(option + " is blank; name the tags, e.g. " + option + " hr,finance, or leave "
                        + option + " out for no tags");
            }
            String[] parts = value.split(",", -1);
            for (int i = 0; i < parts.length; i++) {
                String tag = parts[i].strip();
                if (tag.isEmpty()) {
                    throw new UsageException(option + " '" + value + "': tag " + (i + 1) + " of " + parts.length
                            + " is empty; separate the tags with single commas and no comma at either end, e.g. "
                            + option + " hr,finance");
                }
                tags.add(tag);
            }
        }
        return tags;
    }

    /** Jackson for what {@code --json} prints: records as objects, durations as milliseconds. */
    static ObjectMapper json() {
        SimpleModule durations = new SimpleModule().addSerializer(Duration.class, new StdSerializer<>(Duration.class) {
            @Override
            public void serialize(Duration d, JsonGenerator gen, SerializerProvider provider) throws IOException {
                gen.writeNumber(d.toNanos() / 1e6);
            }
        });
        return new ObjectMapper().registerModule(durations).enable(SerializationFeature.INDENT_OUTPUT);
    }
}
