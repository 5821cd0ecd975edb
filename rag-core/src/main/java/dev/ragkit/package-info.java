/**
 * RagKit's entry points and its exception hierarchy, rooted at {@link dev.ragkit.RagException}.
 */
@NullMarked
package dev.ragkit;

import org.jspecify.annotations.NullMarked;
