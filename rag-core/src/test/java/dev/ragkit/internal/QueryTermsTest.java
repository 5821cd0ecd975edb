package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class QueryTermsTest {

    @Test
    void words_leaveOutQuestionWordsAndTheWordsThatFrameTheAnswer() {
        assertThat(QueryTerms.words("What is the full name of the person who founded Acme?"))
                .containsExactly(Map.entry("found", "founded"), Map.entry("acme", "acme"));
        assertThat(QueryTerms.words("What kind of tree is the Major Oak, and what type of wood is it called?").values())
                .containsExactly("tree", "major", "oak", "wood");
        assertThat(QueryTerms.words("Whose last names did someone change?").values()).containsExactly("change");
    }

    @Test
    void words_keepFullLastAndFirst_whenNoNameFollows() {
        assertThat(QueryTerms.words("Who was the first director of the CIA?").values())
                .containsExactly("first", "director", "cia");
        assertThat(QueryTerms.words("When was the last season of the show?").values())
                .containsExactly("last", "season", "show");
        assertThat(QueryTerms.words("Was the moon full").values()).containsExactly("moon", "full");
        assertThat(QueryTerms.words("Her first, named Tom").values()).containsExactly("first", "tom");
    }

    @Test
    void words_keepTwoCharacterNames_capitalsOrALetterAndADigit() {
        assertThat(QueryTerms.words("When was the last season of ER?").values())
                .containsExactly("last", "season", "er");
        assertThat(QueryTerms.words("Who in HR handles P1 incidents in Q3?").values())
                .containsExactly("hr", "handles", "p1", "incidents", "q3");
        // lower-case two-letter words and capitalised stop words are not names
        assertThat(QueryTerms.words("Go up to IT or ask me").values()).containsExactly("ask");
        assertThat(QueryTerms.of("The ER team")).contains("er");
        assertThat(QueryTerms.of("the older team")).doesNotContain("er");
    }

    @Test
    void inPassage_aCamelCaseName_holdsItsWords_besideTheNameItself() {
        // "Which exception is thrown when the token budget is exceeded?" was routed over the code that throws
        // TokenBudgetExceededException: no passage "mentioned 'exception', 'budget'"
        Set<String> code = QueryTerms.inPassage("@throws dev.ragkit.error.TokenBudgetExceededException if maxTokens < 1");
        assertThat(code).contains("tokenbudgetexceededexception", "token", "budget", "exceed", "exception", "max");
        assertThat(code).containsAll(QueryTerms.of("Which exception is thrown when the token budget is exceeded?"));
        assertThat(QueryTerms.inPassage("the getHTTPResponse call")).contains("gethttprespons", "get", "http", "respons");
        // a name with one part of three letters or more is one word, as is a word without a hump
        assertThat(QueryTerms.inPassage("McDonald bought an iPhone in LONDON"))
                .isEqualTo(QueryTerms.of("mcdonald bought an iphone in london"));
        // parts that are stop words are left out
        assertThat(QueryTerms.inPassage("theSetupWithAll")).containsExactlyInAnyOrder("thesetupwithall", "setup");
        // a name of two capitalised parts is code in back quotes, a brand in prose ("RagKit logs through SLF4J" was
        // quoted for "Which modules do I add to use rag-core?")
        assertThat(QueryTerms.inPassage("Implement `DocumentParser`; RagKit finds it")).contains("document", "parser")
                .doesNotContain("rag", "kit");
        assertThat(QueryTerms.inPassage("A DocumentParser, `x` and `RagKit`")).contains("rag", "kit")
                .doesNotContain("document", "parser");
        // a question's names are not split: it asks about RagKit, and a passage about a rag or a kit does not answer
        assertThat(QueryTerms.of("What can `RagKit` read?")).containsExactlyInAnyOrder("ragkit", "read");
    }

    @Test
    void names_aTitleIsNamedWhenEachOfItsWordsIsAsked_aCodeNameByItsParts() {
        Set<String> asked = QueryTerms.of("Which exception is thrown when the token budget is exceeded?");
        assertThat(QueryTerms.names(asked, "TokenBudgetExceededException")).isTrue();
        assertThat(QueryTerms.names(asked, "TokenBudget")).isTrue();              // a title's name is code
        assertThat(QueryTerms.names(asked, "TokenWindowChunker")).isFalse();
        assertThat(QueryTerms.names(QueryTerms.of("Who headlined Super Bowl LI?"), "Super Bowl LII")).isFalse();
        assertThat(QueryTerms.names(QueryTerms.of("Who headlined the Super Bowl LII show?"), "The Super Bowl LII"))
                .isTrue();
        assertThat(QueryTerms.names(asked, "The")).isFalse();                     // a title without content words
    }

    @Test
    void of_anAcronymsPlural_isTheAcronym() {
        // "How do I index a folder of PDFs?" was routed: no passage "mentions 'pdfs'", all of them say "PDF"
        assertThat(QueryTerms.of("How do I index a folder of PDFs, IDs and APIs?"))
                .isEqualTo(QueryTerms.of("the folder, PDF, ID and API I index"));
        // a word in capitals that ends in a capital S, or a name that is no acronym, is left as it is
        assertThat(QueryTerms.of("GPS and CSS for Texas")).isEqualTo(QueryTerms.of("gps and css for texas"))
                .contains("gps", "css");
    }

    @Test
    void words_keepAShortCommandLineOption_withItsDashAndCase() {
        // "What does the -k option of bzip2 do?" quoted the -d option: "k" was too short to be a word
        assertThat(QueryTerms.words("What does the -k option of bzip2 do?")).containsExactly(
                Map.entry("-k", "-k"), Map.entry("option", "option"), Map.entry("bzip2", "bzip2"));
        assertThat(QueryTerms.of("-k --keep: Keep (don't delete) input files")).contains("-k", "keep")
                .doesNotContain("-K");
        assertThat(QueryTerms.of("Run `make -j4` or (-9), then [-K]")).contains("-j4", "-9", "-K");
        // a dash inside a word, a long option or a range is no short option
        assertThat(QueryTerms.of("an x-ray of the T-1000 with --k and -k-means")).noneMatch(t -> t.startsWith("-"));
    }

    @Test
    void stem_mapsAWordsFormsToOneKey() {
        assertThat(List.of("purchase", "purchases", "purchased", "purchasing").stream().map(QueryTerms::stem)
                .distinct()).containsExactly("purchas");
        assertThat(List.of("configure", "configures", "configured", "configuring").stream().map(QueryTerms::stem)
                .distinct()).containsExactly("configur");
        assertThat(QueryTerms.stem("tree")).isEqualTo("tree");            // too short to cut
        assertThat(QueryTerms.stem("uses")).isEqualTo("uses");            // too short to cut
    }

    @Test
    void stem_joinsIrregularFormsAndTheNounForWhoDoesIt_whichNoSuffixJoins() {
        assertThat(List.of("win", "wins", "winning", "won", "winner", "winners").stream().map(QueryTerms::stem)
                .distinct()).containsExactly("win");
        assertThat(List.of("write", "writes", "wrote", "written", "writer").stream().map(QueryTerms::stem)
                .distinct()).hasSize(1);
        assertThat(List.of("make", "makes", "making", "made").stream().map(QueryTerms::stem).distinct()).hasSize(1);
        assertThat(QueryTerms.stem("director")).isEqualTo(QueryTerms.stem("directed"));
        // the question's word meets the answer's sentence
        java.util.Set<String> shared = QueryTerms.of("who won the womens 2017 ncaa basketball tournament");
        shared.retainAll(QueryTerms.of("South Carolina defeated Mississippi State to win the championship."));
        assertThat(shared).containsExactly("win");
        assertThat(QueryTerms.of("Who wrote the song?")).contains(QueryTerms.stem("written"));
        // forms that are as often another word stay apart
        assertThat(QueryTerms.stem("left")).isNotEqualTo(QueryTerms.stem("leave"));
        assertThat(QueryTerms.stem("found")).isNotEqualTo(QueryTerms.stem("find"));
    }

    @Test
    void coverage_weighsRareWordsMost() {
        Map<String, Double> weights = QueryTerms.rarity(QueryTerms.of("Acme founder"),
                List.of(QueryTerms.of("Acme and the founder"), QueryTerms.of("Acme shop"), QueryTerms.of("Acme")));

        assertThat(weights.get(QueryTerms.stem("founder"))).isGreaterThan(weights.get("acme"));
        assertThat(QueryTerms.coverage(weights, QueryTerms.of("Acme shop"))).isLessThan(0.5);
        assertThat(QueryTerms.coverage(weights, QueryTerms.of("the founder of Acme"))).isEqualTo(1.0);
        assertThat(QueryTerms.coverage(Map.of(), QueryTerms.of("anything"))).isZero();
    }

    @Test
    void words_areReadWithoutAccents_soAQuestionTypedWithoutThemMeetsThePassage() {
        // before, only ASCII letters made words: "Beyoncé" gave "beyonc", "Müller" gave "ller"
        assertThat(QueryTerms.of("Beyoncé sang with Müller in Zürich")).isEqualTo(QueryTerms.of(
                "beyonce sang with muller in zurich"));
        assertThat(QueryTerms.words("Ørsted, Straße, Łódź, Æsir").values())
                .containsExactly("orsted", "strasse", "lodz", "aesir");
        String ascii = "plain text";
        assertThat(QueryTerms.folded(ascii)).isSameAs(ascii);
    }
}
