package dev.ragkit.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LlmQueryTransformerTest {
    @Test
    void clean_takesTheFirstLineWithoutLabelOrQuotes() {
        assertThat(LlmQueryTransformer.clean("Rewritten question: \"How long is it kept?\"\nExplanation: the second"))
                .isEqualTo("How long is it kept?");
        assertThat(LlmQueryTransformer.clean("\n\n  What is the weekly backup?  ")).isEqualTo("What is the weekly backup?");
        assertThat(LlmQueryTransformer.clean("“Quoted”")).isEqualTo("Quoted");
        assertThat(LlmQueryTransformer.clean("   \n ")).isEmpty();
    }
}
