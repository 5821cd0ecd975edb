package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

final class HostOriginCheckTest {
    private final HostOriginCheck check = HostOriginCheck.of("127.0.0.1", 8080, List.of("https://app.example.com"),
            List.of("Rag.Example:8080"));

    @Test
    void check_loopbackNamesAndAllowedOnes_pass() {
        assertThat(check.check(List.of("127.0.0.1:8080"), List.of())).isNull();
        assertThat(check.check(List.of("LOCALHOST:8080"), List.of("http://localhost:8080"))).isNull();
        assertThat(check.check(List.of("[::1]:8080"), List.of("https://app.example.com"))).isNull();
        assertThat(check.check(List.of("rag.example:8080"), List.of())).isNull();
    }

    @Test
    void check_foreignHostOrMissingHost_isRefusedOnHost() {
        assertThat(check.check(List.of("evil.example:8080"), List.of())).isEqualTo(
                new HostOriginCheck.Refusal(HostOriginCheck.Header.HOST, "evil.example:8080"));
        assertThat(check.check(List.of("127.0.0.1:9999"), List.of()).header()).isEqualTo(HostOriginCheck.Header.HOST);
        assertThat(check.check(List.of(), List.of())).isEqualTo(
                new HostOriginCheck.Refusal(HostOriginCheck.Header.HOST, null));
    }

    @Test
    void check_foreignOrigin_isRefusedOnOrigin_evenWithAGoodHost() {
        assertThat(check.check(List.of("127.0.0.1:8080"), List.of("http://evil.example"))).isEqualTo(
                new HostOriginCheck.Refusal(HostOriginCheck.Header.ORIGIN, "http://evil.example"));
    }

    @Test
    void withSameOrigin_acceptsThePagesOwnOrigin_onlyForAnAllowedHost() {
        HostOriginCheck page = check.withSameOrigin();
        assertThat(check.check(List.of("rag.example:8080"), List.of("http://rag.example:8080"))).isNotNull();
        assertThat(page.check(List.of("rag.example:8080"), List.of("http://rag.example:8080"))).isNull();
        // a rebinding page: its origin equals its Host, but that Host is not this server's
        assertThat(page.check(List.of("evil.example:8080"), List.of("http://evil.example:8080"))).isNotNull();
        assertThat(page.check(List.of("evil.example:8080"), List.of())).isNotNull();
        assertThat(page.check(List.of("rag.example:8080"), List.of("http://evil.example:8080")).header())
                .isEqualTo(HostOriginCheck.Header.ORIGIN);
    }

    @Test
    void of_port80_allowsNamesWithoutAPort() {
        HostOriginCheck on80 = HostOriginCheck.of("127.0.0.1", 80, List.of(), List.of());
        assertThat(on80.check(List.of("localhost"), List.of("http://localhost"))).isNull();
    }
}
