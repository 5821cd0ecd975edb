/**
 * The JSON shape of an answer that RagKit's network servers (the MCP server in {@code rag-mcp}, {@code ragkit serve}
 * in {@code rag-server}) send ({@link dev.ragkit.serving.ResponseJson}), so that both send the same. The checks the
 * servers share (bearer tokens kept as digests, the {@code Host} and {@code Origin} check against DNS rebinding, the
 * reason a port could not be bound) are RagKit's own helpers in {@code dev.ragkit.internal}, not API.
 */
@NullMarked
package dev.ragkit.serving;

import org.jspecify.annotations.NullMarked;
