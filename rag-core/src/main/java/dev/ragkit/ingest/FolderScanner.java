package dev.ragkit.ingest;

import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.SkipReason;

import dev.ragkit.error.IngestException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Walks a folder and decides, from names and file attributes alone — never opening a file — which files an indexer
 * reads, and why each other file is left alone: secrets by name, hidden, excluded by the globs, no parser for its
 * type, too large for its parser, links leaving the root or looping, not a regular file. Depth-first, each folder's
 * entries in name order; symbolic links inside the root are followed, to files and folders. Immutable and
 * thread-safe; one {@link Scan} per walk.
 */
final class FolderScanner {
    /** Extensions of the legacy binary Office formats, which no parser reads. */
    private static final Set<String> LEGACY_OFFICE = Set.of("doc", "xls", "ppt");
    private final List<String> include;
    private final List<String> exclude;
    private final DocumentParsers parsers;
    private final @Nullable Long maxFileBytes;

    /**
     * @param include      globs a root-relative path must match (one of them) to be read
     * @param exclude      globs that leave a matching path out, whatever the include globs say
     * @param parsers      which types can be read, and each parser's size limit
     * @param maxFileBytes a size limit for every type instead of each parser's own, or {@code null}
     */
    FolderScanner(List<String> include, List<String> exclude, DocumentParsers parsers, @Nullable Long maxFileBytes) {
        this.include = List.copyOf(include);
        this.exclude = List.copyOf(exclude);
        this.parsers = parsers;
        this.maxFileBytes = maxFileBytes;
    }

    /**
     * A file to read: its root-relative path, the real path to open, its parser by extension, size limit, and size
     * when the walk met it (what progress is measured in).
     */
    record Candidate(String path, Path file, DocumentParser parser, long maxBytes, long size) {
    }

    /** A folder or file the walk could not look at. */
    record Failure(IndexReport.FailedFile report, IngestException error) {
    }

    /**
     * Walks {@code root}.
     *
     * @throws IngestException when the root does not exist, is not a folder or cannot be listed
     */
    Scan scan(Path root, BooleanSupplier cancelRequested) {
        Path realRoot = realFolder(root);
        FileSystem fs = realRoot.getFileSystem();
        Scan scan = new Scan(realRoot, matchers(fs, include), matchers(fs, exclude), cancelRequested);
        scan.folder(realRoot, "");
        scan.candidates.sort(Comparator.comparing(Candidate::path));
        scan.skipped.sort(Comparator.comparing(IndexReport.SkippedFile::path));
        scan.failed.sort(Comparator.comparing(f -> f.report().path()));
        return scan;
    }

