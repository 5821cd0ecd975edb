/**
 * RagKit's entry points: {@link dev.ragkit.RagPipeline} with its request, response and configuration. Exceptions
 * live in {@link dev.ragkit.error}.
 */
@NullMarked
package dev.ragkit;

import org.jspecify.annotations.NullMarked;
