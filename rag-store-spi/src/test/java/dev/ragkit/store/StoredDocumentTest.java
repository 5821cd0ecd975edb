package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

final class StoredDocumentTest {

    @Test
    void idFor_sameTenantAndPath_returnsSameId() {
        assertThat(StoredDocument.idFor("acme", "guides/install.md"))
                .isEqualTo(StoredDocument.idFor("acme", "guides/install.md"));
    }

    @Test
    void idFor_differentTenantsOrPaths_returnDifferentIds() {
        String id = StoredDocument.idFor("acme", "guides/install.md");

        assertThat(StoredDocument.idFor("globex", "guides/install.md")).isNotEqualTo(id);
        assertThat(StoredDocument.idFor("acme", "guides/other.md")).isNotEqualTo(id);
    }

    @Test
    void idFor_separatorMovedBetweenTenantAndPath_returnsDifferentIds() {
        assertThat(StoredDocument.idFor("a:b", "c")).isNotEqualTo(StoredDocument.idFor("a", "b:c"));
    }

    @Test
    void idFor_anyInput_returnsLowerCaseUuid() {
        String id = StoredDocument.idFor("Acme", "Guides/Install.md");

        assertThat(id).hasSize(36).isLowerCase();
        assertThat(UUID.fromString(id).toString()).isEqualTo(id);
    }

    @Test
    void idFor_blankArgument_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> StoredDocument.idFor(" ", "p.md")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StoredDocument.idFor("t", "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void builder_withoutIdOrTitle_derivesIdFromTenantAndPathAndTitleFromPath() {
        StoredDocument doc = StoredDocument.builder().tenant("acme").path("a.md").build();

        assertThat(doc.id()).isEqualTo(StoredDocument.idFor("acme", "a.md"));
        assertThat(doc.title()).isEqualTo("a.md");
        assertThat(doc.promotionLevel()).isEqualTo(PromotionLevel.STANDARD);
        assertThat(doc.accessTags()).isEmpty();
    }

    @Test
    void builder_withoutTenantOrPath_throwsIllegalStateException() {
        assertThatThrownBy(() -> StoredDocument.builder().path("a.md").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("tenant");
        assertThatThrownBy(() -> StoredDocument.builder().tenant("acme").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("path");
    }

    @Test
    void builder_negativeCharCount_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> StoredDocument.builder().charCount(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void constructor_duplicateLinks_keepsFirstOccurrences() {
        StoredDocument doc = StoredDocument.builder().tenant("t").path("a.md")
                .links(List.of("b.md", "c.md", "b.md")).build();

        assertThat(doc.links()).containsExactly("b.md", "c.md");
    }

    @Test
    void constructor_blankDocType_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new StoredDocument("id", "p.md", "T", " ", PromotionLevel.STANDARD, null,
                new java.util.TreeSet<>(), null, List.of(), Map.of(), 0, "t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("docType");
    }

    @Test
    void toBuilder_unchanged_buildsEqualDocument() {
        StoredDocument doc = StoredDocument.builder().tenant("t").path("a.md").id("explicit").title("Title")
                .docType("guide").promotionLevel(PromotionLevel.CRITICAL).date(LocalDate.of(2024, 1, 2))
                .accessTags("hr").ownerTag("team").links(List.of("b.md")).metadata(Map.of("k", "v"))
                .charCount(10).build();

        assertThat(doc.toBuilder().build()).isEqualTo(doc);
        assertThat(doc.toBuilder().title("Other").build()).isNotEqualTo(doc);
    }

    @Test
    void collections_ofBuiltDocument_areImmutable() {
        StoredDocument doc = StoredDocument.builder().tenant("t").path("a.md").accessTags("hr")
                .links(List.of("b.md")).metadata(Map.of("k", "v")).build();

        assertThatThrownBy(() -> doc.accessTags().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> doc.links().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> doc.metadata().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
    }
}