    static boolean isSecretName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith(".env") || lower.endsWith(".pem") || lower.endsWith(".key");
    }

    private static Path realFolder(Path root) {
        Path real;
        try {
            real = root.toRealPath();
        } catch (NoSuchFileException e) {
            throw new IngestException(root.toString(), 0,
                    "no such folder; pass the folder that holds the documents", e);
        } catch (IOException e) {
            throw new IngestException(root.toString(), 0, "the folder cannot be opened: " + e, e);
        }
        if (!Files.isDirectory(real)) {
            throw new IngestException(root.toString(), 0,
                    "is a file, not a folder; pass the folder that holds the documents", null);
        }
        return real;
    }

    private static List<PathMatcher> matchers(FileSystem fs, List<String> globs) {
        List<PathMatcher> matchers = new ArrayList<>();
        for (String glob : globs) {
            matchers.add(fs.getPathMatcher("glob:" + glob));
            if (glob.startsWith("**/")) {
                // Java's "**/" needs at least one folder; let the glob match files in the root too.
                matchers.add(fs.getPathMatcher("glob:" + glob.substring(3)));
            }
        }
        return matchers;
    }

    /** One walk of a root: what it found to read, and what it left alone and why. */
    final class Scan {
        final Path realRoot;
        private final List<PathMatcher> includes;
        private final List<PathMatcher> excludes;
        private final BooleanSupplier cancelRequested;
        final List<Candidate> candidates = new ArrayList<>();
        final List<IndexReport.SkippedFile> skipped = new ArrayList<>();
        final List<Failure> failed = new ArrayList<>();
        final List<String> unlistedFolders = new ArrayList<>();
        /** Real paths of the folders being walked, from the root down: a link to one of them is a loop. */
        private final Set<Path> open = new HashSet<>();
        boolean cancelled;

        Scan(Path realRoot, List<PathMatcher> includes, List<PathMatcher> excludes, BooleanSupplier cancel) {
            this.realRoot = realRoot;
            this.includes = includes;
            this.excludes = excludes;
            this.cancelRequested = cancel;
        }

        /**
         * @return every root-relative path the walk met: read, skipped for any reason (excluded by the globs, of an
         *         unsupported type, too large, …) or failed — what sync must keep, since each of these files exists
         */
        Set<String> seen() {
            Set<String> present = new HashSet<>();
            candidates.forEach(c -> present.add(c.path()));
            skipped.forEach(s -> present.add(s.path()));
            failed.forEach(f -> present.add(f.report().path()));
            return present;
        }

        /** @return whether {@code path} lies under a folder that could not be listed (its files may still exist) */
        boolean underUnlistedFolder(String path) {
            for (String folder : unlistedFolders) {
                if (folder.isEmpty() || path.startsWith(folder + "/")) {
                    return true;
                }
            }
            return false;
        }

        void folder(Path realFolder, String path) {
            if (cancelled || cancelRequested.getAsBoolean()) {
                cancelled = true;
                return;
            }
            List<Path> entries = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(realFolder)) {
                for (Path entry : stream) {
                    entries.add(entry);
                }
            } catch (IOException | RuntimeException e) {
                if (path.isEmpty()) {
                    throw new IngestException(realFolder.toString(), 0, "the folder cannot be listed: " + e, e);
                }
                unlistedFolders.add(path);
                fail(path, "the folder cannot be listed: " + e, e);
                return;
            }
            entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
            open.add(realFolder);
            try {
                for (Path entry : entries) {
                    if (cancelled) {
                        return;
                    }
                    String name = entry.getFileName().toString();
                    entry(entry, name, path.isEmpty() ? name : path + "/" + name);
                }
            } finally {
                open.remove(realFolder);
            }
        }

        private void entry(Path entry, String name, String path) {
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                fail(path, "cannot read the file's attributes: " + e, e);
                return;
            }
            boolean folder = attributes.isDirectory();
            if (!folder && isSecretName(name)) {
                skip(path, SkipReason.SECRET, "never read, whatever the include globs say");
                return;
            }
            if (name.startsWith(".")) {
                skip(path, SkipReason.HIDDEN, folder ? "hidden folder, not entered" : "hidden file");
                return;
            }
            if (attributes.isSymbolicLink()) {
                link(entry, path);
            } else if (folder) {
                folder(entry, path);
            } else {
                file(entry, path, attributes);
            }
        }

        private void link(Path link, String path) {
            Path target;
            BasicFileAttributes attributes;
            try {
                target = link.toRealPath();
                attributes = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                skip(path, SkipReason.BROKEN_SYMLINK, "cannot be resolved: " + e.getMessage());
                return;
            }
            if (!target.startsWith(realRoot)) {
                skip(path, SkipReason.SYMLINK_OUTSIDE_ROOT, "points outside the root; not followed");
                return;
            }
            if (attributes.isDirectory()) {
                if (open.contains(target)) {
                    skip(path, SkipReason.SYMLINK_LOOP, "points to a folder that contains it; not followed");
                } else {
                    folder(target, path);
                }
            } else {
                file(target, path, attributes);
            }
        }

        private void file(Path file, String path, BasicFileAttributes attributes) {
            Path relative = realRoot.getFileSystem().getPath(path);
            if (!matches(includes, relative) || matches(excludes, relative)) {
                skip(path, SkipReason.EXCLUDED, matches(excludes, relative) ? "matches an exclude glob"
                        : "matches no include glob");
                return;
            }
            DocumentParser parser = parsers.forPath(path).orElse(null);
            if (parser == null) {
                String extension = DocumentPaths.extension(path);
                skip(path, SkipReason.UNSUPPORTED_TYPE, extension.isEmpty() ? "no extension and no parser for it"
                        : LEGACY_OFFICE.contains(extension) ? "a legacy Office format; save it as ."
                        + extension + "x or as PDF to index it" : "no parser reads ." + extension + " files");
                return;
            }
            long limit = maxFileBytes != null ? maxFileBytes : parser.maxBytes();
            if (!attributes.isRegularFile()) {
                skip(path, SkipReason.NOT_REGULAR_FILE, "a pipe, socket or device; not opened");
            } else if (attributes.size() > limit) {
                skip(path, SkipReason.TOO_LARGE, attributes.size() + " bytes, limit " + limit + " for "
                        + parser.id() + " files");
            } else {
                candidates.add(new Candidate(path, file, parser, limit, attributes.size()));
            }
        }

        private boolean matches(List<PathMatcher> matchers, Path relative) {
            for (PathMatcher matcher : matchers) {
                if (matcher.matches(relative)) {
                    return true;
                }
            }
            return false;
        }

        private void skip(String path, SkipReason reason, String detail) {
            skipped.add(new IndexReport.SkippedFile(path, reason, detail));
        }

        private void fail(String path, String message, Exception cause) {
            IngestException error = new IngestException(path, 0, message, cause);
            failed.add(new Failure(new IndexReport.FailedFile(path, error.getMessage()), error));
        }
    }
}
