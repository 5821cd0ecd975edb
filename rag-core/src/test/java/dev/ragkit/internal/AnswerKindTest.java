package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

final class AnswerKindTest {

    @Test
    void of_readsTheKindFromTheQuestionsFirstWords() {
        assertThat(AnswerKind.of("When were the 76ers formed?")).isEqualTo(AnswerKind.TIME);
        assertThat(AnswerKind.of("In what year did Pushkin write Eugene Onegin?")).isEqualTo(AnswerKind.TIME);
        assertThat(AnswerKind.of("  which century saw the castle built")).isEqualTo(AnswerKind.TIME);
        assertThat(AnswerKind.of("How many days are in the lunar year?")).isEqualTo(AnswerKind.QUANTITY);
        assertThat(AnswerKind.of("How long does a cold usually last?")).isEqualTo(AnswerKind.QUANTITY);
        assertThat(AnswerKind.of("What is the population of Oslo?")).isEqualTo(AnswerKind.QUANTITY);
        assertThat(AnswerKind.of("Who was the first director of the CIA?")).isEqualTo(AnswerKind.NAME);
        assertThat(AnswerKind.of("Whose portrait hangs in the hall?")).isEqualTo(AnswerKind.NAME);
        // a question asking for a name asks for a capitalised name too
        assertThat(AnswerKind.of("What is the first name of the man who shot Tom?")).isEqualTo(AnswerKind.NAME);
        assertThat(AnswerKind.of("What's the full name of Rogers' company?")).isEqualTo(AnswerKind.NAME);
        assertThat(AnswerKind.of("What were the names of the victims?")).isEqualTo(AnswerKind.NAME);
        assertThat(AnswerKind.of("Which name did the band take?")).isEqualTo(AnswerKind.NAME);
        // anything else, and words that only start like a question word
        assertThat(AnswerKind.of("Where was the film shot?")).isEqualTo(AnswerKind.PLACE);
        assertThat(AnswerKind.of("In which country is Lake Malawi?")).isEqualTo(AnswerKind.NAME);
        assertThat(AnswerKind.of("what state is colby cheese from")).isEqualTo(AnswerKind.NAME);
        // "what is" a thing asks what it is; "what is the capital of" asks for something else
        assertThat(AnswerKind.of("What is a rift lake?")).isEqualTo(AnswerKind.DEFINITION);
        assertThat(AnswerKind.of("what are enzymes")).isEqualTo(AnswerKind.DEFINITION);
        assertThat(AnswerKind.of("What is the capital of Malawi?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("What is the smallest camcorder?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("What is Paige's husband's nickname?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("What is used to access the file if the key is lost?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("Whereas the law changed, what stayed?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("What is the namesake of the lake?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("Whenever the index changes, what happens?")).isEqualTo(AnswerKind.ANY);
        assertThat(AnswerKind.of("Wann wurde Berlin gegründet?")).isEqualTo(AnswerKind.ANY);
    }

    @Test
    void asksFullName_onlyWhenTheQuestionSaysFullName() {
        assertThat(AnswerKind.asksFullName("What is the Full Name of the man Ana fires?")).isTrue();
        assertThat(AnswerKind.asksFullName("What are the full names of the two sisters?")).isTrue();
        assertThat(AnswerKind.asksFullName("What is the first name of the man Ana fires?")).isFalse();
        assertThat(AnswerKind.asksFullName("Who wrote a fullname resolver?")).isFalse();
    }

    @Test
    void heldBy_aTimeIsAYearADecadeAMonthOrACentury() {
        Set<String> asked = QueryTerms.of("When did the gecko first appear?");
        assertThat(AnswerKind.TIME.heldBy("The gecko first appeared in 2000, during a strike.", asked)).isTrue();
        assertThat(AnswerKind.TIME.heldBy("It was popular in the 1970s.", asked)).isTrue();
        assertThat(AnswerKind.TIME.heldBy("It opened in May.", asked)).isTrue();
        assertThat(AnswerKind.TIME.heldBy("The castle dates from the 15th century.", asked)).isTrue();
        assertThat(AnswerKind.TIME.heldBy("The gecko is the company's mascot.[12]", asked)).isFalse();
    }

    @Test
    void heldBy_aQuantityIsANumber_butNotAReferenceMark() {
        Set<String> asked = QueryTerms.of("How many copies did it sell?");
        assertThat(AnswerKind.QUANTITY.heldBy("It sold 7 million copies.", asked)).isTrue();
        assertThat(AnswerKind.QUANTITY.heldBy("He had two children.", asked)).isTrue();
        assertThat(AnswerKind.QUANTITY.heldBy("The game sold well.[110][111]", asked)).isFalse();
    }

    @Test
    void heldBy_aPersonIsANameTheQuestionDoesNotHold() {
        Set<String> asked = QueryTerms.of("Who was the first director of the CIA?");
        assertThat(AnswerKind.NAME.heldBy("The post was first held by Admiral Sidney Souers.", asked)).isTrue();
        assertThat(AnswerKind.NAME.heldBy("The director of the CIA is appointed.", asked)).isFalse();
        assertThat(AnswerKind.NAME.heldBy("The post of the CIA director is old.", asked)).isFalse();
        assertThat(AnswerKind.NAME.heldBy("Sidney was first.", asked)).isFalse();   // a sentence's first word
    }

    @Test
    void heldBy_aPlaceIsANameAfterAWordThatPlaces_notOneTheQuestionHolds() {
        Set<String> asked = QueryTerms.of("Where was War for the Planet of the Apes filmed?");
        assertThat(AnswerKind.PLACE.heldBy("Filming took place in the Lower Mainland in Vancouver.", asked)).isTrue();
        assertThat(AnswerKind.PLACE.heldBy("It was shot near Kananaskis over two months.", asked)).isTrue();
        assertThat(AnswerKind.PLACE.heldBy("The film premiered on July 10, 2017.", asked)).isFalse();
        assertThat(AnswerKind.PLACE.heldBy("Filming of the Planet of the Apes sequel began late.", asked)).isFalse();
        assertThat(AnswerKind.PLACE.heldBy("The score was written by Michael Giacchino.", asked)).isFalse();
    }

    @Test
    void heldBy_aDefinitionSaysWhatTheAskedThingIs() {
        // "What is Valgrind?" quoted "If you are developing Valgrind, please read README_DEVELOPERS." first
        Set<String> asked = QueryTerms.of("What is Valgrind?");
        assertThat(AnswerKind.DEFINITION.heldBy("Valgrind is a framework for building dynamic analysis tools.", asked))
                .isTrue();
        assertThat(AnswerKind.DEFINITION.heldBy("The valgrind tool refers to memcheck.", asked)).isTrue();
        assertThat(AnswerKind.DEFINITION.heldBy("If you are developing Valgrind, please read it.", asked)).isFalse();
        assertThat(AnswerKind.DEFINITION.heldBy("It is a framework, as Valgrind's README says.", asked)).isFalse();
        assertThat(AnswerKind.DEFINITION.heldBy("Valgrind is a framework.", Set.of())).isFalse();
    }

    @Test
    void heldBy_anyOtherQuestionTellsNoSentenceApart() {
        assertThat(AnswerKind.ANY.heldBy("It opened in 2000 under Admiral Souers.", Set.of())).isFalse();
    }
}
