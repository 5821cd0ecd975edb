package dev.ragkit.internal;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kind of answer an English question asks for, read from its first words, and whether a sentence holds an answer
 * of that kind: "When was the gecko first shown?" wants a time, and of the sentences about the gecko the one that
 * says "in 2000" answers it. Questions in other languages, and English ones that ask for anything else, are
 * {@link #ANY}, which no sentence is told apart by. Stateless.
 */
public enum AnswerKind {
    /** "When …", "In what year …", "Which century …": a year, a decade, a month, a century, an era. */
    TIME,
    /** "How many …", "How long …", "What is the population of …": a number, in digits or in words. */
    QUANTITY,
    /**
     * "Who …", "Whom …", "Whose …", "What is the (first, last, full …) name of …", "In which country …", "What city …":
     * a capitalised name that the question does not hold.
     */
    NAME,
    /**
     * "Where …": a capitalised name the question does not hold (not a month's or a day's) after a word that places
     * ("in", "at", "near", "from" …).
     */
    PLACE,
    /**
     * "What is Valgrind?", "What are enzymes?": a sentence that says what the thing is — its name before "is a",
     * "are the", "was one", "refers to" near the sentence's start.
     */
    DEFINITION,
    /** Any other question. */
    ANY;

    private static final Pattern TIME_QUESTION = Pattern.compile(
            "^(when|since when|how long ago|((in|during|by|from|until) )?(what|which) (year|date|day|month|decade"
            + "|century|era|period|time)s?)\\b");
    private static final Pattern QUANTITY_QUESTION = Pattern.compile(
            "^(how (many|much|big|large|long|tall|high|far|old|heavy|deep|wide|fast|often)|(what|which) (is|was|are"
            + "|were) the (population|number|size|height|length|area|age|amount|cost|price|percentage|distance|speed"
            + "|weight|temperature))\\b");
    private static final Pattern PERSON_QUESTION = Pattern.compile("^(who|whom|whose|(what|which)('s| is| was| are"
            + "| were)? (the )?((first|last|full|given|maiden|real|birth|middle|stage) )?names?)\\b");
    private static final Pattern PLACE_QUESTION = Pattern.compile("^where\\b");
    /**
     * "What is X?" about a thing of at most four words. Not "What is the smallest camcorder?", "What is the capital of
     * …", "What is Paige's nickname?": those ask for something else that the thing has or is.
     */
    private static final Pattern DEFINITION_QUESTION = Pattern.compile("^what (is|are) (an? )?(?!the\\b)"
            + "(?!.*(\\b(of|for|in|on|to|by|with|from|about)\\b|'s\\b))([^\\s?]+( [^\\s?]+){0,3})\\s*\\?*$");
    /** Where a sentence starts saying what its subject is: "is a", "are the", "was one", "refers to". */
    private static final Pattern COPULA = Pattern.compile("\\b(?:(?:is|are|was|were) (?:an?|the|one)|refers? to)\\b");
    /** How far into a sentence its subject's "is a" may stand. */
    private static final int MAX_SUBJECT = 120;
    private static final Pattern PLACE_NAME_QUESTION = Pattern.compile("^((in|at|from|to|on) )?(what|which) (country"
            + "|countries|city|cities|state|states|town|county|province|region|continent|island|village|river|sea"
            + "|ocean|mountain|capital|nation)\\b");
    private static final String MONTHS = "January|February|March|April|May|June|July|August|September|October"
            + "|November|December";
    private static final Pattern TIME_WORDS = Pattern.compile(
            "\\b(1[0-9]{3}|20[0-9]{2}|[0-9]{1,4}s|" + MONTHS + "|century|centuries|BCE?|AD|CE)\\b");
    private static final Pattern QUANTITY_WORDS = Pattern.compile(
            "\\d|\\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozens?|hundreds?|thousands?"
            + "|millions?|billions?|trillions?)\\b", Pattern.CASE_INSENSITIVE);
    private static final Pattern FULL_NAME_QUESTION = Pattern.compile("\\bfull names?\\b");
    /** A capitalised name, not a month's or a day's, after a word that places: group 1 the name. */
    private static final Pattern PLACED = Pattern.compile("\\b(?:in|at|near|from|outside|inside|across|throughout"
            + "|within|between|into|off|to|on)\\s+(?:the\\s+)?(?!(?:" + MONTHS + "|Monday|Tuesday|Wednesday|Thursday|Friday"
            + "|Saturday|Sunday)\\b)(\\p{Lu}[\\p{L}\\p{N}'’.-]*)");
    /** A capitalised word that does not start the sentence. */
    private static final Pattern CAPITALISED_WORD = Pattern.compile("(?<=[\\s(,;\"“])\\p{Lu}[\\p{L}\\p{N}'’.-]*");

    /**
     * @param question a question
     * @return the kind of answer it asks for, {@link #ANY} when its first words do not say
     */
    public static AnswerKind of(String question) {
        String q = Objects.requireNonNull(question, "question").strip().toLowerCase(Locale.ROOT);
        if (TIME_QUESTION.matcher(q).find()) {
            return TIME;
        }
        if (QUANTITY_QUESTION.matcher(q).find()) {
            return QUANTITY;
        }
        if (PERSON_QUESTION.matcher(q).find() || PLACE_NAME_QUESTION.matcher(q).find()) {
            return NAME;
        }
        if (PLACE_QUESTION.matcher(q).find()) {
            return PLACE;
        }
        return DEFINITION_QUESTION.matcher(q).matches() ? DEFINITION : ANY;
    }

    /**
     * @param question a question
     * @return whether it asks for someone's full name ("What is the full name of the man who …"): a name of one word
     *         is not the answer, though {@link #NAME} counts it as one
     */
    public static boolean asksFullName(String question) {
        return FULL_NAME_QUESTION.matcher(Objects.requireNonNull(question, "question").toLowerCase(Locale.ROOT)).find();
    }

    /**
     * @param sentence a sentence (reference marks such as {@code [12]} do not count as numbers)
     * @param asked    the question's content words ({@link QueryTerms#of}): a name among them is not an answer
     * @return whether the sentence holds an answer of this kind; always {@code false} for {@link #ANY}
     */
    public boolean heldBy(String sentence, Set<String> asked) {
        String text = ReferenceMarks.maskAsClosers(sentence);
        switch (this) {
            case TIME:
                return TIME_WORDS.matcher(text).find();
            case QUANTITY:
                return QUANTITY_WORDS.matcher(text).find();
            case NAME:
                return nameNotAsked(CAPITALISED_WORD.matcher(text), 0, asked);
            case PLACE:
                return nameNotAsked(PLACED.matcher(text), 1, asked);
            case DEFINITION:
                Matcher copula = COPULA.matcher(text);
                return copula.find() && copula.start() <= MAX_SUBJECT && !asked.isEmpty()
                        && QueryTerms.inPassage(text.substring(0, copula.start())).containsAll(asked);
            default:
                return false;
        }
    }

    /** Whether group {@code group} of a match is a name with a word that the question does not hold. */
    private static boolean nameNotAsked(Matcher names, int group, Set<String> asked) {
        while (names.find()) {
            Set<String> name = QueryTerms.of(names.group(group));
            if (!name.isEmpty() && !asked.containsAll(name)) {
                return true;
            }
        }
        return false;
    }
}
