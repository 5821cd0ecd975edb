package dev.ragkit.documents;

import dev.ragkit.error.IngestException;
import dev.ragkit.parse.ContentSniffer;
import dev.ragkit.parse.DocumentParser;
import dev.ragkit.parse.DocumentParsers;
import dev.ragkit.parse.DocumentPaths;
import dev.ragkit.parse.DocumentSkippedException;
import dev.ragkit.parse.DocumentSource;
import dev.ragkit.parse.ParsedDocument;
import dev.ragkit.parse.SkipReason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.james.mime4j.MimeException;
import org.apache.james.mime4j.dom.Body;
import org.apache.james.mime4j.dom.Entity;
import org.apache.james.mime4j.dom.Message;
import org.apache.james.mime4j.dom.Multipart;
import org.apache.james.mime4j.dom.SingleBody;
import org.apache.james.mime4j.dom.TextBody;
import org.apache.james.mime4j.dom.address.Address;
import org.apache.james.mime4j.dom.address.AddressList;
import org.apache.james.mime4j.dom.address.Group;
import org.apache.james.mime4j.dom.address.Mailbox;
import org.apache.james.mime4j.dom.address.MailboxList;
import org.apache.james.mime4j.message.DefaultMessageBuilder;
import org.apache.james.mime4j.stream.MimeConfig;
import org.jspecify.annotations.Nullable;

/**
 * E-mail: one message ({@code .eml}, RFC 5322 with MIME) or a mailbox of messages ({@code .mbox}), on Apache James
 * mime4j, which parses MIME without a mail session or a server.
 *
 * <p>A message gives a short header block ({@code Subject}, {@code From}, {@code To}, {@code Cc}, {@code Date}),
 * then its body — the {@code text/plain} alternative when there is one, else the HTML one read by the
 * {@link HtmlDocumentParser} — then each attachment read by the parser registered for its type
 * ({@link DocumentParsers#standard()}: a PDF with its pages, a Word file with its headings) as a part of the
 * message: the attachment's lines carry its name as their section ({@code report.pdf}, or {@code report.pdf >
 * Results} under the attachment's own headings) and keep its own pages, so an answer from page 3 of the
 * attachment is cited {@code thread.eml p. 3, lines 4–9} in the section {@code report.pdf}. Attached messages
 * ({@code message/rfc822}, or an attached {@code .eml}) are read the same way under their own name, at most
 * {@value #MAX_MESSAGE_DEPTH} messages deep. An attachment no parser reads (an image, a zip) or that its parser
 * skips or fails is listed with its reason in the metadata key {@value #ATTACHMENTS_NOT_READ}; the message is
 * indexed without it.
 *
 * <p>Metadata for {@link dev.ragkit.store.MetadataFilter}s: {@code from} (the sender's address, lower case),
 * {@code from_name}, {@code to} and {@code cc} (addresses, lower case, joined with {@code ", "}), {@code date}
 * (ISO-8601 in UTC, so date ranges work: {@code date >= 2024-05-01}), {@code message_id} and {@code attachments}
 * (the names read). The subject is the title, and the sending day the document's date.
 *
 * <p>An mbox file is one document whose messages are its parts (section {@code <subject>}, their attachments
 * under {@code <subject> > report.pdf}); its metadata holds the number of {@code messages}.
 *
 * <p>Limits against hostile mail: at most {@value #MAX_PARTS} MIME parts in a file and
 * {@value #MAX_MESSAGE_DEPTH} levels of attached messages — more fail the file with an {@link IngestException}
 * saying so; the extracted text of body and attachments together counts against the source's character limit. Up
 * to 100 MiB per file. The {@link DocumentParser} with id {@code email}; stateless and thread-safe.
 */
public final class MailDocumentParser implements DocumentParser {
    /** The metadata key listing attachments that were not read, each with its reason ({@code ; }-separated). */
    public static final String ATTACHMENTS_NOT_READ = "attachments_not_read";
    /** The most MIME parts (bodies, attachments, the pieces of multiparts) one file may hold. */
    static final int MAX_PARTS = 1000;
    /** How deep attached messages may nest: a message in a message in a message in the file's message. */
    static final int MAX_MESSAGE_DEPTH = 3;
    private static final int MAX_TITLE = 200;
    private static final int MAX_NOT_READ_LISTED = 50;
    private static final Pattern MBOX_FROM = Pattern.compile("(?m)^From [^\\r\\n]*\\r?\\n");
    private static final Pattern MBOX_ESCAPED = Pattern.compile("(?m)^>(>*From )");
    private static final Pattern UNSAFE_NAME = Pattern.compile("[\\p{Cntrl}/\\\\:*?\"<>|]+");

