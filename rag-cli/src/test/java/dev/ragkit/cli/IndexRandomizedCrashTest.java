package dev.ragkit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.ragkit.ingest.DocumentIngestor;
import dev.ragkit.store.Scope;
import dev.ragkit.store.StoredDocument;
import dev.ragkit.store.lucene.LuceneDocumentStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ragkit index} with {@code --rebuild}, {@code --sync}, {@code --include} and {@code --exclude}, run in child
 * JVMs over a folder whose files change between runs, and killed with {@code kill -9} at random points (while the
 * JVM starts, while it indexes, right after it announces its commit or its swap). The index lives in a folder of
 * user files named like Lucene's own ({@code _config.yml}, {@code segments-plan.txt}, …), and holds a file of the
 * user's inside it. After every run, killed or not: no user file was deleted or changed, the index opens, and it holds
 * exactly the documents of its last complete run (or, for a run killed after its commit, of that run; or, for a run
 * killed after a checkpoint of {@code --commit-every}, those of the last run with some of this run's documents).
 *
 * <p>Seeded: the seed is printed; run again with {@code -Dragkit.seed=<seed>} (and {@code -Dragkit.runs=<n>} for
 * more runs than the default 24).
 */
final class IndexRandomizedCrashTest {
    private static final String[] INCLUDES = {null, null, "**/*.md", "**/*.txt"};
    private static final String[] EXCLUDES = {null, null, "sub/**", "**/_*"};
    /** Lines a rebuild prints to standard error at the stages worth killing it at. */
    private static final String[] REBUILD_STAGES = {"building a new index in", "swapping the rebuilt index into"};
    /** The line another run prints right before it commits. */
    private static final String COMMIT_STAGE = "committing the index to";

    @TempDir
    Path cwd;

    @Test
    void index_randomRunsKilledAtRandomPoints_neverDeleteAUserFileAndKeepTheLastCompleteRun() throws Exception {
        long seed = Long.getLong("ragkit.seed", System.nanoTime());
        int runs = Integer.getInteger("ragkit.runs", 24);
        System.out.println("IndexRandomizedCrashTest seed " + seed + " (rerun with -Dragkit.seed=" + seed + ")");
        Random random = new Random(seed);
        Map<String, String> env = Map.of("OLLAMA_BASE_URL", CliRun.deadServerUrl());

        Path site = cwd.resolve("site");
        Path work = cwd.resolve("work");
        Path index = work.resolve("index");
        Map<String, String> userFiles = new TreeMap<>();                 // path under cwd -> content
        IndexSafetyCliTest.USER_FILES.forEach((name, text) -> userFiles.put("work/" + name, text));
        userFiles.put("work/.index.rebuild-notes.txt", "a note of the user's, named like the staging folder\n");
        IndexSafetyCliTest.USER_FILES.forEach((name, text) -> {
            if (!name.endsWith(".docx")) {                            // not a Word file: it would fail to parse
                userFiles.put("site/" + name, text);
            }
        });
        for (Map.Entry<String, String> f : userFiles.entrySet()) {
            CliRun.write(cwd, f.getKey(), f.getValue());
        }
        for (int i = 0; i < 16; i++) {
            CliRun.write(site, (i % 4 == 0 ? "sub/" : "") + "page-" + i + ".md", page(i, 0));
        }

        Map<String, String> indexed = Map.of();                        // the last complete run: path -> sha-256
        boolean readmeInIndex = false;
        boolean opened = false;                                         // an earlier run's index opened
        int killed = 0;
        for (int step = 0; step < runs; step++) {
            if (step > 0) {
                change(site, random);
            }
            List<String> args = new ArrayList<>(List.of("index", "site", "--index", "work/index"));
            boolean rebuild = random.nextInt(4) == 0;
            boolean sync = !rebuild && random.nextBoolean();
            String include = INCLUDES[random.nextInt(INCLUDES.length)];
            String exclude = EXCLUDES[random.nextInt(EXCLUDES.length)];
            if (rebuild) {
                args.add("--rebuild");
            }
            if (sync) {
                args.add("--sync");
            }
            if (include != null) {
                args.addAll(List.of("--include", include));
            }
            if (exclude != null) {
                args.addAll(List.of("--exclude", exclude));
            }
            Map<String, String> expected = expect(site, indexed, rebuild, sync, include, exclude);
            boolean kill = random.nextBoolean();
            String description = "step " + step + " (seed " + seed + "): " + String.join(" ", args)
                    + (kill ? ", killed" : "");

            boolean completed;
            try (CliChild child = CliChild.start(env, cwd, args.toArray(String[]::new))) {
                if (kill) {
                    String stage = rebuild ? REBUILD_STAGES[random.nextInt(REBUILD_STAGES.length)] : COMMIT_STAGE;
                    int delay;
                    if (random.nextInt(3) == 0 || !child.awaitErr(stage, 120)) {
                        delay = random.nextInt(2500);
                        stage = "start";
                    } else {
                        delay = random.nextInt(40);
                    }
                    Thread.sleep(delay);
                    completed = !child.alive();
                    child.kill();
                    killed += completed ? 0 : 1;
                    description += completed ? " (had finished)" : " " + delay + " ms after " + stage;
                } else {
                    completed = true;
                }
                if (completed) {
                    int code = child.exitCode(180);
                    assertThat(code).as(description + "\n" + child.err()).isZero();
                }
            }

            Map<String, String> before = indexed;
            Map<String, String> now = documents(index, description);
            if (now == null) {
                assertThat(opened).as(description + ": an index that opened after an earlier run no longer does")
                        .isFalse();
                now = Map.of();
            } else {
                opened = true;
            }
            if (completed || now.equals(expected)) {
                assertThat(now).as(description).isEqualTo(expected);
                indexed = expected;
            } else if (rebuild || now.equals(indexed)) {
                assertThat(now).as(description + ": the last complete run's documents").isEqualTo(indexed);
            } else {
                // a run that commits as it goes (--commit-every) killed midway: every document is the last complete
                // run's or this run's, none was lost, and the next run starts from what was committed
                Map<String, String> last = indexed;
                String what = description;
                assertThat(now.keySet()).as(what).containsAll(last.keySet());
                now.forEach((path, sha) -> assertThat(sha).as(what + ": " + path)
                        .isIn(last.get(path), expected.get(path)));
                indexed = now;
            }
            System.out.println("  " + description + (completed ? "" : expected.equals(before) ? ": nothing to change"
                    : now.equals(expected) ? ": holds the killed run's commit" : now.equals(before)
                    ? ": holds the last complete run" : ": holds the killed run's checkpoints"));
            CliRun health = CliRun.of(env, cwd, "health", "--index", "work/index");
            assertThat(health.out() + health.err()).as(description).doesNotContain("damaged");
            if (!indexed.isEmpty()) {                       // else no run got as far as the index's first commit
                assertThat(health.code()).as(description + "\n" + health.out() + health.err()).isZero();
            }
            for (Map.Entry<String, String> f : userFiles.entrySet()) {
                Path file = cwd.resolve(f.getKey());
                assertThat(file).as(description + ": " + f.getKey()).exists();
                assertThat(Files.readString(file, StandardCharsets.UTF_8)).as(description + ": " + f.getKey())
                        .isEqualTo(f.getValue());
            }
            if (completed) {
                assertThat(work.resolve(".index.rebuild")).as(description + ": the staging folder").doesNotExist();
            }
            if (!readmeInIndex && Files.exists(index.resolve("ragkit-index.txt"))) {
                // a file of the user's inside the index folder, named unlike Lucene's: left alone from now on
                userFiles.put("work/index/README.txt", "what this index is for\n");
                CliRun.write(cwd, "work/index/README.txt", "what this index is for\n");
                readmeInIndex = true;
            }
        }
        System.out.println("IndexRandomizedCrashTest: " + runs + " runs, " + killed + " killed before they finished");
    }

    private static String page(int i, int version) {
        return "# Page " + i + "\n\nPage " + i + " explains topic " + i + " in version " + version + ": who owns it, "
                + "what it costs, and where to ask.\n";
    }

    /** Adds, rewrites or deletes one of the generated pages; the user's files stay as they are. */
    private static void change(Path site, Random random) throws IOException {
        int i = random.nextInt(24);
        Path page = site.resolve((i % 4 == 0 ? "sub/" : "") + "page-" + i + ".md");
        int what = random.nextInt(3);
        if (what == 0 && Files.exists(page)) {
            Files.delete(page);
        } else {
            Files.createDirectories(page.getParent());
            Files.writeString(page, page(i, random.nextInt(1000)), StandardCharsets.UTF_8);
        }
    }

    /**
     * What the index holds after the run completes: every file the globs admit is indexed; {@code --sync} then drops
     * documents whose files are gone (never those the globs leave out); {@code --rebuild} holds only this run's.
     */
    private static Map<String, String> expect(Path site, Map<String, String> before, boolean rebuild, boolean sync,
            String include, String exclude) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (var walk = Files.walk(site)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                files.put(site.relativize(f).toString().replace('\\', '/'), sha256(Files.readAllBytes(f)));
            }
        }
        Predicate<String> admitted = path -> {
            String name = path.substring(path.lastIndexOf('/') + 1);
            boolean in = include == null || path.endsWith(include.substring("**/*".length()));
            boolean out = "sub/**".equals(exclude) && path.startsWith("sub/")
                    || "**/_*".equals(exclude) && name.startsWith("_");
            return in && !out;
        };
        Map<String, String> after = new TreeMap<>(rebuild ? Map.of() : before);
        files.forEach((path, sha) -> {
            if (admitted.test(path)) {
                after.put("site/" + path, sha);
            }
        });
        if (sync) {
            after.keySet().removeIf(p -> !files.containsKey(p.substring("site/".length())));
        }
        return after;
    }

    /**
     * @return the documents of tenant default in the index: path -> the sha-256 of the bytes they were made from;
     *         {@code null} when the folder holds no complete index (no run got as far as its first commit)
     */
    private static @Nullable Map<String, String> documents(Path index, String description) {
        if (!Files.isDirectory(index)) {
            return null;                            // no run got as far as creating it
        }
        Map<String, String> found = new HashMap<>();
        try (LuceneDocumentStore store = LuceneDocumentStore.builder().directory(index).readOnly(true).build()) {
            for (StoredDocument d : store.documents(Scope.unrestricted("default"))) {
                found.put(d.path(), d.metadata().get(DocumentIngestor.CONTENT_HASH_KEY));
            }
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (message.startsWith("there is no index at")) {
                return null;                        // created, but killed before its first commit
            }
            if (message.contains("stopped before it swapped its new index in")
                    && message.contains("the folder holds no complete index")) {
                return null;                        // a first rebuild, killed before its swap committed
            }
            fail(description + ": the index does not open: " + e.getMessage(), e);
        }
        return new TreeMap<>(found);
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
