/**
 * RagKit as a <a href="https://modelcontextprotocol.io">Model Context Protocol</a> server, on the official MCP Java
 * SDK: {@link dev.ragkit.mcp.RagMcpTools} (the {@code rag_query}, {@code rag_search} and {@code rag_documents} tools
 * over a pipeline and a store, in one fixed scope) and {@link dev.ragkit.mcp.RagMcpServer} (stdio or Streamable
 * HTTP).
 */
@NullMarked
package dev.ragkit.mcp;

import org.jspecify.annotations.NullMarked;
