/**
 * {@code ragkit serve} as an embeddable server: {@link dev.ragkit.server.RagServer} runs a JSON API, an
 * OpenAI-compatible chat endpoint and a web page over one {@link dev.ragkit.RagPipeline}, with the scope fixed by
 * {@link dev.ragkit.server.ServerSettings} (a tokens file, or one tenant on loopback). See {@code docs/serve.md}.
 */
@NullMarked
package dev.ragkit.server;

import org.jspecify.annotations.NullMarked;