    /** Creates the parser. */
    public MailDocumentParser() {
        // nothing to configure: attachments go to the parsers found at the time of parsing
    }

    @Override
    public String id() {
        return "email";
    }

    @Override
    public Set<String> extensions() {
        return Set.of("eml", "mbox");
    }

    @Override
    public long maxBytes() {
        return ParserMessages.MAX_BYTES;
    }

    @Override
    public ParsedDocument parse(DocumentSource source) {
        Objects.requireNonNull(source, "source");
        Reading reading = new Reading(source);
        try {
            if (DocumentPaths.extension(source.path()).equals("mbox")) {
                return reading.mailbox();
            }
            return reading.message();
        } catch (IngestException e) {
            throw e;
        } catch (IOException | MimeException | RuntimeException e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (String.valueOf(cause.getMessage()).startsWith("Maximum part count")) {
                    throw tooManyParts(source.path(), e);
                }
            }
            throw new IngestException(source.path(), 0, "not a readable e-mail (" + ParserMessages.reason(e)
                    + "); save the message again from the mail program as .eml", e);
        }
    }

    /** The standard parsers, found once: attachments go to them (this parser included, for attached .eml). */
    private static final class Registry {
        static final DocumentParsers PARSERS = DocumentParsers.standard();
    }

    /** One file's parse: its lines by part, its part count and what was not read. */
    private static final class Reading {
        private final DocumentSource source;
        private final DocumentParts out;
        private final List<String> notRead = new ArrayList<>();
        /** The warnings of the attachments' own parses, each after the attachment's name. */
        private final List<String> partWarnings = new ArrayList<>();
        private final List<String> attachments = new ArrayList<>();
        private int parts;

        Reading(DocumentSource source) {
            this.source = source;
            this.out = new DocumentParts(source);
        }

        ParsedDocument message() throws IOException, MimeException {
            Message message = parseMessage(source.bytes());
            Map<String, String> metadata = new LinkedHashMap<>();
            headers(message, metadata);
            read(message, null, 0);
            ParsedDocument.Builder builder = ParsedDocument.builder(source.path()).docType("email");
            String subject = oneLine(message.getSubject());
            builder.title(subject.isEmpty() || subject.length() > MAX_TITLE ? DocumentPaths.baseName(source.path())
                    : subject);
            if (message.getDate() != null) {
                builder.date(message.getDate().toInstant().atOffset(ZoneOffset.UTC).toLocalDate());
            }
            return finish(builder, metadata);
        }

        ParsedDocument mailbox() throws IOException, MimeException {
            String text = new String(source.bytes(), StandardCharsets.ISO_8859_1);   // byte for byte
            List<Integer> starts = new ArrayList<>();
            List<Integer> separators = new ArrayList<>();
            Matcher matcher = MBOX_FROM.matcher(text);
            while (matcher.find()) {                    // (?m)^ : a "From " line at the start of a line
                separators.add(matcher.start());
                starts.add(matcher.end());
            }
            if (starts.isEmpty() || !text.startsWith("From ")) {
                throw new IngestException(source.path(), 1, "not an mbox file: it must start with a \"From \" line; "
                        + "save a single message as .eml instead", null);
            }
            for (int i = 0; i < starts.size(); i++) {
                int end = i + 1 < starts.size() ? separators.get(i + 1) : text.length();
                String raw = MBOX_ESCAPED.matcher(text.substring(starts.get(i), end)).replaceAll("$1");
                Message message = parseMessage(raw.getBytes(StandardCharsets.ISO_8859_1));
                String subject = oneLine(message.getSubject());
                String name = out.uniqueName(subject.isEmpty() ? "message " + (i + 1) : subject);
                Map<String, String> ignored = new LinkedHashMap<>();
                headerLines(message, name, ignored);
                read(message, name, 1);
                out.blank(name);
            }
            Map<String, String> metadata = new LinkedHashMap<>();
            metadata.put("messages", Integer.toString(starts.size()));
            return finish(ParsedDocument.builder(source.path()).docType("email").title(mailboxName(source.path())),
                    metadata);
        }

        /** The mailbox's name: {@code Inbox} for {@code Inbox.mbox}, and for Apple Mail's {@code Inbox.mbox/mbox}. */
        private static String mailboxName(String path) {
            String file = path.substring(path.lastIndexOf('/') + 1);
            if (file.equals("mbox") && path.lastIndexOf('/') > 0) {
                return DocumentPaths.baseName(path.substring(0, path.lastIndexOf('/')));
            }
            return DocumentPaths.baseName(path);
        }

        private ParsedDocument finish(ParsedDocument.Builder builder, Map<String, String> metadata) {
            if (!attachments.isEmpty()) {
                metadata.put("attachments", String.join(", ", attachments));
            }
            if (!notRead.isEmpty()) {
                List<String> listed = notRead.subList(0, Math.min(notRead.size(), MAX_NOT_READ_LISTED));
                String list = String.join("; ", listed)
                        + (notRead.size() > listed.size() ? "; and " + (notRead.size() - listed.size()) + " more" : "");
                metadata.put(ATTACHMENTS_NOT_READ, list);
                builder.warning((notRead.size() == 1 ? "1 attachment" : notRead.size() + " attachments")
                        + " not read: " + list);
            }
            for (String warning : partWarnings.subList(0, Math.min(partWarnings.size(), MAX_NOT_READ_LISTED))) {
                builder.warning(warning);
            }
            if (!out.hasText()) {
                throw new DocumentSkippedException(source.path(), SkipReason.NO_TEXT_LAYER, "the e-mail has no text "
                        + "(no body and no attachment with text)", null);
            }
            return out.into(builder.metadata(metadata)).build();
        }

        private Message parseMessage(byte[] bytes) throws IOException, MimeException {
            DefaultMessageBuilder builder = new DefaultMessageBuilder();
            builder.setMimeEntityConfig(MimeConfig.custom().setMaxLineLen(-1).setMaxHeaderLen(-1)
                    .setMaxHeaderCount(10_000).setMaxNestingDepth(64).setMaxPartCount(MAX_PARTS + 1).build());
            return builder.parseMessage(new ByteArrayInputStream(bytes));
        }

        /** The message's header block (lines with the section {@code null}) and its metadata. */
        private void headers(Message message, Map<String, String> metadata) {
            headerLines(message, null, metadata);
        }

        private void headerLines(Message message, @Nullable String section, Map<String, String> metadata) {
            String subject = oneLine(message.getSubject());
            if (!subject.isEmpty()) {
                out.line("Subject: " + subject, section);
            }
            MailboxList from = message.getFrom();
            if (from != null && !from.isEmpty()) {
                out.line("From: " + people(from), section);
                Mailbox sender = from.get(0);
                metadata.put("from", sender.getAddress().toLowerCase(Locale.ROOT));
                if (sender.getName() != null && !sender.getName().isBlank()) {
                    metadata.put("from_name", oneLine(sender.getName()));
                }
            }
            addresses("To", "to", message.getTo(), section, metadata);
            addresses("Cc", "cc", message.getCc(), section, metadata);
            if (message.getDate() != null) {
                String date = DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochSecond(
                        message.getDate().toInstant().getEpochSecond()));
                out.line("Date: " + date, section);
                metadata.put("date", date);
            }
            if (message.getMessageId() != null && !message.getMessageId().isBlank()) {
                metadata.put("message_id", oneLine(message.getMessageId()));
            }
            out.blank(section);
        }

        private void addresses(String label, String key, @Nullable AddressList list, @Nullable String section,
                Map<String, String> metadata) {
            if (list == null || list.isEmpty()) {
                return;
            }
            out.line(label + ": " + people(list.flatten()), section);
            StringJoiner addresses = new StringJoiner(", ");
            list.flatten().forEach(mailbox -> addresses.add(mailbox.getAddress().toLowerCase(Locale.ROOT)));
            metadata.put(key, addresses.toString());
        }

        private static String people(Iterable<? extends Address> list) {
            StringJoiner joined = new StringJoiner(", ");
            for (Address address : list) {
                if (address instanceof Mailbox) {
                    Mailbox mailbox = (Mailbox) address;
                    joined.add(mailbox.getName() == null || mailbox.getName().isBlank() ? mailbox.getAddress()
                            : oneLine(mailbox.getName()) + " <" + mailbox.getAddress() + ">");
                } else if (address instanceof Group) {
                    joined.add(oneLine(((Group) address).getName()));
                }
            }
            return joined.toString();
        }

        /**
         * Reads an entity: the body text of the message at {@code section} (null: the file's own message), then
         * its attachments as parts under {@code section > name}.
         */
        private void read(Entity entity, @Nullable String section, int depth) throws IOException, MimeException {
            count();
            Body body = entity.getBody();
            if (body instanceof Multipart) {
                Multipart multipart = (Multipart) body;
                List<Entity> children = multipart.getBodyParts();
                if ("alternative".equalsIgnoreCase(multipart.getSubType())) {
                    Entity chosen = alternative(children);
                    if (chosen != null) {
                        read(chosen, section, depth);
                    }
                    return;
                }
                for (Entity child : children) {
                    read(child, section, depth);
                }
                return;
            }
            if (body instanceof Message) {
                attachedMessage((Message) body, name(entity, "message.eml"), section, depth);
                return;
            }
            boolean attachment = "attachment".equalsIgnoreCase(entity.getDispositionType())
                    || entity.getFilename() != null && !entity.getFilename().isBlank();
            String type = entity.getMimeType() == null ? "" : entity.getMimeType().toLowerCase(Locale.ROOT);
            if (!attachment && body instanceof TextBody && type.equals("text/plain")) {
                out.blank(section);
                for (String line : DocumentSource.lines(text((TextBody) body))) {
                    out.line(line.stripTrailing(), section);
                }
                out.blank(section);
            } else if (!attachment && body instanceof TextBody && type.equals("text/html")) {
                html((TextBody) body, section);
            } else if (body instanceof SingleBody) {
                attachment(entity, (SingleBody) body, section, depth);
            }
        }

        /** The alternative to read: plain text when there is one, else HTML, else the last (the richest). */
        private static @Nullable Entity alternative(List<Entity> children) {
            for (String wanted : new String[] {"text/plain", "text/html"}) {
                for (Entity child : children) {
                    if (wanted.equalsIgnoreCase(child.getMimeType()) && child.getBody() instanceof TextBody) {
                        return child;
                    }
                }
            }
            return children.isEmpty() ? null : children.get(children.size() - 1);
        }

        private void html(TextBody body, @Nullable String section) throws IOException {
            // the text is decoded already: hand it on as UTF-8 with a byte order mark, which wins over <meta charset>
            byte[] utf8 = text(body).getBytes(StandardCharsets.UTF_8);
            byte[] bytes = new byte[utf8.length + 3];
            bytes[0] = (byte) 0xEF;
            bytes[1] = (byte) 0xBB;
            bytes[2] = (byte) 0xBF;
            System.arraycopy(utf8, 0, bytes, 3, utf8.length);
            ParsedDocument page = new HtmlDocumentParser().parse(sub("body.html", bytes));
            out.blank(section);
            out.append(page, section);
            out.blank(section);
        }

        private void attachedMessage(Message message, String fileName, @Nullable String section, int depth)
                throws IOException, MimeException {
            if (depth + 1 > MAX_MESSAGE_DEPTH) {
                throw new IngestException(source.path(), 0, "attached messages nest more than " + MAX_MESSAGE_DEPTH
                        + " deep (the limit), at " + (section == null ? "" : section + " > ") + fileName
                        + "; save the innermost message as its own .eml to index it", null);
            }
            String name = out.uniqueName(fileName);
            String part = section == null ? name : section + " > " + name;
            attachments.add(part);
            Map<String, String> ignored = new LinkedHashMap<>();
            headerLines(message, part, ignored);
            read(message, part, depth + 1);
            out.blank(part);
        }

        private void attachment(Entity entity, SingleBody body, @Nullable String section, int depth)
                throws IOException, MimeException {
            String fileName = name(entity, "attachment");
            byte[] bytes = bytes(body);
            DocumentParser parser = parserFor(fileName, bytes);
            String shown = section == null ? fileName : section + " > " + fileName;
            if (parser == null) {
                notRead.add(shown + " (no parser reads " + (DocumentPaths.extension(fileName).isEmpty()
                        ? entity.getMimeType() : "." + DocumentPaths.extension(fileName)) + " files)");
                return;
            }
            if (parser instanceof MailDocumentParser) {
                attachedMessage(parseMessage(bytes), fileName, section, depth);
                return;
            }
            ParsedDocument parsed;
            try {
                parsed = parser.parse(sub(fileName, bytes));
            } catch (DocumentSkippedException e) {
                notRead.add(shown + " (" + e.reason().description() + ": " + e.detail() + ")");
                return;
            } catch (IngestException e) {
                if (e.getMessage() != null && e.getMessage().contains("characters of text were extracted")) {
                    throw new IngestException(source.path(), 0, "more than " + source.maxChars() + " characters "
                            + "of text were extracted from the message and its attachments (the limit, reached in "
                            + shown + "); raise the limit to index it", e);
                }
                notRead.add(shown + " (" + withoutPath(e) + ")");
                return;
            }
            String name = out.uniqueName(fileName);
            String part = section == null ? name : section + " > " + name;
            attachments.add(part);
            parsed.warnings().forEach(warning -> partWarnings.add(part + ": " + warning));
            out.blank(section);
            out.append(parsed, part);
            out.blank(part);
        }

        private void count() {
            if (++parts > MAX_PARTS) {
                throw tooManyParts(source.path(), null);
            }
        }

        /** A source for a part: its path under the file's, and what is left of the character limit. */
        private DocumentSource sub(String name, byte[] bytes) {
            long left = Math.max(1, source.maxChars() - out.chars());
            return new DocumentSource(source.path() + "/" + name, bytes, left);
        }

        private @Nullable DocumentParser parserFor(String fileName, byte[] bytes) {
            DocumentParsers parsers = Registry.PARSERS;
            ContentSniffer.Kind kind = ContentSniffer.sniff(bytes);
            DocumentParser byExtension = parsers.forPath(fileName).orElse(null);
            if (byExtension != null && (byExtension.kinds().contains(kind) || byExtension.kinds().isEmpty()
                    && (kind == ContentSniffer.Kind.TEXT || kind == ContentSniffer.Kind.HTML))) {
                return byExtension;
            }
            return parsers.forKind(kind).orElse(null);
        }

        private String withoutPath(IngestException e) {
            String message = String.valueOf(e.getMessage());
            String prefix = e.path() == null ? "" : e.path() + ": ";
            return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        }
    }

    private static IngestException tooManyParts(String path, @Nullable Throwable cause) {
        return new IngestException(path, 0, "the e-mail holds more than " + MAX_PARTS + " MIME parts (attachments "
                + "and the pieces around them; the limit); save the attachments as separate files to index them",
                cause);
    }

    /** An entity's file name, safe as a path segment, or the fallback with the extension its type suggests. */
    private static String name(Entity entity, String fallback) {
        String name = entity.getFilename() == null ? "" : entity.getFilename();
        int slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
        name = UNSAFE_NAME.matcher(name.substring(slash + 1)).replaceAll(" ").strip().replaceAll("\\s+", " ");
        while (name.startsWith(".")) {
            name = name.substring(1);
        }
        if (!name.isEmpty()) {
            return name.length() > 120 ? name.substring(0, 120) : name;
        }
        String type = entity.getMimeType() == null ? "" : entity.getMimeType().toLowerCase(Locale.ROOT);
        switch (type) {
            case "application/pdf": return fallback + ".pdf";
            case "text/plain": return fallback + ".txt";
            case "text/html": return fallback + ".html";
            case "text/markdown": return fallback + ".md";
            case "message/rfc822": return fallback.endsWith(".eml") ? fallback : fallback + ".eml";
            case "application/vnd.openxmlformats-officedocument.wordprocessingml.document": return fallback + ".docx";
            default: return fallback;
        }
    }

    private static String text(TextBody body) throws IOException {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        try (Reader reader = body.getReader()) {
            for (int n; (n = reader.read(buffer)) > 0; ) {
                text.append(buffer, 0, n);
            }
        }
        return text.toString();
    }

    private static byte[] bytes(SingleBody body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = body.getInputStream()) {
            in.transferTo(out);
        }
        return out.toByteArray();
    }

    private static String oneLine(@Nullable String text) {
        return SectionedLines.oneLine(text);
    }
}
