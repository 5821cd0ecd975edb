package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class ReferenceMarksTest {

    @Test
    void skip_passesARunOfMarks_andNothingElse() {
        String text = "time.[1][12][note 3][NB 2][lower-alpha 4][a][^4][citation needed] It";

        assertThat(ReferenceMarks.skip(text, 5)).isEqualTo(text.indexOf(" It"));
        assertThat(ReferenceMarks.skip(text, 0)).isZero();
        assertThat(ReferenceMarks.skip("[1234] x", 0)).as("four digits: a year, not a mark").isZero();
        assertThat(ReferenceMarks.skip("[ab] x", 0)).isZero();
        assertThat(ReferenceMarks.skip("[see the notes 2] x", 0)).as("a label is one word").isZero();
        assertThat(ReferenceMarks.skip("[-note 2] x", 0)).isZero();
        assertThat(ReferenceMarks.skip("[1", 0)).isZero();
        assertThat(ReferenceMarks.skip("[", 0)).isZero();
        assertThat(ReferenceMarks.skip("x", 1)).isEqualTo(1);
    }

    @Test
    void maskAsClosers_keepsEveryOtherCharacterInPlace() {
        String text = "over time.[1][2] It is [the] list[0]";

        String masked = ReferenceMarks.maskAsClosers(text);

        assertThat(masked).hasSameSizeAs(text).isEqualTo("over time.)))))) It is [the] list)))");
        assertThat(ReferenceMarks.maskAsClosers("no marks")).isEqualTo("no marks");
    }
}
