package dev.ragkit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class BearerTokensTest {
    private static final String TOKEN = "0123456789abcdef0123";

    @Test
    void matches_sameToken_only() {
        byte[] digest = BearerTokens.digest(TOKEN);
        assertThat(BearerTokens.matches(TOKEN, digest)).isTrue();
        assertThat(BearerTokens.matches(TOKEN + "x", digest)).isFalse();
        assertThat(digest).hasSize(32).isNotEqualTo(TOKEN.getBytes());
    }

    @Test
    void checked_shortOrSpacedToken_isRefusedWithoutShowingIt() {
        assertThat(BearerTokens.checked("  " + TOKEN + "\n")).isEqualTo(TOKEN);
        assertThatThrownBy(() -> BearerTokens.checked("short-secret")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("openssl rand").hasMessageNotContaining("short-secret");
        assertThatThrownBy(() -> BearerTokens.checked("0123456789 abcdef0123"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void fromHeader_readsBearerOnly() {
        assertThat(BearerTokens.fromHeader("Bearer " + TOKEN)).isEqualTo(TOKEN);
        assertThat(BearerTokens.fromHeader("bearer  " + TOKEN + " ")).isEqualTo(TOKEN);
        assertThat(BearerTokens.fromHeader("Basic dXNlcjpwYXNz")).isNull();
        assertThat(BearerTokens.fromHeader(null)).isNull();
    }
}
