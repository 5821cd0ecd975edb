package dev.ragkit.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Finds secrets in a document's text line by line, whatever its format and name, and replaces each one by
 * {@code [REDACTED: <kind>]} where it stands, so the line count (and every citation's line numbers) stay as they
 * are:
 *
 * <ul>
 *   <li><b>well-known token formats</b>, recognised by their documented prefix, alphabet and length: GitHub
 *       ({@code ghp_ gho_ ghu_ ghs_ ghr_ github_pat_}), GitLab ({@code glpat-}), npm ({@code npm_}), Slack
 *       ({@code xoxb- xoxp- xoxa- xoxr- xoxs- xoxe- xapp-} and incoming-webhook URLs), AWS access key ids
 *       ({@code AKIA}, {@code ASIA}), Google API keys ({@code AIza}), Stripe secret and restricted live keys
 *       ({@code sk_live_ rk_live_}), OpenAI-style keys ({@code sk-}, {@code sk-proj-} …), JSON Web Tokens, HTTP
 *       {@code Bearer} and {@code Basic} credentials, and the password in a URL ({@code scheme://user:pw@host}).
 *       Only the token is replaced; the rest of the line stays;</li>
 *   <li><b>credential assignments</b>: a name that says password, secret, token, API key, access key, private key
 *       or credentials, then {@code =}, {@code :}, {@code :=} or {@code =>}, then a value that is not trivial
 *       (see {@link #trivial}): {@code DB_PASSWORD=…}, {@code api_key: …}, {@code secret = "…"},
 *       {@code "token": "…"}, {@code <password>…</password>}. Only the value is replaced, so
 *       {@code DB_PASSWORD=[REDACTED: password]} still says where the password is set. Prose ("the password policy
 *       says …", a sentence going on after a colon: {@code … count its tokens: RagKit}), references
 *       ({@code password = getPassword()}, {@code ${DB_PASSWORD}}, {@code config.password}),
 *       placeholders ({@code <your token>}, {@code changeme}, {@code ****}) and numbers ({@code max_tokens = 4096})
 *       are left alone;</li>
 *   <li><b>private key blocks</b> ({@code -----BEGIN … PRIVATE KEY-----} to its {@code END} line): every line of
 *       the block is replaced whole.</li>
 * </ul>
 *
 * A document whose secret lines are at least two and more than half of the lines that say anything is "mostly
 * secrets" ({@link Scan#mostlySecrets()}): the ingestor skips it whole, as a {@code .env} file would be. Stateless
 * and thread-safe.
 */
final class SecretScanner {
    /**
     * The detector's version, recorded with every document indexed with redaction; raised when the rules change so
     * that re-indexing redacts unchanged files with the new rules.
     */
    static final int VERSION = 5;

    private static final String B62 = "[A-Za-z0-9]";
    private static final Pattern KEY_BEGIN = Pattern.compile("-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----");
    private static final Pattern KEY_END = Pattern.compile("-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----");
    /** A line inside a PEM or PGP armour block: base64, or an RFC 1421 header ({@code Proc-Type: 4,ENCRYPTED}). */
    private static final Pattern KEY_BODY = Pattern.compile("[A-Za-z0-9+/=]+|[A-Za-z][A-Za-z0-9-]*: ?.*");
    private static final Pattern COMMENT = Pattern.compile("^\\s*(?:#|//|;|--|<!--)");

    /** A token format: its kind, pattern (the secret is {@code group}), a check of the secret, and quick hints. */
    private record Format(String kind, Pattern pattern, int group, Predicate<String> accept, List<String> hints) {
        boolean mayOccurIn(String line) {
            for (String hint : hints) {
                if (line.contains(hint)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final List<Format> FORMATS = List.of(
            format("github-token", "\\bgh[pousr]_" + B62 + "{36,251}(?![A-Za-z0-9_])", 0, s -> true, "gh"),
            format("github-token", "\\bgithub_pat_[A-Za-z0-9_]{36,244}(?![A-Za-z0-9_])", 0, s -> true,
                    "github_pat_"),
            format("gitlab-token", "\\bglpat-[A-Za-z0-9_-]{20,}(?:\\.[A-Za-z0-9_-]+)*", 0, s -> true, "glpat-"),
            format("npm-token", "\\bnpm_" + B62 + "{36}(?![A-Za-z0-9_])", 0, s -> true, "npm_"),
            format("slack-token", "\\bxox(?:e\\.xox[bp]|[abeoprs])-[A-Za-z0-9][A-Za-z0-9-]{8,}", 0, s -> true,
                    "xox"),
            format("slack-token", "\\bxapp-\\d-[A-Za-z0-9][A-Za-z0-9-]{8,}", 0, s -> true, "xapp-"),
            format("slack-webhook", "https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{20,}",
                    0, s -> true, "hooks.slack.com"),
            format("aws-access-key-id", "\\b(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", 0, s -> true, "AKIA",
                    "ASIA"),
            format("google-api-key", "\\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])", 0, s -> true, "AIza"),
            format("stripe-key", "\\b[rs]k_live_" + B62 + "{10,247}(?![A-Za-z0-9_])", 0, s -> true, "k_live_"),
            format("openai-key", "\\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}", 0,
                    SecretScanner::mixedCaseAndDigits, "sk-"),
            format("jwt", "\\beyJ[A-Za-z0-9_-]{10,}\\.ey[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]*", 0, s -> true, "eyJ"),
            format("bearer-token", "(?i)\\bbearer\\s+([A-Za-z0-9._~+/-]{16,}=*)(?![A-Za-z0-9._~+/=$-])", 1,
                    s -> s.chars().anyMatch(Character::isDigit) && s.chars().anyMatch(Character::isLetter),
                    "earer", "EARER"),
            format("basic-auth", "(?i)\\bbasic\\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])", 1,
                    SecretScanner::userColonPassword, "asic", "ASIC"),
            // not at a host kept for documentation (RFC 2606: example.com, .net, .org and their subdomains)
            format("url-password", "\\b[A-Za-z][A-Za-z0-9+.-]*://[^\\s/?#@:]+:([^\\s/?#]+)@"
                    + "(?!(?:[A-Za-z0-9-]+\\.)*example\\.(?:com|net|org)(?![A-Za-z0-9.-]))", 1,
                    SecretScanner::urlPassword, "://"));

    // ---------------------------------------------------------------------------------------- assignments

    /**
     * The longest assigned value read, in characters: it bounds the work on a hostile line (a megabyte of
     * {@code a=a=a=…}); a longer secret is still found when it has a known format.
     */
    private static final int MAX_VALUE = 1000;
    /** The most credential names whose values one line's assignments check: bounds the work on a hostile line. */
    private static final int MAX_NAMES_PER_LINE = 1000;
    /** Words one of which a line must hold for its assignments to be read (every secret name holds one). */
    private static final List<String> NAME_HINTS = List.of("pass", "pw", "secret", "token", "key", "credential");
    /** The name: an identifier, maybe quoted or with a sigil, not in the middle of another one. */
    private static final String NAME = "(?<![A-Za-z0-9_.$@])[\"'$@]?(?<key>[A-Za-z_][A-Za-z0-9_.-]*)[\"']?";
    private static final String SEPARATOR = "\\s*(?:=>|:=|=(?![=>~])|:(?![:/=]))\\s*";
    /** {@code key = "value"}, {@code "key": 'value'}, {@code val key: String = "value"}: a quoted literal anywhere. */
    private static final Pattern QUOTED = Pattern.compile(NAME + "\\s*(?::\\s*[A-Za-z_][\\w.<>\\[\\]?]*\\s*)?"
            + SEPARATOR + "(?<q>[\"'`])(?<val>(?:\\\\.|(?!\\k<q>)[^\\\\]){0," + MAX_VALUE + "}+)\\k<q>");
    /** {@code key: value} or {@code key = value} where the value ends the line (a comment may follow). */
    private static final Pattern LAST = Pattern.compile(NAME + SEPARATOR
            + "(?<val>[^\\s\"'`]{1," + MAX_VALUE + "}+)(?:\\s+(?:#|//).*)?\\s*$");
    /** {@code key=value} written tight, anywhere in a line: a shell line, a URL query, a command's option. */
    private static final Pattern TIGHT = Pattern.compile(NAME + "=(?![=>~])(?<val>[^\\s\"'`]{1," + MAX_VALUE
            + "}+)");
    /** PHP's {@code define('DB_PASSWORD', 'value')} (WordPress configuration). */
    private static final Pattern DEFINE = Pattern.compile("\\bdefine\\s*\\(\\s*(?<kq>[\"'])"
            + "(?<key>[A-Za-z_][A-Za-z0-9_.-]*)\\k<kq>\\s*,\\s*(?<q>[\"'])(?<val>(?:\\\\.|(?!\\k<q>)[^\\\\]){0,"
            + MAX_VALUE + "}+)\\k<q>");
    /** {@code <password>value</password>}. */
    private static final Pattern ELEMENT = Pattern.compile(
            "<(?<key>[A-Za-z_][\\w.:-]*)(?:\\s[^>]{0,200}+)?>(?<val>[^<]{1," + MAX_VALUE + "}+)</\\k<key>>");

    /** Values that stand for a secret rather than being one: placeholders, templates, examples, booleans. */
    private static final Pattern PLACEHOLDER = Pattern.compile("(?i)^<.*>$|^\\$\\{|^\\$\\(|^\\$[A-Za-z_]|^%[A-Za-z_]"
            + "\\w*%$|^%(?:\\(\\w+\\))?s$|\\{\\{|\\{%|^#\\{|^\\{[^{}]*}$|^\\[.*]$|^!|\\.\\.\\.|…|x{4,}|\\*{3,}"
            + "|example|^(?:your|my|some)[_-]"
            + "|^(?:null|none|nil|undefined|true|false|yes|no|on|off|empty|blank|required|optional|string|str|text"
            + "|secret|secrets|password|passwd|pass|pwd|token|user|username|changeme|change[_-]?me|sample|dummy"
            + "|placeholder|redacted|hidden|masked|todo|tbd|unset|default|environment)$");
    /**
     * A value of several words that says what it stands for ({@code 'Password used to generate key'}, in Node's
     * crypto examples); a passphrase of words ({@code 'correct horse battery staple'}) names no secret.
     */
    private static final Pattern DESCRIBED = Pattern.compile(
            "(?i)^(?=.*\\s)(?=.*\\b(?:password|passphrase|passwd|secret|token|key)\\b).*$");
    private static final Pattern NUMBER = Pattern.compile("(?i)^[+-]?\\d[\\d.,_:]*(?:ms|s|m|h|d|k|kb|mb|gb|%)?$");
    /** A relative or home path, a Windows path or a URL (not a bare {@code /…}: base64 secrets may start so). */
    private static final Pattern PATH_OR_URL = Pattern.compile(
            "^(?:\\./|\\.\\./|~/|[A-Za-z]:\\\\)|^[A-Za-z][A-Za-z0-9+.-]*://|^/[\\w.-]+(?:/[\\w.-]+)+/?$");
    /** Unquoted values that are code: a call, an index, a dotted path, a camelCase or snake_case name, a CONSTANT. */
    private static final Pattern CODE = Pattern.compile("[()\\[\\]{}]|^[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+$"
            + "|^[a-z]+(?:[A-Z][a-z]+)+$|^[A-Za-z]+(?:_[A-Za-z]+)+$|^[A-Z]+$");
    /**
     * A quoted "value" that opens or closes with white space: the code between two string literals
     * ({@code "…, maxTokens=" + maxTokens + ", …"}) or a piece of a message ({@code " tokens"}); no secret does.
     */
    private static final Pattern EDGE_SPACE = Pattern.compile("^\\s|\\s$");
    /**
     * A quoted value that names a setting rather than holding one: an environment variable's name
     * ({@code OPENAI_API_KEY = "OPENAI_API_KEY"}) or a dotted property key ({@code "ragkit.tokens.prompt"}).
     */
    private static final Pattern SETTING_NAME = Pattern.compile(
            "[A-Z][A-Z0-9]*(?:_[A-Z][A-Z0-9]*)+|[a-z][a-z0-9-]*(?:\\.[a-z][a-z0-9-]*)+");
    /** An unquoted value of letters that ends a statement ({@code this.contextTokens = tokens;}): a variable. */
    private static final Pattern VARIABLE_STATEMENT = Pattern.compile("[A-Za-z_$]+;");
    /** A name in a program: what an unquoted value is outside a comment ({@code self.password = credentials}). */
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*;?");
    private static final int MIN_VALUE = 6;
    /**
     * A word of prose: letters only, capitalised, maybe joined to more capitalised words ({@code RagKit}). After a
     * colon that follows a word in the middle of a sentence ({@code … cannot count its tokens: RagKit measures …},
     * where a wrapped line ends), it is the sentence going on, not a value.
     */
    private static final Pattern PROSE_WORD = Pattern.compile("[A-Z][a-z]+(?:[A-Z][a-z]+)*");
    /** Punctuation closing an unquoted value's sentence ({@code secret: hunter22.}), not part of the value. */
    private static final Pattern TRAILING = Pattern.compile("[,;.)]+$");
    /** A line that goes on with the sentence of the line before: it starts with a lower-case word. */
    private static final Pattern GOES_ON = Pattern.compile("\\s*\\p{Ll}");
    /** What stands before a name in the middle of a sentence: a word of at least two letters and one space. */
    private static final Pattern WORD_BEFORE = Pattern.compile("(?<![\\w$@.-])[A-Za-z]{2,} $");

    /** Words that, as the last part of a name, say it is a password or another secret. */
    private static final Set<String> PASSWORD_WORDS = Set.of("password", "passwords", "passwd", "passphrase", "pass",
            "pwd", "pw");
    private static final List<String> SECRET_ENDINGS = List.of("password", "passwords", "passwd", "passphrase",
            "secret", "secrets", "token", "tokens", "credential", "credentials", "apikey", "apikeys", "accesskey",
            "privatekey", "authkey", "secretkey");
    private static final Set<String> KEY_QUALIFIERS = Set.of("api", "access", "private", "auth", "secret",
            "signing", "encryption", "master");
    /** What follows the secret word in a name that is about the secret, not the secret: {@code token_url}. */
    private static final Set<String> NOT_THE_SECRET = Set.of("url", "urls", "uri", "endpoint", "host", "file",
            "path", "dir", "type", "name", "names", "length", "len", "size", "count", "limit", "max", "min", "ttl",
            "timeout", "expiry", "expires", "expiration", "lifetime", "policy", "policies", "format", "header",
            "field", "param", "parameter", "env", "var", "variable", "prefix", "regex", "pattern", "rotation", "id",
            "ids", "enabled", "required", "hint", "label", "description", "location", "provider", "store", "manager");

    private SecretScanner() {
    }

    private static Format format(String kind, String regex, int group, Predicate<String> accept, String... hints) {
        return new Format(kind, Pattern.compile(regex), group, accept, List.of(hints));
    }

    /** One secret on a line: characters {@code start} to {@code end} are replaced by the marker of its kind. */
    private record Span(int start, int end, String kind) {
    }

    /**
     * What a scan found.
     *
     * @param redacted      the lines with every secret replaced (same count as the input)
     * @param found         for each 1-based line holding a secret, the kinds found there
     * @param meaningful    lines that say anything: neither blank nor only a comment (comments holding a secret
     *                      count)
     * @param firstKeyBlock the 1-based line where the first private key block begins, 0 when there is none
     */
    record Scan(List<String> redacted, SortedMap<Integer, SortedSet<String>> found, int meaningful,
            int firstKeyBlock) {
        /** @return whether at least two lines and more than half of the lines that say anything hold secrets */
        boolean mostlySecrets() {
            return found.size() >= 2 && found.size() * 2 > meaningful;
        }

        /** @return where the secrets are and of which kinds, without the secrets */
        SecretRedactions redactions() {
            SortedSet<String> kinds = new TreeSet<>();
            found.values().forEach(kinds::addAll);
            return new SecretRedactions(List.copyOf(found.keySet()), List.copyOf(kinds));
        }

        /** @return for people: which secrets on how many lines, e.g. for a skipped file */
        String describe() {
            return "secrets (" + String.join(", ", redactions().kinds()) + ") on " + found.size() + " of its "
                    + meaningful + " lines" + (firstKeyBlock > 0 ? ", a private key block at line " + firstKeyBlock
                    : "");
        }
    }

    /**
     * Scans a document's lines and redacts every secret found.
     *
     * @param lines the lines
     * @return the redacted lines and what was found where
     */
    static Scan scan(List<String> lines) {
        return scan(lines, false);
    }

    /**
     * Scans a document's lines and redacts every secret found.
     *
     * @param lines   the lines
     * @param program whether they are a program's source ({@link dev.ragkit.internal.CodeLanguages#isProgram}),
     *                where an unquoted value that is a name ({@code self.password = credentials}) refers to a secret
     *                rather than holding it, outside comments
     * @return the redacted lines and what was found where
     */
    static Scan scan(List<String> lines, boolean program) {
        List<String> redacted = new ArrayList<>(lines.size());
        SortedMap<Integer, SortedSet<String>> found = new TreeMap<>();
        int meaningful = 0;
        int firstKeyBlock = 0;
        int blockEnd = -1;                          // last 0-based line of the key block in progress
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (i > blockEnd && KEY_BEGIN.matcher(line).find()) {
                blockEnd = keyBlockEnd(lines, i);
                firstKeyBlock = firstKeyBlock == 0 ? i + 1 : firstKeyBlock;
            }
            if (i <= blockEnd) {
                redacted.add(indentOf(line) + marker("private-key"));
                found.computeIfAbsent(i + 1, k -> new TreeSet<>()).add("private-key");
                meaningful++;
                continue;
            }
            List<Span> spans = spans(line, i + 1 < lines.size() ? lines.get(i + 1) : null,
                    program && !COMMENT.matcher(line).find());
            if (spans.isEmpty()) {
                redacted.add(line);
                meaningful += line.isBlank() || COMMENT.matcher(line).find() ? 0 : 1;
                continue;
            }
            redacted.add(replace(line, spans));
            SortedSet<String> kinds = found.computeIfAbsent(i + 1, k -> new TreeSet<>());
            spans.forEach(s -> kinds.add(s.kind()));
            meaningful++;
        }
        return new Scan(redacted, found, meaningful, firstKeyBlock);
    }

    /**
     * Redacts the secrets in a piece of text that is not a line of the document: a title, a section, a summary.
     *
     * @param text the text (may span lines)
     * @return the text with every secret replaced; the same instance when it holds none
     */
    static String redactText(String text) {
        if (KEY_BEGIN.matcher(text).find()) {
            return marker("private-key");
        }
        if (text.indexOf('\n') < 0) {
            List<Span> spans = spans(text, null, false);
            return spans.isEmpty() ? text : replace(text, spans);
        }
        List<String> parts = List.of(text.split("\n", -1));
        List<String> out = new ArrayList<>(parts.size());
        boolean changed = false;
        for (String part : parts) {
            String r = redactText(part);
            changed |= r != part;
            out.add(r);
        }
        return changed ? String.join("\n", out) : text;
    }

    /**
     * Redacts a metadata field: a secret inside its value, or the whole value when the field's name says it is a
     * credential ({@code api_key: …} in front matter).
     *
     * @param name  the field's name
     * @param value its value
     * @return the value to keep; the same instance when it holds no secret
     */
    static String redactField(String name, String value) {
        String cleaned = redactText(value);
        String kind = secretKind(name);
        if (kind != null && !trivial(cleaned.strip(), true) && !cleaned.strip().startsWith("[REDACTED")) {
            return marker(kind);
        }
        return cleaned;
    }

    /** @return the marker that replaces a secret of this kind */
    static String marker(String kind) {
        return "[REDACTED: " + kind + "]";
    }

    /** The 0-based last line of the key block beginning at {@code begin}: its END line, or its last body line. */
    private static int keyBlockEnd(List<String> lines, int begin) {
        if (KEY_END.matcher(lines.get(begin)).find()) {
            return begin;                           // one line: "-----BEGIN …-----\nMII…\n-----END …-----"
        }
        int last = begin;
        for (int j = begin + 1; j < lines.size(); j++) {
            String body = lines.get(j).strip();
            if (KEY_END.matcher(body).find()) {
                return j;
            }
            if (!body.isEmpty() && !KEY_BODY.matcher(body).matches()) {
                return last;                        // prose after a block that never ends: keep the prose
            }
            last = body.isEmpty() ? last : j;
        }
        return last;
    }

    private static String indentOf(String line) {
        int i = 0;
        while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        return line.substring(0, i);
    }

    /** Every secret on one line, overlapping finds merged (the first found, a token format, names the kind). */
    private static List<Span> spans(String line, @Nullable String next, boolean statement) {
        List<Span> spans = new ArrayList<>();
        for (Format f : FORMATS) {
            if (!f.mayOccurIn(line)) {
                continue;
            }
            Matcher m = f.pattern().matcher(line);
            while (m.find()) {
                if (f.accept().test(m.group(f.group()))) {
                    spans.add(new Span(m.start(f.group()), m.end(f.group()), f.kind()));
                }
            }
        }
        if (!mayNameASecret(line)) {
            return merge(spans);
        }
        int[] budget = {MAX_NAMES_PER_LINE};
        if (line.indexOf('=') >= 0 || line.indexOf(':') >= 0) {
            assignments(QUOTED, line, null, true, statement, spans, budget);
            assignments(LAST, line, next, false, statement, spans, budget);
            assignments(TIGHT, line, null, false, statement, spans, budget);
        }
        if (line.contains("define")) {
            assignments(DEFINE, line, null, true, statement, spans, budget);
        }
        if (line.indexOf('<') >= 0) {
            assignments(ELEMENT, line, null, true, statement, spans, budget);
        }
        return merge(spans);
    }

    private static boolean mayNameASecret(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        for (String hint : NAME_HINTS) {
            if (lower.contains(hint)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Finds the assignments of one form whose name is a credential's and whose value is not trivial. A search goes on
     * after the name of an assignment that is not one ("User Id=app;Password=…" holds two), and after the value of
     * one that is.
     */
    private static void assignments(Pattern pattern, String line, @Nullable String next, boolean quoted,
            boolean statement, List<Span> spans, int[] budget) {
        Matcher m = pattern.matcher(line);
        int from = 0;
        while (from < line.length() && budget[0] > 0 && m.find(from)) {
            from = m.end("key");
            String kind = secretKind(m.group("key"));
            if (kind == null || closesALiteral(line, m)) {
                continue;
            }
            budget[0]--;
            int start = m.start("val");
            int end = m.end("val");
            if (!quoted && start > 0) {
                char before = line.charAt(m.start() == 0 ? 0 : m.start() - 1);
                if (before == '?' || before == '&') {   // a URL query: the value ends at the next parameter
                    end = Math.min(end, Math.min(indexOr(line, '&', start, end), indexOr(line, '#', start, end)));
                } else if (before == ';') {             // a connection string: Server=…;Password=…;Database=…
                    end = Math.min(end, indexOr(line, ';', start, end));
                }
            }
            String value = line.substring(start, end);
            // back quotes are markdown's inline code (or a shell's command): words with spaces between two spans
            // ("`password=` line, a `") are prose, and a name or a call (`IndexReport.filesRedacted()`) is code
            boolean code = quoted && start > 0 && line.charAt(start - 1) == '`';
            String bare = quoted ? value : TRAILING.matcher(value).replaceAll("");
            boolean prose = code && value.chars().anyMatch(Character::isWhitespace)
                    || !quoted && sentenceGoesOn(line, m, bare, next);
            // a variable ending a statement ("this.contextTokens = tokens;") is code, though "tokens" alone is a word;
            // in a program's statement any name is
            boolean variable = !quoted && (statement ? IDENTIFIER : VARIABLE_STATEMENT).matcher(value).matches()
                    || !quoted && literalsField(line, m, value, bare);
            if (!prose && !variable && !trivial(bare, quoted && !code)) {
                spans.add(new Span(start, end, kind));
                from = Math.max(from, end);
            }
        }
    }

    /**
     * Whether an unquoted assignment ending its line is a sentence going on after a colon: the name follows a word in
     * the middle of a sentence, the value is a capitalised word, and the next line goes on in lower case ("… cannot
     * count its tokens: RagKit" / "measures its scale once …", a wrapped paragraph). A name at the start of a line
     * ({@code Password: Swordfish}), a value with a digit or a sign, or a value the line after does not go on from
     * ({@code The admin password: Swordfish} then a new sentence) is read as a value still.
     */
    private static boolean sentenceGoesOn(String line, Matcher m, String value, @Nullable String next) {
        return next != null && GOES_ON.matcher(next).lookingAt()
                && line.substring(m.end("key"), m.start("val")).indexOf(':') >= 0
                && WORD_BEFORE.matcher(line.substring(Math.max(0, m.start() - 40), m.start())).find()
                && PROSE_WORD.matcher(value).matches();
    }

    /**
     * Whether an unquoted assignment is a field of a literal in code: indented, its value one capitalised word ended
     * by a comma ({@code struct_token: Struct,} in a debug dump, {@code access_token: Opaque,} in a literal). Such
     * a word is a type, a variant or a variable; a password stands unquoted only in configuration, where no comma
     * ends it ({@code   password: Swordfish}).
     */
    private static boolean literalsField(String line, Matcher m, String value, String bare) {
        return value.endsWith(",") && value.length() == bare.length() + 1 && PROSE_WORD.matcher(bare).matches()
                && line.substring(0, m.start("key")).isBlank() && m.start("key") > 0;
    }

    /**
     * Whether the name is the last word of a string literal rather than a name: a quote closes it that did not open
     * it ({@code requiresToken() ? "bearer tokens" : "loopback only"}), where {@code "tokens": "…"} is a name.
     */
    private static boolean closesALiteral(String line, Matcher m) {
        int after = m.end("key");
        if (after >= line.length() || line.charAt(after) != '"' && line.charAt(after) != '\'') {
            return false;
        }
        int before = m.start("key") - 1;
        return before < 0 || line.charAt(before) != line.charAt(after);
    }

    /** @return the index of {@code c} in {@code line} from {@code from}, or {@code otherwise} when absent */
    private static int indexOr(String line, char c, int from, int otherwise) {
        int at = line.indexOf(c, from);
        return at < 0 ? otherwise : at;
    }

    private static List<Span> merge(List<Span> spans) {
        if (spans.size() < 2) {
            return spans;
        }
        List<Span> byStart = new ArrayList<>(spans);
        byStart.sort(Comparator.comparingInt(Span::start));
        List<Span> merged = new ArrayList<>();
        Map<Span, Integer> order = new IdentityHashMap<>();
        for (int i = 0; i < spans.size(); i++) {
            order.put(spans.get(i), i);
        }
        Span current = byStart.get(0);
        int currentOrder = order.get(current);
        for (Span next : byStart.subList(1, byStart.size())) {
            if (next.start() < current.end()) {
                int nextOrder = order.get(next);
                String kind = nextOrder < currentOrder ? next.kind() : current.kind();
                currentOrder = Math.min(currentOrder, nextOrder);
                current = new Span(current.start(), Math.max(current.end(), next.end()), kind);
            } else {
                merged.add(current);
                current = next;
                currentOrder = order.get(next);
            }
        }
        merged.add(current);
        return merged;
    }

    private static String replace(String line, List<Span> spans) {
        StringBuilder out = new StringBuilder(line.length());
        int at = 0;
        for (Span s : spans) {
            out.append(line, at, s.start()).append(marker(s.kind()));
            at = s.end();
        }
        return out.append(line, at, line.length()).toString();
    }

    /**
     * Whether a name says its value is a credential, and which kind: {@code password} for passwords, else
     * {@code secret}. The secret word must end a part of the name ({@code DB_PASSWORD}, {@code githubToken},
     * {@code x-api-key}, not {@code tokenizer} or {@code secretary}), and what follows it must not say the value
     * is about the secret rather than the secret ({@code token_url}, {@code password_min_length}).
     *
     * @return the kind, or {@code null} when the name is not a credential's
     */
    static @Nullable String secretKind(String name) {
        List<String> parts = parts(name);
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i);
            boolean secret = false;
            for (String ending : SECRET_ENDINGS) {
                secret |= part.endsWith(ending);
            }
            secret |= PASSWORD_WORDS.contains(part);
            secret |= (part.equals("key") || part.equals("keys")) && i > 0 && KEY_QUALIFIERS.contains(parts.get(i - 1));
            if (!secret || i + 1 < parts.size() && NOT_THE_SECRET.contains(parts.get(i + 1))) {
                continue;
            }
            for (String word : PASSWORD_WORDS) {
                if (part.endsWith(word) && (word.length() > 3 || part.equals(word))) {
                    return "password";
                }
            }
            return "secret";
        }
        return null;
    }

    /** A name's parts, lower case: split at {@code _ . -} and where lower case meets upper case. */
    private static List<String> parts(String name) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean camel = Character.isUpperCase(c) && i > 0 && Character.isLowerCase(name.charAt(i - 1));
            if (c == '_' || c == '.' || c == '-' || camel) {
                if (part.length() > 0) {
                    parts.add(part.toString().toLowerCase(Locale.ROOT));
                    part.setLength(0);
                }
                if (!camel) {
                    continue;
                }
            }
            part.append(c);
        }
        if (part.length() > 0) {
            parts.add(part.toString().toLowerCase(Locale.ROOT));
        }
        return parts;
    }

    /**
     * Whether an assigned value is not a secret: shorter than six characters, a placeholder or template
     * ({@code <your token>}, {@code ${DB_PASSWORD}}, {@code {{ vault }}}, {@code ****}, {@code changeme}, anything
     * with "example", words naming the secret, a run of the alphabet), a number or duration, a relative path or URL;
     * and, unquoted, code: a call, an index, a dotted path, a camelCase or snake_case name or an upper-case constant
     * ({@code getPassword()}, {@code config.password}, {@code userInput}, {@code DB_PASSWORD}); quoted, text with white
     * space at an edge (the code joining two string literals, {@code " + maxTokens + "}) or the name of a setting
     * ({@code "OPENAI_API_KEY"}, {@code "ragkit.secrets"}).
     */
    static boolean trivial(String value, boolean quoted) {
        if (value.length() < MIN_VALUE || PLACEHOLDER.matcher(value).find() || NUMBER.matcher(value).matches()
                || PATH_OR_URL.matcher(value).find()) {
            return true;
        }
        if (value.chars().distinct().count() == 1 || DESCRIBED.matcher(value).matches() || ascending(value)) {
            return true;
        }
        return quoted ? EDGE_SPACE.matcher(value).find() || SETTING_NAME.matcher(value).matches()
                : CODE.matcher(value).find();
    }

    /** Whether each character follows the one before in the alphabet: {@code abcdefg}, a typed-in example. */
    private static boolean ascending(String value) {
        for (int i = 1; i < value.length(); i++) {
            if (value.charAt(i) != value.charAt(i - 1) + 1) {
                return false;
            }
        }
        return true;
    }

    private static boolean mixedCaseAndDigits(String token) {
        return token.chars().anyMatch(Character::isUpperCase) && token.chars().anyMatch(Character::isLowerCase)
                && token.chars().anyMatch(Character::isDigit);
    }

    /** Whether the password of a URL is one, not a placeholder ({@code user:password@}, {@code :${PW}@}). */
    private static boolean urlPassword(String password) {
        return password.length() >= 3 && !PLACEHOLDER.matcher(password).find();
    }

    /** Whether a {@code Basic} credential decodes to {@code user:password} in printable ASCII (RFC 7617). */
    private static boolean userColonPassword(String encoded) {
        try {
            String decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.ISO_8859_1);
            return decoded.indexOf(':') > 0 && decoded.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
