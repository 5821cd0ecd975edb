package dev.ragkit.grounding;

import static dev.ragkit.grounding.Blocks.TENANT;
import static dev.ragkit.grounding.Blocks.block;
import static dev.ragkit.grounding.Blocks.document;
import static dev.ragkit.grounding.Blocks.ownedDocument;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.ragkit.prompt.ContextBlock;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class TagOwnerRouterTest {

    private static final String ADMIN = "admin@example.com";
    private static final Owner HR_LEAD = new Owner("u-17", "hr-lead@example.com");
    private static final Owner FINANCE_LEAD = new Owner("u-23", "cfo@example.com");
    private static final Owner LEGAL_LEAD = new Owner("u-31", "legal@example.com");
    private static final Owner SECURITY_LEAD = new Owner("u-44", "ciso@example.com");

    private final OwnerDirectory owners = InMemoryOwnerDirectory.builder()
            .owner("hr", HR_LEAD)
            .owner("finance", FINANCE_LEAD)
            .owner("legal", LEGAL_LEAD)
            .owner("security", SECURITY_LEAD)
            .build();
    private final Router router = Router.standard(60, ADMIN, owners);

    private static ContextBlock blockOf(StoredDocument document, int index) {
        return block(document, index, "text " + index);
    }

    private RouteTarget routeBelowThreshold(ContextBlock... used) {
        Routing routing = router.route(TENANT, 10, List.of(used));
        assertThat(routing.action()).isEqualTo(Action.ROUTE);
        return routing.target();
    }

    // --------------------------------------------------------------------------------------------------- threshold

    @Test
    void route_confidenceExactlyAtThreshold_cites() {
        Routing routing = router.route(TENANT, 60, List.of(blockOf(document("a.md", "hr"), 0)));

        assertThat(routing.action()).isEqualTo(Action.CITE);
        assertThat(routing.target()).isNull();
    }

    @Test
    void route_confidenceAboveThreshold_cites() {
        assertThat(router.route(TENANT, 100, List.of(blockOf(document("a.md", "hr"), 0))).action())
                .isEqualTo(Action.CITE);
    }

    @Test
    void route_confidenceOneBelowThreshold_routesToTheTagOwner() {
        Routing routing = router.route(TENANT, 59, List.of(blockOf(document("a.md", "hr"), 0)));

        assertThat(routing.action()).isEqualTo(Action.ROUTE);
        assertThat(routing.target()).isEqualTo(new RouteTarget("hr", "u-17", "hr-lead@example.com",
                "Confidence 59% is below the threshold of 60% - routing to the owner of 'hr'", false));
    }

    @Test
    void route_thresholdZero_alwaysCites() {
        Router lenient = Router.standard(0, ADMIN, owners);

        assertThat(lenient.route(TENANT, 0, List.of(blockOf(document("a.md", "hr"), 0))).action())
                .isEqualTo(Action.CITE);
    }

    @Test
    void route_threshold100_onlyPerfectCites() {
        Router strict = Router.standard(100, ADMIN, owners);
        List<ContextBlock> used = List.of(blockOf(document("a.md", "hr"), 0));

        assertThat(strict.route(TENANT, 99, used).action()).isEqualTo(Action.ROUTE);
        assertThat(strict.route(TENANT, 100, used).action()).isEqualTo(Action.CITE);
    }

    // ------------------------------------------------------------------------------------------------ tag counting

    @Test
    void route_noOwnerForTheTag_adminFallbackWithExactReason() {
        RouteTarget target = routeBelowThreshold(blockOf(document("a.md", "hr"), 0));
        Router noOwners = Router.standard(60, ADMIN, OwnerDirectory.none());

        RouteTarget fallback = noOwners.route(TENANT, 10, List.of(blockOf(document("a.md", "hr"), 0))).target();

        assertThat(target.fallback()).isFalse();
        assertThat(fallback).isEqualTo(
                new RouteTarget("system", null, ADMIN, "Confidence 10% is below the threshold of 60%. No owner for tag 'hr' - routing to admin", true));
    }

    @Test
    void route_publicTagInAnyCase_ignored() {
        StoredDocument mixed = document("a.md", "public", "finance");
        StoredDocument open = document("b.md", "public");
        StoredDocument shouting = document("c.md", "PUBLIC");

        RouteTarget target = routeBelowThreshold(blockOf(open, 0), blockOf(open, 1), blockOf(shouting, 0),
                blockOf(mixed, 0));

        assertThat(target.tag()).isEqualTo("finance");
        assertThat(target.ownerEmail()).isEqualTo("cfo@example.com");
    }

    @Test
    void route_onlyPublicOrUntaggedDocuments_adminFallbackNoSpecificTags() {
        RouteTarget target = routeBelowThreshold(blockOf(document("a.md", "public"), 0),
                blockOf(document("b.md"), 0));

        assertThat(target).isEqualTo(new RouteTarget("system", null, ADMIN,
                "Confidence 10% is below the threshold of 60%. No specific tags in context - routing to admin", true));
    }

    @Test
    void route_ownerTagSet_countedInsteadOfAccessTags() {
        StoredDocument owned = ownedDocument("sec.md", "security", "hr", "finance");
        StoredDocument hrOnly = document("hr.md", "hr");

        // by access tags hr would win 3 to 2; by owner tag security wins 2 to 1
        RouteTarget target = routeBelowThreshold(blockOf(owned, 0), blockOf(owned, 1), blockOf(hrOnly, 0));

        assertThat(target.tag()).isEqualTo("security");
        assertThat(target.ownerId()).isEqualTo("u-44");
    }

    @Test
    void route_eachBlockCountsOnce_documentWithMoreBlocksWins() {
        StoredDocument finance = document("f.md", "finance");
        StoredDocument hr = document("h.md", "hr");

        RouteTarget target = routeBelowThreshold(blockOf(hr, 0), blockOf(finance, 0), blockOf(finance, 1));

        assertThat(target.tag()).isEqualTo("finance");
    }

    @Test
    void route_tie_alphabeticallyFirstTagWhateverTheOrder() {
        ContextBlock legal = blockOf(document("l.md", "legal"), 0);
        ContextBlock hr = blockOf(document("h.md", "hr"), 0);

        assertThat(routeBelowThreshold(legal, hr).tag()).isEqualTo("hr");
        assertThat(routeBelowThreshold(hr, legal).tag()).isEqualTo("hr");
    }

    @Test
    void route_tieInsideOneDocumentsTags_alphabeticallyFirst() {
        assertThat(routeBelowThreshold(blockOf(document("x.md", "legal", "finance"), 0)).tag())
                .isEqualTo("finance");
    }

    // ------------------------------------------------------------------------------------------------- directories

    @Test
    void route_tenantSpecificOwner_winsForThatTenantOnly() {
        Owner acmePeople = new Owner("u-99", "people@acme.example");
        OwnerDirectory directory = InMemoryOwnerDirectory.builder()
                .owner("hr", HR_LEAD)
                .owner("acme", "hr", acmePeople)
                .build();
        Router tenantRouter = Router.standard(60, ADMIN, directory);
        List<ContextBlock> used = List.of(blockOf(document("h.md", "hr"), 0));

        assertThat(tenantRouter.route("acme", 10, used).target().ownerEmail()).isEqualTo("people@acme.example");
        assertThat(tenantRouter.route("globex", 10, used).target().ownerEmail()).isEqualTo("hr-lead@example.com");
    }

    @Test
    void route_directoryAskedWithTheRequestTenantAndWinningTag() {
        List<String> asked = new ArrayList<>();
        OwnerDirectory recording = (tenant, tag) -> {
            asked.add(tenant + "/" + tag);
            return Optional.empty();
        };

        Router.standard(60, ADMIN, recording).route("globex", 10, List.of(blockOf(document("h.md", "hr"), 0)));

        assertThat(asked).containsExactly("globex/hr");
    }

    @Test
    void route_directoryThrows_adminFallbackMentioningTheFailure() {
        OwnerDirectory broken = (tenant, tag) -> {
            throw new IllegalStateException("LDAP down");
        };

        Routing routing = Router.standard(60, ADMIN, broken)
                .route(TENANT, 10, List.of(blockOf(document("h.md", "hr"), 0)));

        assertThat(routing.action()).isEqualTo(Action.ROUTE);
        assertThat(routing.target().tag()).isEqualTo("system");
        assertThat(routing.target().ownerId()).isNull();
        assertThat(routing.target().ownerEmail()).isEqualTo(ADMIN);
        assertThat(routing.target().fallback()).isTrue();
        assertThat(routing.target().reason())
                .isEqualTo("Confidence 10% is below the threshold of 60%. Owner lookup failed for tag 'hr' (IllegalStateException) - routing to admin");
    }

    @Test
    void route_directoryReturnsNull_adminFallback() {
        OwnerDirectory sloppy = (tenant, tag) -> null;

        RouteTarget target = Router.standard(60, ADMIN, sloppy)
                .route(TENANT, 10, List.of(blockOf(document("h.md", "hr"), 0))).target();

        assertThat(target.fallback()).isTrue();
        assertThat(target.reason()).startsWith("Confidence 10% is below the threshold of 60%. Owner lookup failed for tag 'hr'");
    }

    // ------------------------------------------------------------------------------------------ empty and admin

    @Test
    void route_noContextBelowThreshold_administratorWithNoRelevantDocuments() {
        Routing routing = router.route(TENANT, 0, List.of());

        assertThat(routing.action()).isEqualTo(Action.ROUTE);
        assertThat(routing.target()).isEqualTo(router.toAdministrator("No relevant documents found"));
        assertThat(routing.target()).isEqualTo(
                new RouteTarget("system", null, ADMIN, "No relevant documents found", true));
    }

    @Test
    void toAdministrator_anyReason_systemTagAdminEmailFallback() {
        assertThat(router.toAdministrator("why not")).isEqualTo(new RouteTarget("system", null, ADMIN, "why not",
                true));
    }

    // ------------------------------------------------------------------------------------------------- validation

    @ParameterizedTest
    @ValueSource(ints = {-1, 101, Integer.MIN_VALUE})
    void standard_thresholdOutsidePercentRange_rejectedWithFix(int threshold) {
        assertThatIllegalArgumentException().isThrownBy(() -> Router.standard(threshold, ADMIN, owners))
                .withMessageContaining("0 to 100").withMessageContaining("60");
    }

    @Test
    void route_noOwnerAndNoAdministrator_namesNobodyAndSaysHowToConfigureOne() {
        Router unconfigured = Router.standard(60, null, OwnerDirectory.none());
        StoredDocument doc = Blocks.document("hr/leave.md", "hr");

        Routing routing = unconfigured.route(TENANT, 10, List.of(Blocks.block(doc, 0, "Leave is 25 days.")));

        assertThat(routing.action()).isEqualTo(Action.ROUTE);
        assertThat(routing.target().ownerEmail()).isNull();
        assertThat(routing.target().fallback()).isTrue();
        assertThat(routing.target().reason()).startsWith("Confidence 10% is below the threshold of 60%. No owner for tag 'hr'")
                .contains("no owner configured", "RAG_ADMIN_EMAIL", "OwnerDirectory");
        assertThat(unconfigured.toAdministrator("No relevant documents found").ownerEmail()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void standard_blankAdminEmail_rejectedWithFix(String adminEmail) {
        assertThatIllegalArgumentException().isThrownBy(() -> Router.standard(60, adminEmail, owners))
                .withMessageContaining("adminEmail").withMessageContaining("RAG_ADMIN_EMAIL");
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 101})
    void route_confidenceOutsidePercentRange_rejected(int confidence) {
        assertThatIllegalArgumentException().isThrownBy(() -> router.route(TENANT, confidence, List.of()))
                .withMessageContaining("overall");
    }
}
