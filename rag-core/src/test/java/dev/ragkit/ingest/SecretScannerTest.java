package dev.ragkit.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The line-by-line secret detector of issue 28 against the published token formats listed, with their sources, in
 * {@code src/test/resources/secrets/token-formats.tsv} (see the README beside it), and against prose and code that
 * only talk about secrets.
 */
final class SecretScannerTest {
    private static final String FORMATS = "/secrets/token-formats.tsv";

    /** The rows of the published list: kind, token template, line template, source, row number. */
    static Stream<Arguments> publishedFormats() throws IOException {
        List<Arguments> rows = new ArrayList<>();
        try (InputStream in = SecretScannerTest.class.getResourceAsStream(FORMATS);
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            int row = 0;
            for (String line; (line = reader.readLine()) != null; ) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split("\t");
                assertThat(cells).as(line).hasSize(4);
                rows.add(Arguments.of(cells[0], cells[1], cells[2], cells[3], ++row));
            }
        }
        assertThat(rows).hasSizeGreaterThanOrEqualTo(30);
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} {1} ({3})")
    @MethodSource("publishedFormats")
    void scan_tokenOfAPublishedFormat_isReplacedWhereItStandsAndTheLineKept(String kind, String template,
            String lineTemplate, String source, int row) {
        for (int sample = 0; sample < 5; sample++) {
            String token = SecretSamples.fill(template, new Random(row * 1000L + sample));
            String line = lineTemplate.replace("%s", token);
            List<String> document = List.of("# Notes", "", line, "Nothing else here.");

            SecretScanner.Scan scan = SecretScanner.scan(document);

            if (kind.equals("none")) {
                assertThat(scan.found()).as(line).isEmpty();
                assertThat(scan.redacted()).isEqualTo(document);
                continue;
            }
            assertThat(scan.redacted()).as(line).containsExactly("# Notes", "",
                    lineTemplate.replace("%s", "[REDACTED: " + kind + "]"), "Nothing else here.");
            assertThat(scan.found()).as(line).containsOnlyKeys(3);
            assertThat(scan.found().get(3)).containsExactly(kind);
            assertThat(String.join("\n", scan.redacted())).doesNotContain(token);
            assertThat(scan.mostlySecrets()).isFalse();
        }
    }

    @Test
    void scan_jsonWebTokenInACurlCommand_isReplacedWhole() {
        Random random = new Random(7);
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        byte[] signature = new byte[32];
        random.nextBytes(signature);
        String jwt = url.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(("{\"sub\":\"ops-bot\",\"iat\":" + (1_700_000_000 + random.nextInt(1000))
                + ",\"scope\":\"deploy\"}").getBytes(StandardCharsets.UTF_8)) + "." + url.encodeToString(signature);
        String line = "curl -H 'Authorization: Bearer " + jwt + "' https://deploy.internal/v1/jobs";

        SecretScanner.Scan scan = SecretScanner.scan(List.of(line));

        assertThat(scan.redacted()).containsExactly(
                "curl -H 'Authorization: Bearer [REDACTED: jwt]' https://deploy.internal/v1/jobs");
        assertThat(scan.found().get(1)).containsExactly("jwt");
    }

    @Test
    void scan_basicCredentialsDecodingToUserAndPassword_areReplacedButTheWordBasicIsNot() {
        String credentials = Base64.getEncoder().encodeToString(("deploy:" + SecretSamples.password(new Random(3)))
                .getBytes(StandardCharsets.US_ASCII));
        List<String> lines = List.of("Authorization: Basic " + credentials,
                "Use Basic authentication over TLS only; basic setups need nothing else.");

        SecretScanner.Scan scan = SecretScanner.scan(lines);

        assertThat(scan.redacted()).containsExactly("Authorization: Basic [REDACTED: basic-auth]", lines.get(1));
        assertThat(scan.found()).containsOnlyKeys(1);
    }

    @Test
    void scan_privateKeyBlockInARunbook_replacesEveryLineOfTheBlockAndKeepsTheProse() throws Exception {
        List<String> key = pem("PRIVATE KEY", rsaKey());
        List<String> document = new ArrayList<>(List.of("# Break-glass access", "", "Log in with this key:", "```"));
        document.addAll(key);
        document.addAll(List.of("```", "", "Then rotate it at once."));

        SecretScanner.Scan scan = SecretScanner.scan(document);

        assertThat(scan.redacted()).hasSameSizeAs(document);
        assertThat(scan.redacted().subList(0, 4)).isEqualTo(document.subList(0, 4));
        assertThat(scan.redacted().subList(4, 4 + key.size())).containsOnly("[REDACTED: private-key]");
        assertThat(scan.redacted().subList(4 + key.size(), document.size()))
                .containsExactly("```", "", "Then rotate it at once.");
        assertThat(scan.found().keySet()).hasSize(key.size()).first().isEqualTo(5);
        assertThat(scan.firstKeyBlock()).isEqualTo(5);
        assertThat(scan.mostlySecrets()).as("the block is most of this short page").isTrue();
    }

    @Test
    void scan_keyBlockWithoutItsEndLineOrOnOneLine_redactsTheKeyNotTheProseAfterIt() throws Exception {
        List<String> key = pem("RSA PRIVATE KEY", rsaKey());
        List<String> truncated = new ArrayList<>(key.subList(0, 4));          // pasted without its END line
        truncated.addAll(List.of("That was the old key; the new one is in the vault.", "Ask Ops for access."));
        String oneLine = "  \"private_key\": \"" + String.join("\\n", key) + "\\n\",";

        SecretScanner.Scan cut = SecretScanner.scan(truncated);
        SecretScanner.Scan json = SecretScanner.scan(List.of("{", oneLine, "  \"type\": \"service_account\"", "}"));

        assertThat(cut.redacted()).containsExactly("[REDACTED: private-key]", "[REDACTED: private-key]",
                "[REDACTED: private-key]", "[REDACTED: private-key]",
                "That was the old key; the new one is in the vault.", "Ask Ops for access.");
        assertThat(json.redacted()).containsExactly("{", "  [REDACTED: private-key]",
                "  \"type\": \"service_account\"", "}");
    }

    @Test
    void scan_severalSecretsOnOneLine_areEachReplacedAndTheWordsBetweenKept() {
        Random random = new Random(11);
        String[] aws = SecretSamples.awsKeyPair(random);
        String slack = SecretSamples.slackToken(random);
        String line = "AWS_ACCESS_KEY_ID=" + aws[0] + " AWS_SECRET_ACCESS_KEY=" + aws[1] + " notify " + slack;

        SecretScanner.Scan scan = SecretScanner.scan(List.of(line));

        assertThat(scan.redacted()).containsExactly("AWS_ACCESS_KEY_ID=[REDACTED: aws-access-key-id] "
                + "AWS_SECRET_ACCESS_KEY=[REDACTED: secret] notify [REDACTED: slack-token]");
        assertThat(scan.found().get(1)).containsExactly("aws-access-key-id", "secret", "slack-token");
    }

    @Test
    void scan_credentialAssignmentsInCode_literalsAreRedactedReferencesAreNot() {
        String password = SecretSamples.password(new Random(5));
        List<String> redacted = List.of(
                "String password = \"" + password + "\";",
                "val apiKey: String = \"" + password + "\"",
                "$db_pass = '" + password + "';",
                "connect(user=\"app\", password=\"" + password + "\")",
                "mysql -u app --password=" + password + " sales",
                "https://api.example.org/v1/items?access_token=" + password + "&page=2",
                "spring.datasource.password=" + password,
                "  password: " + password + "   # production",
                "define( 'DB_PASSWORD', '" + password + "' );",
                "Server=db01;Database=sales;User Id=app;Password=" + password + ";Encrypt=true",
                // a capitalised word is a value where the name starts the line, where the value has a digit, or
                // where the next line does not go on with the sentence
                "the wiki's admin password: Swordfish7",
                "The admin password: Swordfish",
                "Password: Swordfish",
                "  password: Swordfish",
                "password: Swordfish,",
                "passphrase = 'correct horse battery staple'");
        List<String> references = List.of(
                "password = getPassword();",
                "String password = request.getParameter(\"password\");",
                "password = config.db.password",
                "password = userInput;",
                "token = self.fetchToken()",
                "$password = $_POST['password'];",
                "password := os.Getenv(\"DB_PASSWORD\")",
                "password: ${DB_PASSWORD}",
                "export GITHUB_TOKEN=\"$(gh auth token)\"",
                "PASSWORD=$(vault kv get -field=password secret/db)",
                "db.password = DB_PASSWORD_FROM_ENV",
                "api_key: \"{{ vault_api_key }}\"",
                "if (password == null || token != expected) return;",
                "token: Optional[str] = None",
                "dsn = f\"postgres://{user}:{password}@{host}/sales\"",
                "url = \"mysql://%s:%s@%s/db\" % (user, password, host)",
                // between two string literals: the name ends one, the "value" is the code joining them
                "return \"Chunker[\" + counter.name() + \", maxTokens=\" + maxTokens + \", overlapTokens=\"",
                "$msg = 'api_key=' . $apiKey . ', user=' . $user;",
                "(tokens == 1 ? \" token\" : \" tokens\") + \" received\"",
                // a setting's name, not its value; a variable assigned in a statement
                "public static final String OPENAI_API_KEY = \"OPENAI_API_KEY\";",
                "static final String SECRETS_KEY = \"ragkit.secrets\";",
                "this.contextTokens = tokens;",
                // the last word of a string literal is no name: "bearer tokens" : "loopback only"
                "log(settings.requiresToken() ? \"bearer tokens\" : \"loopback only\", url);",
                // a field of a literal in code (a Rust debug dump): its capitalised value is a type or a variant
                "            struct_token: Struct,",
                "    access_token: Opaque,",
                // Node's crypto examples: a value that says what it stands for, a run of the alphabet
                "const password = 'Password used to generate key';", "const secret = 'abcdefg';");

        SecretScanner.Scan literal = SecretScanner.scan(redacted);
        SecretScanner.Scan code = SecretScanner.scan(references);

        assertThat(literal.found()).as(String.join("\n", literal.redacted())).hasSize(redacted.size());
        assertThat(literal.redacted()).noneMatch(l -> l.contains(password));
        assertThat(literal.redacted()).contains("mysql -u app --password=[REDACTED: password] sales",
                "https://api.example.org/v1/items?access_token=[REDACTED: secret]&page=2",
                "  password: [REDACTED: password]   # production",
                "define( 'DB_PASSWORD', '[REDACTED: password]' );",
                "Server=db01;Database=sales;User Id=app;Password=[REDACTED: password];Encrypt=true");
        assertThat(code.found()).as(String.join("\n", code.redacted())).isEmpty();
        assertThat(code.redacted()).isEqualTo(references);
    }

    @Test
    void scan_documentationsExampleHostsAndAbsolutePaths_areNoSecrets_realHostsStillAre() {
        // Node.js's API docs: credentials in URLs at RFC 2606's example hosts, a working directory in the environment
        List<String> docs = List.of("const myURL = new URL('https://abc:xyz@example.com');",
                "fetch('ftp://anonymous:guest123@files.example.org/pub')", "  PWD: '/Users/maciej',",
                "OLDPWD=/home/alice/projects");
        List<String> real = List.of("DATABASE_URL=postgres://app:Tr0ub4dor3@db.internal:5432/sales",
                "see https://abc:xyz@example.community/login", "PWD: 'Tr0ub4dor&3'");

        assertThat(SecretScanner.scan(docs).found()).as(String.join("\n", SecretScanner.scan(docs).redacted()))
                .isEmpty();
        assertThat(SecretScanner.scan(real).found()).containsOnlyKeys(1, 2, 3);
    }

    @Test
    void scan_aProgramsStatementAssigningAName_refersToTheSecret_butConfigurationAndCommentsHoldOne() {
        // Python's logging handlers: the names are variables; in a .env, a shell script or a comment the same
        // line holds the password itself
        List<String> python = List.of("            self.username, self.password = credentials",
                "        self.credentials = credentials", "# password = swordfish");

        SecretScanner.Scan program = SecretScanner.scan(python, true);
        SecretScanner.Scan configuration = SecretScanner.scan(python, false);

        assertThat(program.redacted().subList(0, 2)).isEqualTo(python.subList(0, 2));
        assertThat(program.redacted().get(2)).isEqualTo("# password = [REDACTED: password]");
        assertThat(configuration.found()).containsOnlyKeys(1, 2, 3);
    }

    @Test
    void scan_proseAndConfigurationThatOnlyTalkAboutSecrets_isLeftAsItIs() {
        List<String> prose = List.of(
                "The password policy says passwords expire after 90 days.",
                "A token bucket refills at 100 tokens per second.",
                "Rotate each secret every 90 days: see the vault runbook.",
                "Password: must be at least twelve characters long.",
                "The secret: stored in Vault, never in Git.",
                "Set `password: <your password>` in the form.",
                "api_key: <your API key>",
                "password: changeme",
                "token: ****************",
                "password=xxxxxxxxxx",
                "max_tokens = 4096",
                "tokenizer: cl100k_base",
                "secretary: Margaret Hamilton",
                "token_url: https://auth.example.org/oauth/token",
                "client_secret_file = ./secrets/client.json",
                "password_min_length: 12",
                "Authentication uses a bearer token from the identity provider.",
                "Use https://user:password@example.org/ as the format, with your own values.",
                "sk-learn, risk-assessment-framework-documentation and task-management-tools are unrelated.",
                "The example key is AKIA followed by sixteen characters.",
                "Keys look like ghp_ followed by 36 letters and digits.",
                "**Password:** ask the service desk",
                // a wrapped sentence going on after a colon (two lines of the README, the first once redacted)
                "An `ollama:<model>` embedder states no similarity scale and cannot count its tokens: RagKit",
                "measures its scale once, on RagKit's own unrelated and answering question-passage pairs.",
                "Three kinds of secrets: Passwords, tokens and keys.",
                // markdown inline code is a name or a call, not a quoted literal (two lines of docs/documents.md)
                "wiki page with a `password=` line, a `curl` example with a live `Bearer` token is replaced",
                "The report names the files and lines, never the secrets: `IndexReport.filesRedacted()` and");

        SecretScanner.Scan scan = SecretScanner.scan(prose);

        assertThat(scan.found()).as(String.join("\n", scan.redacted())).isEmpty();
        assertThat(scan.redacted()).isEqualTo(prose);
    }

    @Test
    void scan_envFileContent_isMostlySecretsButOneTokenInAPageIsNot() {
        Random random = new Random(13);
        List<String> env = List.of("# production", "DB_PASSWORD=" + SecretSamples.password(random),
                "GITHUB_TOKEN=" + SecretSamples.githubToken(random), "REGION=eu-west-1", "");
        List<String> page = List.of("# Deploy", "", "Run the pipeline.", "It uses " + SecretSamples.githubToken(random)
                + " for now.", "Ask Ops when it fails.");

        SecretScanner.Scan envScan = SecretScanner.scan(env);
        SecretScanner.Scan pageScan = SecretScanner.scan(page);

        assertThat(envScan.mostlySecrets()).isTrue();
        assertThat(envScan.describe()).isEqualTo("secrets (github-token, password) on 2 of its 3 lines");
        assertThat(pageScan.mostlySecrets()).isFalse();
        assertThat(pageScan.redactions()).isEqualTo(new SecretRedactions(List.of(4), List.of("github-token")));
    }

    @Test
    void scan_hostileMegabyteLines_finishInBoundedTime() {
        List<String> hostile = List.of("a=".repeat(500_000), "password=".repeat(100_000),
                "password=\"\\\" ".repeat(80_000), "key: x ".repeat(150_000), "token='".repeat(120_000),
                "define('password', '".repeat(50_000), "https://u:".repeat(100_000), "Bearer ".repeat(100_000));

        SecretScanner.Scan scan = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> SecretScanner.scan(hostile));

        assertThat(scan.redacted()).hasSize(hostile.size());
    }

    @Test
    void redactField_frontMatterCredentialOrATokenInAText_isReplaced() {
        String token = SecretSamples.githubToken(new Random(17));
        String password = SecretSamples.password(new Random(19));

        assertThat(SecretScanner.redactField("deploy_password", password)).isEqualTo("[REDACTED: password]");
        assertThat(SecretScanner.redactField("note", "use " + token + " to clone"))
                .isEqualTo("use [REDACTED: github-token] to clone");
        assertThat(SecretScanner.redactField("api_token", token)).isEqualTo("[REDACTED: github-token]");
        assertThat(SecretScanner.redactField("password_policy", "twelve characters")).isEqualTo("twelve characters");
        assertThat(SecretScanner.redactText("Deploy with " + token)).isEqualTo("Deploy with [REDACTED: github-token]");
        String plain = "Deploy runbook";
        assertThat(SecretScanner.redactText(plain)).isSameAs(plain);
    }

    @Test
    void secretKind_namesThatHoldACredentialAndNamesThatOnlyTalkAboutOne() {
        assertThat(List.of("DB_PASSWORD", "dbPass", "db.pw", "passphrase", "PGPASSWORD", "x-api-key", "apiKey",
                "APIKEY", "aws_secret_access_key", "client_secret", "githubToken", "SLACK_BOT_TOKEN", "credentials",
                "private_key", "signing_key")).allSatisfy(n -> assertThat(SecretScanner.secretKind(n)).as(n)
                .isNotNull());
        assertThat(List.of("tokenizer", "secretary", "bypass", "compass", "token_url", "password_min_length",
                "AWS_ACCESS_KEY_ID", "secret_name", "api_key_header", "key", "passenger", "monkey"))
                .allSatisfy(n -> assertThat(SecretScanner.secretKind(n)).as(n).isNull());
        assertThat(SecretScanner.secretKind("DB_PASSWORD")).isEqualTo("password");
        assertThat(SecretScanner.secretKind("api_key")).isEqualTo("secret");
    }

    private static byte[] rsaKey() throws NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        return generator.generateKeyPair().getPrivate().getEncoded();
    }

    /** A key as RFC 7468 writes it: BEGIN line, base64 in lines of 64, END line. */
    private static List<String> pem(String label, byte[] der) {
        List<String> lines = new ArrayList<>();
        lines.add("-----BEGIN " + label + "-----");
        String body = Base64.getEncoder().encodeToString(der);
        for (int i = 0; i < body.length(); i += 64) {
            lines.add(body.substring(i, Math.min(body.length(), i + 64)));
        }
        lines.add("-----END " + label + "-----");
        return lines;
    }
}
