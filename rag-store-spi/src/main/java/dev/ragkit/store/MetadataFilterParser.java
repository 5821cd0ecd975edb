package dev.ragkit.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The recursive-descent parser behind {@link MetadataFilter#parse(String)}, and the helpers that write filters
 * back as text. One instance parses one text; not thread-safe.
 *
 * <pre>
 * filter     := or END
 * or         := and ("or" and)*
 * and        := unary ("and" unary)*
 * unary      := "not" unary | "(" or ")" | comparison
 * comparison := word ( op word | "in" list | "not" "in" list )
 * op         := "=" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 * list       := "(" word ("," word)* ")"
 * word       := bare | '…' | "…"
 * </pre>
 *
 * <p>Two limits keep a hostile or generated text from exhausting the stack or a store's query size: at most
 * {@link MetadataFilter#MAX_NESTING} parentheses and {@code not}s around any point, and at most
 * {@link MetadataFilter#MAX_CONDITIONS} conditions (each comparison counts one, each {@code not} one more,
 * including the one inside {@code !=} and {@code not in}). Either is a {@link MetadataFilterSyntaxException} at
 * the column where the limit was passed, before the parser goes deeper.
 */
final class MetadataFilterParser {
    private static final Pattern BARE = Pattern.compile("[^\\s(),=!<>'\"]+");
    private static final String EXAMPLE = "write e.g. year >= 2024 and product = x";

    private enum Kind { WORD, QUOTED, LPAREN, RPAREN, COMMA, OP, END }

    private record Token(Kind kind, String text, int column) {
        boolean isKeyword(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }

        boolean isAnyKeyword() {
            return isKeyword("and") || isKeyword("or") || isKeyword("not") || isKeyword("in");
        }

        String describe() {
            return switch (kind) {
                case END -> "the end of the filter";
                case QUOTED -> "the quoted text '" + text + "'";
                default -> "'" + text + "'";
            };
        }
    }

    private final String input;
    private final List<Token> tokens;
    private int next;
    /** The parentheses and {@code not}s open around the current token. */
    private int depth;
    /** The comparisons and {@code not}s read so far. */
    private int conditions;

    MetadataFilterParser(String input) {
        this.input = input;
        this.tokens = tokenize(input);
    }

    MetadataFilter parse() {
        if (tokens.get(0).kind == Kind.END) {
            throw error(1, "the filter is empty; " + EXAMPLE);
        }
        MetadataFilter filter = or();
        Token t = peek();
        if (t.kind != Kind.END) {
            throw error(t.column, "expected 'and', 'or' or the end of the filter, found " + t.describe()
                    + (t.kind == Kind.RPAREN ? " (a ')' without its '(')" : ""));
        }
        return filter;
    }

    private MetadataFilter or() {
        List<MetadataFilter> operands = new ArrayList<>();
        operands.add(and());
        while (peek().isKeyword("or")) {
            next++;
            operands.add(and());
        }
        return operands.size() == 1 ? operands.get(0) : new MetadataFilter.Or(operands);
    }

    private MetadataFilter and() {
        List<MetadataFilter> operands = new ArrayList<>();
        operands.add(unary());
        while (peek().isKeyword("and")) {
            next++;
            operands.add(unary());
        }
        return operands.size() == 1 ? operands.get(0) : new MetadataFilter.And(operands);
    }

    private MetadataFilter unary() {
        Token t = peek();
        if (t.isKeyword("not")) {
            enter(t);
            count(t);
            next++;
            MetadataFilter operand = unary();
            depth--;
            return new MetadataFilter.Not(operand);
        }
        if (t.kind == Kind.LPAREN) {
            enter(t);
            next++;
            MetadataFilter inner = or();
            Token close = peek();
            if (close.kind != Kind.RPAREN) {
                throw error(close.column, "expected ')' to close the '(' at column " + t.column + ", found "
                        + close.describe());
            }
            next++;
            depth--;
            return inner;
        }
        return comparison();
    }

    /** One more level of nesting at {@code t}: refused beyond {@link MetadataFilter#MAX_NESTING}. */
    private void enter(Token t) {
        if (++depth > MetadataFilter.MAX_NESTING) {
            throw error(t.column, "the filter nests deeper than " + MetadataFilter.MAX_NESTING + " levels of '(' "
                    + "and 'not' (the limit); write it flatter: a or b or c needs no parentheses around b or c, "
                    + "and 'not not x' is x");
        }
    }

    /** One more condition at {@code t}: refused beyond {@link MetadataFilter#MAX_CONDITIONS}. */
    private void count(Token t) {
        if (++conditions > MetadataFilter.MAX_CONDITIONS) {
            throw error(t.column, "the filter has more than " + MetadataFilter.MAX_CONDITIONS + " conditions "
                    + "(the limit; each comparison counts one and each 'not', '!=' or 'not in' one more); list the "
                    + "values of one key as key in (a, b, c), which counts once, or split the filter");
        }
    }

    private MetadataFilter comparison() {
        Token key = peek();
        if (key.kind != Kind.QUOTED && (key.kind != Kind.WORD || key.isAnyKeyword())) {
            throw error(key.column, "expected a metadata key, 'not' or '(', found " + key.describe() + "; "
                    + EXAMPLE);
        }
        if (key.text.isBlank()) {
            throw error(key.column, "a metadata key must not be blank");
        }
        count(key);
        next++;
        Token op = peek();
        if (op.isKeyword("in")) {
            next++;
            return in(key);
        }
        if (op.isKeyword("not")) {
            next++;
            Token in = peek();
            if (!in.isKeyword("in")) {
                throw error(in.column, "expected 'in' after '" + key.text + " not', found " + in.describe());
            }
            count(op);
            next++;
            return new MetadataFilter.Not(in(key));
        }
        if (op.kind != Kind.OP) {
            throw error(op.column, "expected one of = != < <= > >= in after the key '" + key.text + "', found "
                    + op.describe());
        }
        if (op.text.equals("!=")) {
            count(op);
        }
        next++;
        Token value = value("after '" + op.text + "'");
        return switch (op.text) {
            case "=" -> new MetadataFilter.Equals(key.text, value.text);
            case "!=" -> new MetadataFilter.Not(new MetadataFilter.Equals(key.text, value.text));
            default -> range(key, op, value);
        };
    }

    private MetadataFilter in(Token key) {
        Token open = peek();
        if (open.kind != Kind.LPAREN) {
            throw error(open.column, "expected '(' after 'in', found " + open.describe() + "; write e.g. "
                    + key.text + " in (a, b)");
        }
        next++;
        List<String> values = new ArrayList<>();
        values.add(value("in the list").text);
        while (peek().kind == Kind.COMMA) {
            next++;
            values.add(value("after ','").text);
        }
        Token close = peek();
        if (close.kind != Kind.RPAREN) {
            throw error(close.column, "expected ',' or ')' in the list of '" + key.text + " in (...)', found "
                    + close.describe());
        }
        next++;
        return new MetadataFilter.In(key.text, new TreeSet<>(values));
    }

    private MetadataFilter range(Token key, Token op, Token value) {
        boolean lower = op.text.startsWith(">");
        boolean inclusive = op.text.endsWith("=");
        OptionalDouble number = MetadataFilter.number(value.text);
        if (number.isPresent()) {
            Double bound = number.getAsDouble();
            return lower ? new MetadataFilter.NumberRange(key.text, bound, inclusive, null, false)
                    : new MetadataFilter.NumberRange(key.text, null, false, bound, inclusive);
        }
        Optional<Instant> date = MetadataFilter.date(value.text);
        if (date.isPresent()) {
            return lower ? new MetadataFilter.DateRange(key.text, date.get(), inclusive, null, false)
                    : new MetadataFilter.DateRange(key.text, null, false, date.get(), inclusive);
        }
        throw error(value.column, "'" + value.text + "' is neither a number nor an ISO-8601 date; '" + op.text
                + "' compares numbers (2024, -3.5, 1e6) or dates (2024-05-17, 2024-05-17T10:15:30Z)");
    }

    private Token value(String where) {
        Token t = peek();
        if (t.kind != Kind.WORD && t.kind != Kind.QUOTED) {
            throw error(t.column, "expected a value " + where + ", found " + t.describe()
                    + "; quote values with blanks or symbols: \"a b\"");
        }
        next++;
        return t;
    }

    private Token peek() {
        return tokens.get(next);
    }

    private MetadataFilterSyntaxException error(int column, String problem) {
        return new MetadataFilterSyntaxException(input, column, problem);
    }

    private List<Token> tokenize(String text) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            int column = i + 1;
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(' || c == ')' || c == ',') {
                out.add(new Token(c == '(' ? Kind.LPAREN : c == ')' ? Kind.RPAREN : Kind.COMMA, String.valueOf(c),
                        column));
                i++;
            } else if (c == '=' || c == '<' || c == '>' || c == '!') {
                boolean twoChars = i + 1 < text.length() && text.charAt(i + 1) == '=' && c != '=';
                String op = twoChars ? text.substring(i, i + 2) : String.valueOf(c);
                if (op.equals("!")) {
                    throw error(column, "'!' must be followed by '=' ('!=' means not equal)");
                }
                out.add(new Token(Kind.OP, op, column));
                i += op.length();
            } else if (c == '\'' || c == '"') {
                StringBuilder value = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= text.length()) {
                        throw error(column, "the quote " + c + " opened here is never closed");
                    }
                    char d = text.charAt(j);
                    if (d == '\\' && j + 1 < text.length()) {
                        value.append(text.charAt(j + 1));
                        j += 2;
                    } else if (d == c) {
                        break;
                    } else {
                        value.append(d);
                        j++;
                    }
                }
                out.add(new Token(Kind.QUOTED, value.toString(), column));
                i = j + 1;
            } else {
                int j = i;
                while (j < text.length() && BARE.matcher(String.valueOf(text.charAt(j))).matches()) {
                    j++;
                }
                out.add(new Token(Kind.WORD, text.substring(i, j), column));
                i = j;
            }
        }
        out.add(new Token(Kind.END, "", text.length() + 1));
        return out;
    }

    // ------------------------------------------------------------------------------------------ writing back

    static String quoteIfNeeded(String s) {
        boolean keyword = switch (s.toLowerCase(Locale.ROOT)) {
            case "and", "or", "not", "in" -> true;
            default -> false;
        };
        if (!keyword && BARE.matcher(s).matches()) {
            return s;
        }
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    static String rangeText(String key, @Nullable String lower, boolean lowerInclusive, @Nullable String upper,
            boolean upperInclusive) {
        String k = quoteIfNeeded(key);
        String lo = lower == null ? null : k + (lowerInclusive ? " >= " : " > ") + lower;
        String hi = upper == null ? null : k + (upperInclusive ? " <= " : " < ") + upper;
        if (lo != null && hi != null) {
            return "(" + lo + " and " + hi + ")";
        }
        return lo != null ? lo : Objects.requireNonNull(hi);
    }

    static List<MetadataFilter> operands(List<MetadataFilter> operands, String name) {
        List<MetadataFilter> copy = new ArrayList<>();
        for (MetadataFilter f : Objects.requireNonNull(operands, "operands")) {
            copy.add(Objects.requireNonNull(f, name + " operand"));
        }
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("'" + name + "' needs at least one operand; drop the filter instead");
        }
        return Collections.unmodifiableList(copy);
    }

    static String join(List<MetadataFilter> operands, String separator) {
        List<String> parts = new ArrayList<>(operands.size());
        for (MetadataFilter f : operands) {
            boolean compound = f instanceof MetadataFilter.And || f instanceof MetadataFilter.Or;
            parts.add(compound ? "(" + f + ")" : f.toString());
        }
        return String.join(separator, parts);
    }
}
