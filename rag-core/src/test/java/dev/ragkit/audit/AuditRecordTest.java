package dev.ragkit.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class AuditRecordTest {

    private static AuditRecord record(AuditOutcome outcome, String errorType) {
        return AuditRecord.builder(AuditOperation.ASK).timestamp(Instant.EPOCH).requestId("r").tenant("t")
                .query("q", QueryRedaction.NONE).model("m").outcome(outcome, errorType).build();
    }

    @Test
    void sha256_abc_matchesKnownDigest() {
        assertThat(AuditRecord.sha256("abc"))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void sha256_emptyString_matchesKnownDigest() {
        assertThat(AuditRecord.sha256(""))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void constructor_errorWithoutErrorType_throws() {
        assertThatThrownBy(() -> record(AuditOutcome.ERROR, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("errorType");
    }

    @Test
    void constructor_errorTypeOnNonErrorOutcome_throws() {
        assertThatThrownBy(() -> record(AuditOutcome.ANSWERED, "java.io.IOException"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("errorType");
    }

    @Test
    void constructor_errorWithErrorType_keepsIt() {
        assertThat(record(AuditOutcome.ERROR, "java.io.IOException").errorType()).isEqualTo("java.io.IOException");
    }

    @Test
    void constructor_refusedWithoutReason_throws() {
        assertThatThrownBy(() -> record(AuditOutcome.REFUSED, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("REFUSED");
    }

    @Test
    void constructor_refusedWithReason_keepsIt() {
        assertThat(record(AuditOutcome.REFUSED, "TAG_NOT_ALLOWED").errorType()).isEqualTo("TAG_NOT_ALLOWED");
    }

    @Test
    void constructor_nullRequiredField_throwsNamingIt() {
        assertThatThrownBy(() -> new AuditRecord(Instant.EPOCH, null, "t", null, "h", List.of(), 0, "m", null, null,
                0L, AuditOutcome.DECLINED, null, AuditOperation.ASK, Map.of(), null, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("requestId");
        assertThatThrownBy(() -> AuditRecord.builder(AuditOperation.ASK).tenant("t").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("an audit record needs timestamp(..), requestId(..), query(..), model(..), outcome(..)");
    }

    @Test
    void constructor_mutableSourceIds_copiesThem() {
        List<String> ids = new ArrayList<>(List.of("a#0"));
        AuditRecord record = new AuditRecord(Instant.EPOCH, "r", "t", null, "h", ids, 0, "m", "CITE", 90, 0L,
                AuditOutcome.ANSWERED, null, AuditOperation.ASK, Map.of(), null, null);
        ids.add("b#1");

        assertThat(record.sourceIds()).containsExactly("a#0");
        assertThat(record.sourceCount()).isEqualTo(1);
        assertThatThrownBy(() -> record.sourceIds().add("c#2")).isInstanceOf(UnsupportedOperationException.class);
    }
}
