/**
 * Interop with LangChain4j, in both directions.
 *
 * <p>LangChain4j components inside RagKit:
 * <ul>
 *   <li>{@link dev.ragkit.langchain4j.LangChain4jEmbedder}: any {@code EmbeddingModel} as an
 *       {@link dev.ragkit.embedding.Embedder};</li>
 *   <li>{@link dev.ragkit.langchain4j.LangChain4jBackend}: any {@code ChatModel} (and optionally a
 *       {@code StreamingChatModel}) as an {@link dev.ragkit.generation.LlmBackend};</li>
 *   <li>{@link dev.ragkit.langchain4j.LangChain4jDocumentStore}: any {@code EmbeddingStore<TextSegment>} as a
 *       {@link dev.ragkit.store.DocumentStore}, with scope and filters mapped onto LangChain4j metadata filters.</li>
 * </ul>
 *
 * <p>RagKit inside LangChain4j: {@link dev.ragkit.langchain4j.RagKitContentRetriever} is a {@code ContentRetriever}
 * backed by a RagKit {@link dev.ragkit.retrieval.Retriever}, so an {@code AiServices} application gets boosting,
 * critical documents, link following and deduplication by swapping its content retriever.
 *
 * <p>LangChain4j's own exceptions never escape these adapters: they are wrapped in RagKit's
 * ({@link dev.ragkit.error.RagException} and its subtypes, or {@link dev.ragkit.store.StoreException} for the store).
 */
@NullMarked
package dev.ragkit.langchain4j;

import org.jspecify.annotations.NullMarked;
