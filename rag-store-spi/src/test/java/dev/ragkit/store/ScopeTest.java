package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class ScopeTest {

    @Test
    void canSee_documentOfOtherTenant_returnsFalseEvenWhenUnrestricted() {
        assertThat(Scope.of("a").canSee("b", Set.of())).isFalse();
        assertThat(Scope.of("a", "hr").canSee("b", Set.of("hr"))).isFalse();
        assertThat(Scope.unrestricted("a").canSee("b", Set.of())).isFalse();
    }

    @Test
    void canSee_untaggedDocument_returnsTrueForEveryScopeOfItsTenant() {
        assertThat(Scope.of("a").canSee("a", Set.of())).isTrue();
        assertThat(Scope.of("a", "hr").canSee("a", Set.of())).isTrue();
        assertThat(Scope.unrestricted("a").canSee("a", Set.of())).isTrue();
    }

    @Test
    void canSee_taggedDocument_requiresAtLeastOneSharedTag() {
        Set<String> tags = Set.of("hr", "eng");

        assertThat(Scope.of("a").canSee("a", tags)).isFalse();
        assertThat(Scope.of("a", "finance").canSee("a", tags)).isFalse();
        assertThat(Scope.of("a", "eng").canSee("a", tags)).isTrue();
        assertThat(Scope.of("a", "finance", "hr").canSee("a", tags)).isTrue();
    }

    @Test
    void canSee_unrestrictedScope_seesTaggedDocumentsOfItsTenant() {
        assertThat(Scope.unrestricted("a").canSee("a", Set.of("hr"))).isTrue();
    }

    @Test
    void canSee_storedDocument_usesItsTenantAndTags() {
        StoredDocument doc = StoredDocument.builder().tenant("a").path("p.md").accessTags("hr").build();

        assertThat(Scope.of("a", "hr").canSee(doc)).isTrue();
        assertThat(Scope.of("a").canSee(doc)).isFalse();
        assertThat(Scope.of("b", "hr").canSee(doc)).isFalse();
    }

    @Test
    void of_blankTenant_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> Scope.of("  ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tenant");
        assertThatThrownBy(() -> Scope.unrestricted("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void of_nullTenant_throwsNullPointerExceptionNamingIt() {
        assertThatThrownBy(() -> Scope.of(null, List.of())).isInstanceOf(NullPointerException.class)
                .hasMessage("tenant");
    }

    @Test
    void of_blankTag_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> Scope.of("a", "hr", " ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("access tag");
    }

    @Test
    void accessTags_givenUnsorted_areSortedAndImmutable() {
        Scope scope = Scope.of("a", "ops", "eng", "hr");

        assertThat(scope.accessTags()).containsExactly("eng", "hr", "ops");
        assertThatThrownBy(() -> scope.accessTags().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(scope.unrestricted()).isFalse();
        assertThat(Scope.unrestricted("a").unrestricted()).isTrue();
    }
}
