package dev.ragkit.ingest;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * Fake secrets in the documented formats, made at test time from a seeded {@link Random}: no token sits in the
 * repository as a literal (where a secret scanner such as GitHub push protection would flag it), and every run tests
 * the same ones. Templates as in {@code secrets/token-formats.tsv}.
 */
final class SecretSamples {
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final String DIGITS = "0123456789";
    private static final String HEX = "0123456789abcdef";
    private static final String BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    private static final String BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    private static final Pattern FIELD = Pattern.compile("\\{([auhdbsk])(\\d+)}");

    private SecretSamples() {
    }

    /**
     * Fills a template: {@code {aN}} base62, {@code {uN}} upper case and digits, {@code {dN}} digits, {@code {hN}}
     * hex, {@code {bN}} base64url, {@code {sN}} base64, {@code {k6}} the base62 CRC32 checksum of the random
     * characters so far (GitHub's and npm's token formats end with one); anything else is literal.
     */
    static String fill(String template, Random random) {
        StringBuilder out = new StringBuilder();
        StringBuilder randomPart = new StringBuilder();
        Matcher m = FIELD.matcher(template);
        int at = 0;
        while (m.find()) {
            out.append(template, at, m.start());
            int n = Integer.parseInt(m.group(2));
            String piece = switch (m.group(1).charAt(0)) {
                case 'a' -> chars(BASE62, n, random);
                case 'u' -> chars(UPPER, n, random);
                case 'd' -> chars(DIGITS, n, random);
                case 'h' -> chars(HEX, n, random);
                case 'b' -> chars(BASE64URL, n, random);
                case 's' -> chars(BASE64, n, random);
                default -> checksum(randomPart.toString(), n);
            };
            randomPart.append(piece);
            out.append(piece);
            at = m.end();
        }
        return out.append(template.substring(at)).toString();
    }

    /** @return a classic GitHub personal access token in the documented format */
    static String githubToken(Random random) {
        return fill("ghp_{a30}{k6}", random);
    }

    /** @return a Slack bot token in the documented format */
    static String slackToken(Random random) {
        return fill("xoxb-{d12}-{d13}-{a24}", random);
    }

    /** @return an AWS access key id and its 40-character secret access key */
    static String[] awsKeyPair(Random random) {
        return new String[] {fill("AKIA{u16}", random), fill("{a10}{s30}", random)};
    }

    /** @return a password-like value: letters and digits, one of each at least */
    static String password(Random random) {
        return fill("{a6}7{a6}", random);
    }

    private static String chars(String alphabet, int n, Random random) {
        StringBuilder s = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static String checksum(String text, int width) {
        CRC32 crc = new CRC32();
        crc.update(text.getBytes(StandardCharsets.US_ASCII));
        long value = crc.getValue();
        char[] digits = new char[width];
        for (int i = width - 1; i >= 0; i--) {
            digits[i] = BASE62.charAt((int) (value % 62));
            value /= 62;
        }
        return new String(digits);
    }
}
