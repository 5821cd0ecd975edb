package dev.ragkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * What {@code ragkit --version} prints: the version and the commit this build was made from, as the build wrote them
 * into {@code dev/ragkit/cli/build.properties}, and the Java that runs it. A build from a source tree without git
 * history has no commit: it reads {@value #UNKNOWN}.
 *
 * @param version the project's version, e.g. {@code 0.1.0-SNAPSHOT}
 * @param commit  the abbreviated commit id (7 or more hex digits), or {@value #UNKNOWN}
 */
record BuildInfo(String version, String commit) {
    /** The commit of a build made without git history. */
    static final String UNKNOWN = "unknown";
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,40}");

    /** @return this build's version and commit */
    static BuildInfo current() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ragkit's build.properties", e);
        }
        return of(properties.getProperty("version"), properties.getProperty("commit"));
    }

    /**
     * @param version the version as filtered into the properties, or {@code null}
     * @param commit  the commit as filtered, or {@code null}; a placeholder the build did not fill is no commit
     * @return the build's information, {@value #UNKNOWN} for what the build did not fill in
     */
    static BuildInfo of(String version, String commit) {
        String v = version == null || version.isBlank() || version.contains("${") ? UNKNOWN : version.strip();
        String c = commit == null ? "" : commit.strip().toLowerCase(Locale.ROOT);
        return new BuildInfo(v, COMMIT.matcher(c).matches() ? c : UNKNOWN);
    }

    /** The lines of {@code ragkit --version}. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            BuildInfo build = current();
            return new String[] {"ragkit " + build.version() + " (commit " + build.commit() + ")",
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + "), "
                        + System.getProperty("os.name") + " " + System.getProperty("os.arch")};
        }
    }
}
