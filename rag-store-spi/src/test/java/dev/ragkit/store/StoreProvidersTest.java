package dev.ragkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class StoreProvidersTest {

    private record NamedProvider(String id) implements StoreProvider {
        @Override
        public DocumentStore create(Map<String, String> config) {
            throw new UnsupportedOperationException("not needed by these tests");
        }
    }

    @Test
    void byId_distinctIds_returnsProvidersSortedById() {
        StoreProvider b = new NamedProvider("b-store");
        StoreProvider a = new NamedProvider("a-store");

        Map<String, StoreProvider> byId = StoreProviders.byId(List.of(b, a));

        assertThat(byId).containsExactly(Map.entry("a-store", a), Map.entry("b-store", b));
    }

    @Test
    void byId_duplicateId_throwsStoreExceptionNamingTheId() {
        List<StoreProvider> found = List.of(new NamedProvider("in-memory"), new NamedProvider("in-memory"));

        assertThatThrownBy(() -> StoreProviders.byId(found)).isInstanceOf(StoreException.class)
                .hasMessageContaining("'in-memory'")
                .satisfies(e -> assertThat(((StoreException) e).isRetriable()).isFalse());
    }

    @Test
    void load_unknownId_throwsIllegalArgumentExceptionSayingWhatWasFound() {
        assertThatThrownBy(() -> StoreProviders.load("no-such-store", Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no-such-store");
    }

    @Test
    void capabilities_maxKBelowOne_throwsIllegalArgumentException() {
        assertThatThrownBy(() -> new StoreCapabilities(true, false, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
