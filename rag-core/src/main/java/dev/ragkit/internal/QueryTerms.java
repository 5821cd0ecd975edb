package dev.ragkit.internal;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content words of a question, as relevance and answer selection compare them with passages: {@link KeyTerms}
 * (lower-case runs of letters and digits, three characters or more — or two that name something, as "HR" and "P1" do
 * — no stop word), without question words and without the words that say what form the answer takes ({@link
 * #ANSWER_FORM_WORDS}), each cut to a rough stem so that "purchases" meets "purchased" ({@link #stem}), read from
 * the text with its accents taken off ({@link #folded}: "Beyonce" meets "Beyoncé"). A passage's words are taken the
 * same way, and its camelCase names' parts besides ({@link #inPassage}). Stateless and thread-safe.
 */
public final class QueryTerms {

    /** Words that ask rather than say what is asked about ("how many", "how often"). */
    static final Set<String> QUESTION_WORDS = Set.of("what", "which", "who", "whom", "whose", "many", "much", "often");

    /**
     * Words that say what form the answer takes rather than what it is about: "What is the <em>full name</em> of the
     * <em>person</em> who…", "What <em>type</em> of…", "What was the ship <em>called</em>?". The passage that answers
     * such a question states the name, the type, the person, and seldom the word; counted as content, such a word —
     * missing from every passage, so weighted as the rarest — made the answering passage look like one about something
     * else (measured in docs/design-notes.md, "Words that frame the answer").
     */
    static final Set<String> ANSWER_FORM_WORDS = Set.of("name", "names", "named", "called", "kind", "kinds", "type",
            "types", "sort", "person", "someone");

    /** Words that frame the answer only before "name": "full name", "last name", "first name". */
    static final Set<String> NAME_PARTS = Set.of("full", "last", "first");

    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9]+");
    /** A lower-case letter followed by a capital: the hump of a camelCase name ({@code maxTokens}). */
    private static final Pattern HUMP = Pattern.compile("[a-z][A-Z]");
    /** The words a camelCase name is made of: a capitalised or lower-case word, a run of capitals, a number. */
    private static final Pattern NAME_PART = Pattern.compile("[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+");
    /** Text in back quotes on one line, as markdown writes code: {@code `DocumentParser`}. */
    private static final Pattern BACK_QUOTED = Pattern.compile("`[^`\\n]+`");
    /** A capitalised name of this many parts is code even outside back quotes ({@code TokenBudgetExceeded}). */
    private static final int CODE_NAME_PARTS = 3;
    /**
     * A two-character word that names something: capitals ("HR", "ER", "UK", "II") or a letter and a digit ("P1",
     * "Q3", "L1") — too short for a content word otherwise, and often the whole subject of a question.
     */
    private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9]|[A-Za-z][0-9]|[0-9][A-Za-z]");
    private static final String[] SUFFIXES = {"ing", "ed", "es", "s", "ly"};
    /** An acronym's plural: capitals (or digits after the first), then a lower-case "s" ({@code PDFs}, {@code IDs}). */
    private static final Pattern ACRONYMS = Pattern.compile("[A-Z][A-Z0-9]+s");
    /** Combining marks, which NFD puts after the letters they accent. */
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    /** Latin letters that NFD leaves whole, and the ASCII each is written as ({@link #ASCII_OF_UNMARKED}). */
    private static final String UNMARKED = "øØæÆœŒßłŁđĐðÐþÞı";
    private static final String[] ASCII_OF_UNMARKED = {"o", "O", "ae", "AE", "oe", "OE", "ss", "l", "L", "d", "D",
        "d", "D", "th", "TH", "i"};
    private static final int MIN_STEM = 4;
    /**
     * Forms of one word that no suffix rule joins, the base form first: English irregular verbs ("won" and "win",
     * "wrote" and "written") and the nouns for who does a thing ("winner", "writer", "director"), so that "Who won the
     * final?" meets "… defeated Mississippi State to win the championship" and "Who wrote it?" meets "written by".
     * Forms that are as often another word are left out: "found" (of "find"), "left", "saw", "rose", "lead", "set",
     * "means", "ruler".
     */
    private static final String[] FORMS = {
        "win won winner winners", "sing sang sung singer singers", "write wrote written writer writers",
        "begin began begun beginning", "run ran runner runners", "draw drew drawn", "give gave given",
        "take took taken", "make made maker makers", "come came", "become became", "go went gone goes",
        "get got gotten", "build built builder builders", "buy bought buyer buyers", "bring brought",
        "catch caught", "choose chose chosen", "fight fought fighter fighters", "fall fell fallen",
        "fly flew flown", "hold held holder holders", "keep kept keeper", "know knew known", "lose lost loser",
        "meet met", "pay paid", "say said", "sell sold seller sellers", "send sent", "show showed shown",
        "sink sank sunk", "speak spoke spoken speaker speakers", "spend spent", "stand stood", "steal stole stolen",
        "strike struck", "swim swam swum swimmer swimmers", "teach taught teacher teachers", "tell told",
        "think thought", "throw threw thrown", "wear wore worn", "grow grew grown", "break broke broken",
        "drive drove driven driver drivers", "eat ate eaten", "forget forgot forgotten", "freeze froze frozen",
        "hide hid hidden", "ride rode ridden rider riders", "shake shook shaken", "wake woke woken",
        "direct director directors", "play player players", "found founder founders", "create creator creators",
        "produce producer producers", "compose composer composers", "invent inventor inventors",
        "own owner owners", "design designer designers", "paint painter painters", "discover discoverer",
        "manage manager managers", "kill killer killers", "murder murderer murderers", "marry marriage"};
    /** The word forms {@link #stem} takes to a base form ({@link #baseForms}). */
    private static final Map<String, String> BASE_FORMS = baseForms();
    /** What may stand before a short option's dash besides white space: {@code `-k`}, {@code (-k)}, {@code [-k]}. */
    private static final String OPTION_BEFORE = "`([\"'";

    private QueryTerms() {
    }

    /**
     * Each form of {@link #FORMS}, and the regular forms of each base that the suffix rules cut too short to join
     * ("wins", "winning", "makes"), with its base form.
     */
    private static Map<String, String> baseForms() {
        Map<String, String> bases = new HashMap<>();
        for (String group : FORMS) {
            String[] forms = group.split(" ");
            for (String form : forms) {
                if (bases.putIfAbsent(form, forms[0]) != null) {
                    throw new IllegalStateException("the word form " + form + " is in two groups");
                }
            }
        }
        for (String group : FORMS) {
            String base = group.substring(0, group.indexOf(' '));
            String cut = base.endsWith("e") ? base.substring(0, base.length() - 1) : base;
            for (String regular : List.of(base + "s", base + "es", cut + "ing",
                    base + base.charAt(base.length() - 1) + "ing")) {
                bases.putIfAbsent(regular, base);
            }
        }
        return Map.copyOf(bases);
    }

    /**
     * @param text any text
     * @return the stems of its content words (a new, modifiable set)
     */
    public static Set<String> of(String text) {
        return new HashSet<>(words(text).keySet());
    }

    /**
     * The words of a passage: {@link #of}, and the words that a name written as code is made of
     * ({@code TokenBudgetExceededException}: token, budget, exceeded, exception), so that "Which exception is thrown
     * when the token budget is exceeded?" meets the code and javadoc that name the class. A name is taken for code
     * when it has a hump (a lower-case letter before a capital) and at least two parts of three letters or more, and
     * either starts in lower case ({@code maxTokens}), has three such parts, or stands in back quotes
     * ({@code `DocumentParser`}): a brand in prose ("RagKit", "YouTube") stays one word, as do "iPhone" and
     * "McDonald". A question's own words are never split ({@link #of}): "What can RagKit read?" asks about RagKit,
     * not about a rag or a kit. Parts that are stop words are left out, as in prose.
     *
     * @param text a passage, or any text compared with a question's words
     * @return the stems of its content words and of its code names' parts (a new, modifiable set)
     */
    public static Set<String> inPassage(String text) {
        Set<String> terms = new HashSet<>(words(text).keySet());
        if (!HUMP.matcher(text).find()) {
            return terms;
        }
        String plain = folded(text);
        Matcher quoted = BACK_QUOTED.matcher(plain);
        int quotedFrom = -1;
        int quotedTo = -1;
        for (Matcher word = WORD.matcher(plain); word.find(); ) {
            while (quotedTo <= word.start() && quotedTo != Integer.MAX_VALUE) {
                boolean more = quoted.find();
                quotedFrom = more ? quoted.start() : Integer.MAX_VALUE;
                quotedTo = more ? quoted.end() : Integer.MAX_VALUE;
            }
            addNameParts(word.group(), word.start() > quotedFrom && word.end() < quotedTo, terms);
        }
        return terms;
    }

    /**
     * Whether a question's words name the whole of a title: each of the title's content words is asked, a name
     * written as code counting as asked when all of its parts are ({@code TokenBudgetExceededException} by "token
     * budget exceeded exception").
     *
     * @param asked the question's words ({@link #of})
     * @param title a title
     * @return whether every content word of the title is asked, and it has one
     */
    public static boolean names(Set<String> asked, String title) {
        boolean any = false;
        for (Matcher word = WORD.matcher(folded(title)); word.find(); ) {
            Set<String> own = of(word.group());
            if (!asked.containsAll(own)) {
                Set<String> parts = new HashSet<>();
                addNameParts(word.group(), true, parts);
                if (parts.isEmpty() || !asked.containsAll(parts)) {
                    return false;
                }
            }
            any |= !own.isEmpty();
        }
        return any;
    }

    /**
     * @param text any text
     * @return each stem of its content words with the word it first came from, in order of appearance
     */
    public static Map<String, String> words(String text) {
        String plain = folded(Objects.requireNonNull(text, "text"));
        Matcher word = WORD.matcher(plain);
        Map<String, String> terms = new LinkedHashMap<>();
        String namePart = null; // "full", "last" or "first", kept unless "name" follows
        while (word.find()) {
            String written = word.group();
            boolean option = isShortOption(plain, word.start(), written);
            // an acronym's plural is the acronym ("PDFs" meets "PDF"): too short for a stem to take its "s" off
            if (!option && written.endsWith("s") && Character.isUpperCase(written.charAt(0))
                    && ACRONYMS.matcher(written).matches()) {
                written = written.substring(0, written.length() - 1);
            }
            String w = option ? "-" + written : written.toLowerCase(Locale.ROOT);
            if (namePart != null && !w.equals("name") && !w.equals("names")) {
                terms.putIfAbsent(stem(namePart), namePart);
            }
            namePart = NAME_PARTS.contains(w) ? w : null;
            if (option) {
                terms.putIfAbsent(w, w);                           // "-k" is no word, and all a question asks about
                continue;
            }
            boolean code = w.length() == 2 && CODE.matcher(written).matches();
            if (namePart == null && (w.length() >= KeyTerms.MIN_LENGTH || code) && !KeyTerms.STOP_WORDS.contains(w)
                    && !QUESTION_WORDS.contains(w) && !ANSWER_FORM_WORDS.contains(w)) {
                terms.putIfAbsent(stem(w), w);
            }
        }
        if (namePart != null) {
            terms.putIfAbsent(stem(namePart), namePart);
        }
        return terms;
    }

    /** Adds the stems of the parts of a name written as code ({@link #inPassage}) to {@code terms}. */
    private static void addNameParts(String written, boolean quoted, Set<String> terms) {
        if (!HUMP.matcher(written).find()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        for (Matcher part = NAME_PART.matcher(written); part.find(); ) {
            String p = part.group().toLowerCase(Locale.ROOT);
            if (p.length() >= KeyTerms.MIN_LENGTH) {
                parts.add(p);
            }
        }
        if (parts.size() < 2 || parts.size() < CODE_NAME_PARTS && !quoted
                && !Character.isLowerCase(written.charAt(0))) {
            return;
        }
        for (String p : parts) {
            if (!KeyTerms.STOP_WORDS.contains(p) && !QUESTION_WORDS.contains(p)) {
                terms.add(stem(p));
            }
        }
    }

    /**
     * Whether a short word is a command-line option's letter: one or two letters or digits right after a single dash
     * that starts a word ({@code -k}, {@code -j4}, {@code -9}, in back quotes or brackets too), as option lists and
     * questions about them write it. Kept with its dash and its letter case ({@code -k} and {@code -K} differ), so
     * "What does -k do?" meets "-k --keep: Keep input files" and no word with a "k" in it.
     */
    private static boolean isShortOption(String text, int start, String written) {
        if (written.length() > 2 || start == 0 || text.charAt(start - 1) != '-') {
            return false;
        }
        int end = start + written.length();
        return (start == 1 || OPTION_BEFORE.indexOf(text.charAt(start - 2)) >= 0
                || Character.isWhitespace(text.charAt(start - 2)))
                && (end == text.length() || text.charAt(end) != '-');
    }

    /**
     * A text with its letters' accents and other marks taken off, and the Latin letters that have no mark to take off
     * written as their nearest ASCII ("Beyoncé" → "Beyonce", "Müller" → "Muller", "Ørsted" → "Orsted", "straße" →
     * "strasse"): a question typed without accents meets the passage that has them, and a word with an accented letter
     * is one word, not the runs of ASCII letters around it. The text itself when it is all ASCII.
     *
     * @param text any text
     * @return the text folded to ASCII letters where it can be
     */
    static String folded(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                String bare = MARKS.matcher(Normalizer.normalize(text, Normalizer.Form.NFD)).replaceAll("");
                StringBuilder out = new StringBuilder(bare.length());
                for (int j = 0; j < bare.length(); j++) {
                    char c = bare.charAt(j);
                    int at = UNMARKED.indexOf(c);
                    if (at < 0) {
                        out.append(c);
                    } else {
                        out.append(ASCII_OF_UNMARKED[at]);
                    }
                }
                return out.toString();
            }
        }
        return text;
    }

    /**
     * Weighs the question's words by their rarity among passages: {@code ln((passages + 1) / (passages holding the
     * word + 0.5))}, so a word every passage holds counts little and a word none holds counts most.
     *
     * @param asked    the question's words ({@link #of})
     * @param passages the words of each passage ({@link #of})
     * @return each asked word with its weight
     */
    public static Map<String, Double> rarity(Set<String> asked, List<Set<String>> passages) {
        Map<String, Double> weights = new HashMap<>();
        for (String term : asked) {
            int holding = 0;
            for (Set<String> p : passages) {
                holding += p.contains(term) ? 1 : 0;
            }
            weights.put(term, Math.log((passages.size() + 1.0) / (holding + 0.5)));
        }
        return weights;
    }

    /**
     * @param weights the question's words with their weights ({@link #rarity})
     * @param terms   the words of a text
     * @return the share of the total weight that the text holds, 0 when the question has no weight
     */
    public static double coverage(Map<String, Double> weights, Set<String> terms) {
        double total = 0;
        double covered = 0;
        for (Map.Entry<String, Double> w : weights.entrySet()) {
            total += w.getValue();
            covered += terms.contains(w.getKey()) ? w.getValue() : 0;
        }
        return total > 0 ? covered / total : 0;
    }

    /**
     * A rough stem: the first of {@code -ing}, {@code -ed}, {@code -es}, {@code -s}, {@code -ly} that the word ends
     * with is cut off when at least four characters remain, else a final {@code -e}. Crude, but applied alike to
     * questions and passages it only has to map a word's forms to one key ("configure", "configures", "configured",
     * "configuring"), not to a dictionary word. A form no suffix joins ({@link #FORMS}: "won", "written", "winner")
     * takes its base form's stem.
     *
     * @param word a lower-case word
     * @return its stem
     */
    public static String stem(String word) {
        String base = BASE_FORMS.get(word);
        if (base != null && !base.equals(word)) {
            return stem(base);
        }
        for (String suffix : SUFFIXES) {
            if (word.endsWith(suffix) && word.length() - suffix.length() >= MIN_STEM) {
                return word.substring(0, word.length() - suffix.length());
            }
        }
        // a final "e" goes where "-es" and "-ed" went: "release" meets "releases" and "released"
        return word.endsWith("e") && word.length() - 1 >= MIN_STEM ? word.substring(0, word.length() - 1) : word;
    }
}
