package dev.ragkit.langchain4j;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import dev.ragkit.store.DocumentStore;
import dev.ragkit.store.tck.DocumentStoreContract;

/**
 * The store contract, run against the LangChain4j bridge over LangChain4j's own {@link InMemoryEmbeddingStore}.
 *
 * <p>Every case runs; the keyword and hybrid cases skip themselves by assumption because the bridge declares no
 * keyword search (LangChain4j stores have none), and the text-only case checks that such a search is rejected.
 * Atomic upserts under concurrent readers pass because the bridge switches versions under its own read-write lock.
 */
final class LangChain4jDocumentStoreContractTest extends DocumentStoreContract {

    @Override
    protected DocumentStore createStore() {
        return LangChain4jDocumentStore.builder().store(new InMemoryEmbeddingStore<TextSegment>()).build();
    }
}
