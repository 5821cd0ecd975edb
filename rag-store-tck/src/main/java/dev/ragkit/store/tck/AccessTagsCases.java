package dev.ragkit.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ragkit.store.Scope;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Untagged documents are visible to the whole tenant; tagged ones only to scopes sharing a tag. */
abstract class AccessTagsCases extends ContractFixtures {

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void readPath_scopeWithoutTags_seesOnlyUntaggedDocuments(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);
        Probe probe = probe(c.all());

        assertThat(labelsVia(path, Scope.of(TENANT_A), probe)).containsExactlyElementsOf(labels(c.aPublic()));
        assertThat(labelsVia(path, Scope.of(TENANT_B), probe))
                .containsExactlyElementsOf(labels(c.bPublic(), c.bSecret()));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void readPath_scopeSharingOneTag_seesUntaggedAndThatTagsDocuments(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);
        Probe probe = probe(c.all());

        assertThat(labelsVia(path, Scope.of(TENANT_A, "hr"), probe))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aHr()));
        assertThat(labelsVia(path, Scope.of(TENANT_A, "ops"), probe))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aEng()));
        assertThat(labelsVia(path, Scope.of(TENANT_A, "finance"), probe))
                .containsExactlyElementsOf(labels(c.aPublic()));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void readPath_scopeWithSeveralTags_seesDocumentsSharingAnyOfThem(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);
        Probe probe = probe(c.all());

        assertThat(labelsVia(path, Scope.of(TENANT_A, "hr", "eng"), probe))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
        assertThat(labelsVia(path, Scope.of(TENANT_A, "eng", "finance"), probe))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aEng()));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReadPath.class)
    void readPath_unrestrictedScope_seesEveryDocumentOfItsTenant(ReadPath path) {
        IsolationCorpus c = putIsolationCorpus();
        assumeReadPath(path);

        assertThat(labelsVia(path, Scope.unrestricted(TENANT_A), probe(c.all())))
                .containsExactlyElementsOf(labels(c.aPublic(), c.aHr(), c.aEng()));
    }
}
