/**
 * What RagKit's network servers (the MCP server in {@code rag-mcp}, {@code ragkit serve} in {@code rag-server})
 * share, so that each rule has one implementation: bearer tokens kept as digests and compared in constant time
 * ({@link dev.ragkit.serving.BearerTokens}), the {@code Host} and {@code Origin} check against DNS rebinding
 * ({@link dev.ragkit.serving.HostOriginCheck}), and the JSON shape of an answer
 * ({@link dev.ragkit.serving.ResponseJson}). No HTTP library: the servers adapt their requests to these.
 */
@NullMarked
package dev.ragkit.serving;

import org.jspecify.annotations.NullMarked;
