package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.StoreCapabilities;
import org.junit.jupiter.api.Test;

/** {@link DocumentStore#capabilities()}. */
abstract class CapabilitiesCases extends ContractFixtures {

    @Test
    void capabilities_calledRepeatedly_returnsEqualValues() {
        StoreCapabilities first = store().capabilities();
        put(document(TENANT_A, "caps.md").build(), "caps", axis(0));

        assertThat(store().capabilities()).isEqualTo(first);
        assertThat(store().capabilities()).isEqualTo(first);
    }

    @Test
    void capabilities_always_declareMaxKOfAtLeastOne() {
        assertThat(store().capabilities()).isNotNull();
        assertThat(store().capabilities().maxK()).isGreaterThanOrEqualTo(1);
    }
}
