package dev.ragkit.grounding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class InMemoryOwnerDirectoryTest {

    private static final Owner HR = new Owner("u-1", "hr@example.com");
    private static final Owner ACME_HR = new Owner("u-2", "people@acme.example");
    private static final Owner IT = new Owner("u-3", "it@example.com");

    @Test
    void ownerOf_registeredForAnyTenant_foundInEveryTenant() {
        InMemoryOwnerDirectory directory = InMemoryOwnerDirectory.builder().owner("hr", HR).build();

        assertThat(directory.ownerOf("acme", "hr")).contains(HR);
        assertThat(directory.ownerOf("globex", "hr")).contains(HR);
    }

    @Test
    void ownerOf_unknownTagOrOtherCase_empty() {
        InMemoryOwnerDirectory directory = InMemoryOwnerDirectory.builder().owner("hr", HR).build();

        assertThat(directory.ownerOf("acme", "it")).isEmpty();
        assertThat(directory.ownerOf("acme", "HR")).isEmpty();
    }

    @Test
    void ownerOf_tenantSpecificOwner_winsOverAnyTenantInThatTenantOnly() {
        InMemoryOwnerDirectory directory = InMemoryOwnerDirectory.builder()
                .owner("acme", "hr", ACME_HR)
                .owner("hr", HR)
                .build();

        assertThat(directory.ownerOf("acme", "hr")).contains(ACME_HR);
        assertThat(directory.ownerOf("globex", "hr")).contains(HR);
    }

    @Test
    void ownerOf_tenantSpecificOnly_emptyForOtherTenants() {
        InMemoryOwnerDirectory directory = InMemoryOwnerDirectory.builder().owner("acme", "it", IT).build();

        assertThat(directory.ownerOf("acme", "it")).contains(IT);
        assertThat(directory.ownerOf("globex", "it")).isEmpty();
    }

    @Test
    void owner_sameTagTwiceForAnyTenant_rejectedNamingTheTag() {
        InMemoryOwnerDirectory.Builder builder = InMemoryOwnerDirectory.builder().owner("hr", HR);

        assertThatIllegalArgumentException().isThrownBy(() -> builder.owner("hr", IT))
                .withMessageContaining("'hr'").withMessageContaining("once");
    }

    @Test
    void owner_sameTagTwiceInOneTenant_rejectedNamingTheTagAndTenant() {
        InMemoryOwnerDirectory.Builder builder = InMemoryOwnerDirectory.builder().owner("acme", "hr", HR);

        assertThatIllegalArgumentException().isThrownBy(() -> builder.owner("acme", "hr", IT))
                .withMessageContaining("'hr'").withMessageContaining("'acme'");
    }

    @Test
    void owner_sameTagInOtherTenantsAndForAnyTenant_allowed() {
        InMemoryOwnerDirectory directory = InMemoryOwnerDirectory.builder()
                .owner("acme", "hr", ACME_HR)
                .owner("globex", "hr", IT)
                .owner("hr", HR)
                .build();

        assertThat(directory.ownerOf("globex", "hr")).contains(IT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t"})
    void owner_blankTag_rejected(String tag) {
        assertThatIllegalArgumentException().isThrownBy(() -> InMemoryOwnerDirectory.builder().owner(tag, HR))
                .withMessageContaining("tag must not be blank");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> InMemoryOwnerDirectory.builder().owner("acme", tag, HR))
                .withMessageContaining("tag must not be blank");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void owner_blankTenant_rejected(String tenant) {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> InMemoryOwnerDirectory.builder().owner(tenant, "hr", HR))
                .withMessageContaining("tenant must not be blank");
    }

    @Test
    void build_laterBuilderChanges_doNotAffectTheDirectory() {
        InMemoryOwnerDirectory.Builder builder = InMemoryOwnerDirectory.builder().owner("hr", HR);
        InMemoryOwnerDirectory directory = builder.build();

        builder.owner("it", IT).owner("acme", "hr", ACME_HR);

        assertThat(directory.ownerOf("acme", "it")).isEmpty();
        assertThat(directory.ownerOf("acme", "hr")).contains(HR);
    }

    @Test
    void toBuilder_copiesOwnersAndStillRejectsDuplicates() {
        InMemoryOwnerDirectory original = InMemoryOwnerDirectory.builder()
                .owner("hr", HR).owner("acme", "hr", ACME_HR).build();

        InMemoryOwnerDirectory extended = original.toBuilder().owner("it", IT).build();

        assertThat(extended.ownerOf("acme", "hr")).contains(ACME_HR);
        assertThat(extended.ownerOf("globex", "it")).contains(IT);
        assertThat(original.ownerOf("globex", "it")).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> original.toBuilder().owner("acme", "hr", IT));
    }

    @Test
    void none_knowsNoOwner() {
        assertThat(OwnerDirectory.none().ownerOf("acme", "hr")).isEmpty();
    }
}
