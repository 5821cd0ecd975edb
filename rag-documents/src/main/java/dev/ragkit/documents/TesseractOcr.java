package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.jspecify.annotations.Nullable;

/**
 * Text recognition by the {@code tesseract} executable (Debian's {@code tesseract-ocr}), run as a child process per
 * page: the page image goes to it as a temporary PNG file, its text comes back in a temporary file; a page that
 * takes longer than the timeout has its process killed. Nothing stays behind: the temporary files are deleted and
 * an interrupted parse kills the process. Immutable and thread-safe.
 */
final class TesseractOcr {
    /** The install hint in reports where OCR would have read a scan. */
    static final String INSTALL_HINT = "install Tesseract to read scanned pages (Debian or Ubuntu: apt-get install "
            + "tesseract-ocr; other languages than English: tesseract-ocr-<lang>, e.g. tesseract-ocr-deu)";

    private final @Nullable Path executable;
    private final String language;
    private final Duration timeout;

    TesseractOcr(@Nullable Path executable, String language, Duration timeout) {
        this.executable = executable;
        this.language = language;
        this.timeout = timeout;
    }

    /** @return the {@code tesseract} executable on the {@code PATH}, or {@code null} when there is none */
    static @Nullable Path onPath() {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String folder : path.split(File.pathSeparator)) {
            for (String name : List.of("tesseract", "tesseract.exe")) {
                Path candidate = Path.of(folder.isEmpty() ? "." : folder, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    /** @return whether the executable was found */
    boolean available() {
        return executable != null;
    }

    /** @return the language(s) given to tesseract, e.g. {@code eng} or {@code deu+eng} */
    String language() {
        return language;
    }

    /**
     * Recognises the text of one page image.
     *
     * @param image the rendered page
     * @param path  the document's path (for messages)
     * @param page  the 1-based page (for messages)
     * @return the recognised text (may be empty)
     * @throws IngestException when tesseract fails (a missing language says which package to install), takes longer
     *                         than the timeout, or the parse is interrupted
     */
    String recognise(BufferedImage image, String path, int page) {
        if (executable == null) {
            throw new IllegalStateException("no tesseract executable");
        }
        Path in = null;
        Path out = null;
        Process process = null;
        try {
            in = Files.createTempFile("ragkit-ocr-", ".png");
            out = Files.createTempFile("ragkit-ocr-", ".txt");
            ImageIO.write(image, "png", in.toFile());
            String base = out.toString().substring(0, out.toString().length() - ".txt".length());
            process = new ProcessBuilder(executable.toString(), in.toString(), base, "-l", language)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IngestException(path, 0, "OCR of page " + page + " took longer than " + timeout.toSeconds()
                        + " s (the limit per page) and was stopped; raise the OCR timeout to read it", null);
            }
            if (process.exitValue() != 0) {
                throw new IngestException(path, 0, "OCR of page " + page + " failed (tesseract exit code "
                        + process.exitValue() + "); check that the language '" + language + "' is installed (Debian: "
                        + "apt-get install tesseract-ocr-" + language.split("\\+")[0].toLowerCase(Locale.ROOT)
                        + ") and that 'tesseract --list-langs' lists it", null);
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IngestException(path, 0, "interrupted during OCR of page " + page, e);
        } catch (IOException e) {
            throw new IngestException(path, 0, "OCR of page " + page + " could not run tesseract ("
                    + ParserMessages.reason(e) + ")", e);
        } finally {
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
            delete(in);
            delete(out);
        }
    }

    private static void delete(@Nullable Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                file.toFile().deleteOnExit();             // a virus scanner holding it, on Windows: later
            }
        }
    }
}
