package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

final class MetadataTermsTest {

    @Test
    void number_terms_sortLikeTheNumbers() {
        Random random = new Random(1);
        List<Double> numbers = new ArrayList<>(List.of(-1e300, -5.5, -0.0, 0.0, 1e-9, 3.0, 2024.0, 1e300));
        for (int i = 0; i < 200; i++) {
            numbers.add((random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20)));
        }
        for (double a : numbers) {
            for (double b : numbers) {
                int byNumber = Double.compare(a == 0 ? 0.0 : a, b == 0 ? 0.0 : b);
                int byTerm = MetadataTerms.number("k", a).compareTo(MetadataTerms.number("k", b));
                assertThat(Integer.signum(byTerm)).as("%s vs %s", a, b).isEqualTo(Integer.signum(byNumber));
            }
        }
        assertThat(MetadataTerms.number("k", 1e300)).isLessThan(MetadataTerms.highest("k"));
        assertThat(MetadataTerms.number("k", -1e300)).isGreaterThan(MetadataTerms.lowest("k"));
    }

    @Test
    void date_terms_sortLikeTheInstants() {
        long[] millis = {Long.MIN_VALUE / 4, -86_400_000L, -1, 0, 1, 1_715_904_000_000L, Long.MAX_VALUE / 4};
        for (int i = 1; i < millis.length; i++) {
            assertThat(MetadataTerms.date("k", millis[i - 1])).isLessThan(MetadataTerms.date("k", millis[i]));
        }
    }

    @Test
    void keyValue_keysWithEqualsSigns_neverCollide() {
        assertThat(MetadataTerms.keyValue("a=b", "c")).isNotEqualTo(MetadataTerms.keyValue("a", "b=c"));
        assertThat(MetadataTerms.number("a=", 1)).doesNotStartWith(MetadataTerms.lowest("a").substring(0, 2));
    }

    @Test
    void of_metadata_writesNumberAndDateTermsOnlyForReadableValues() {
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("year", "2024");
        metadata.put("published", "2024-05-17");
        metadata.put("product", "x");

        MetadataTerms.Terms terms = MetadataTerms.of(metadata);

        assertThat(terms.keyValues()).containsExactly("year=2024", "published=2024-05-17", "product=x");
        assertThat(terms.numbers()).containsExactly(MetadataTerms.number("year", 2024));
        assertThat(terms.dates()).hasSize(1).allSatisfy(t -> assertThat(t).startsWith("published="));
    }
}
