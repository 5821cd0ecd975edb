package dev.ragkit.audit;

/** Which RAG operation an {@link AuditRecord} is about (the specifications ask for a trail of every one). */
public enum AuditOperation {
    /** A question to the pipeline ({@code RagPipeline.ask}, {@code askAsync} or {@code stream}). */
    ASK,
    /** A standalone retrieval ({@code Retriever.retrieve}, also through the LangChain4j content retriever). */
    RETRIEVE,
    /** An indexing run ({@code Indexer.index}) or a single document ingested. */
    INDEX,
    /** Listing the documents of a scope (e.g. the MCP server's {@code rag_documents} tool). */
    LIST
}
