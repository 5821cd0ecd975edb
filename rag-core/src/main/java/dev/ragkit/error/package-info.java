/**
 * RagKit's exceptions: one unchecked root, {@link dev.ragkit.error.RagException}, with subtypes grouped by what the
 * caller does next ({@link dev.ragkit.error.RagException#isRetriable()} tells whether trying again can help). Every
 * message says how to fix the problem.
 */
@NullMarked
package dev.ragkit.error;

import org.jspecify.annotations.NullMarked;
