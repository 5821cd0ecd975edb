package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import dev.ragkit.store.SearchHit;
import dev.ragkit.store.StoredChunk;
import dev.ragkit.store.StoredDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** No read path ever returns another tenant's data; the same id in two tenants names two documents. */
abstract class TenantIsolationCases extends ContractFixtures {

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void readPath_otherTenantHoldsSameIdsAndCloserVectors_returnsOnlyOwnTenantData(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);
        Probe probe = probe(c.all());

        assertThat(labelsVia(path, Scope.unrestricted(TENANT_A), probe))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
        assertThat(labelsVia(path, Scope.of(TENANT_A, "hr", "eng"), probe))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
        assertThat(labelsVia(path, Scope.unrestricted(TENANT_B), probe))
                .containsExactlyElementsOf(labels(c.bPublic(), c.bHr(), c.bSecret()));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void readPath_tenantWithoutDocuments_returnsNothing(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);

        assertThat(labelsVia(path, Scope.unrestricted(TENANT_EMPTY), probe(c.all()))).isEmpty();
    }

    @Test
    void delete_idOfOtherTenantsDocument_returnsFalseAndDeletesNothing() {
        IsolationCorpus c = putIsolationCorpus();
        Map<String, Snapshot> before = snapshotAll();

        assertThat(store().delete(Scope.unrestricted(TENANT_A), c.bSecret().id())).isFalse();
        assertThat(store().delete(Scope.of(TENANT_A), c.bSecret().id())).isFalse();
        assertThat(store().delete(Scope.unrestricted(TENANT_EMPTY), c.aPublic().id())).isFalse();

        assertThat(snapshotAll()).isEqualTo(before);
    }

    @Test
    void delete_idSharedWithOtherTenant_deletesOnlyOwnTenantsDocument() {
        IsolationCorpus c = putIsolationCorpus();
        Snapshot tenantB = snapshot(TENANT_B);

        assertThat(store().delete(Scope.unrestricted(TENANT_A), c.aPublic().id())).isTrue();

        assertThat(store().document(Scope.unrestricted(TENANT_A), c.aPublic().id())).isEmpty();
        assertThat(store().chunks(Scope.unrestricted(TENANT_A), c.aPublic().id())).isEmpty();
        assertThat(snapshot(TENANT_B)).isEqualTo(tenantB);
        assertThat(store().document(Scope.of(TENANT_B), c.bPublic().id())).contains(c.bPublic());
    }

    @Test
    void upsert_sameIdInTwoTenants_storesTwoIndependentDocuments() {
        StoredDocument inA = document(TENANT_A, "shared/a.md").id("shared-id").title("Tenant A's").build();
        StoredDocument inB = document(TENANT_B, "shared/b.md").id("shared-id").title("Tenant B's").build();
        List<StoredChunk> chunksA = chunksOf(inA, "a", vectorAtCosine(0.9), vectorAtCosine(0.8));
        List<StoredChunk> chunksB = chunksOf(inB, "b", vectorAtCosine(0.7), vectorAtCosine(0.6), vectorAtCosine(0.5));
        store().upsert(inA, chunksA);
        store().upsert(inB, chunksB);

        assertThat(store().document(Scope.of(TENANT_A), "shared-id")).contains(inA);
        assertThat(store().document(Scope.of(TENANT_B), "shared-id")).contains(inB);
        assertThat(store().chunks(Scope.of(TENANT_A), "shared-id")).containsExactlyElementsOf(chunksA);
        assertThat(store().chunks(Scope.of(TENANT_B), "shared-id")).containsExactlyElementsOf(chunksB);
        assertThat(searchVector(Scope.of(TENANT_A), axis(0), 10)).extracting(SearchHit::document).containsOnly(inA);
        assertThat(searchVector(Scope.of(TENANT_B), axis(0), 10)).extracting(SearchHit::document).containsOnly(inB);
    }

    @Test
    void upsert_replacingIdSharedWithOtherTenant_leavesOtherTenantUnchanged() {
        IsolationCorpus c = putIsolationCorpus();
        Snapshot tenantB = snapshot(TENANT_B);
        StoredDocument replaced = c.aPublic().toBuilder().title("Replaced in A").build();

        put(replaced, "replaced", vectorAtCosine(0.1));

        assertThat(snapshot(TENANT_B)).isEqualTo(tenantB);
        assertThat(store().document(Scope.of(TENANT_A), replaced.id())).contains(replaced);
        assertThat(store().chunks(Scope.of(TENANT_A), replaced.id())).hasSize(1);
    }

    @Test
    void readPaths_concurrentWritesToOtherTenant_neverReturnOtherTenantData() throws InterruptedException {
        IsolationCorpus c = putIsolationCorpus();
        Probe probe = probe(c.all());
        List<ReadPath> readPaths = supportedReadPaths();
        Snapshot tenantA = snapshot(TENANT_A);
        Scope admin = Scope.unrestricted(TENANT_A);
        Scope user = Scope.of(TENANT_A);
        Set<String> adminExpects = labels(c.aPublic(), c.aHr(), c.aEng());
        Set<String> userExpects = labels(c.aPublic());
        List<StoredDocument> targets = c.tenantB();
        int iterations = concurrencyIterations();

        List<Runnable> writers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            long seed = 1000 + w;
            writers.add(() -> {
                Random random = new Random(seed);
                for (int i = 0; i < iterations; i++) {
                    StoredDocument target = targets.get(random.nextInt(targets.size()));
                    if (random.nextInt(4) == 0) {
                        store().delete(Scope.unrestricted(TENANT_B), target.id());
                    } else {
                        float[][] vectors = descendingCosines(0.99 - 0.001 * random.nextInt(50), 0.001,
                                1 + random.nextInt(4));
                        store().upsert(target, chunksOf(target, ISOLATION_QUERY + " v" + i, vectors));
                    }
                }
            });
        }
        Runnable reader = () -> {
            for (ReadPath path : readPaths) {
                Set<String> asAdmin = labelsVia(path, admin, probe);
                check(asAdmin.equals(adminExpects), () -> path + " as " + admin + " returned " + asAdmin);
                Set<String> asUser = labelsVia(path, user, probe);
                check(asUser.equals(userExpects), () -> path + " as " + user + " returned " + asUser);
            }
        };

        List<String> failures = race(writers, List.of(reader, reader));

        assertThat(failures).as("failures in concurrent threads").isEmpty();
        assertThat(snapshot(TENANT_A)).isEqualTo(tenantA);
    }
}
