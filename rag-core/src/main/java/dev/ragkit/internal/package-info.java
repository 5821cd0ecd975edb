/**
 * Helpers that several RagKit packages and modules share. <b>Not API</b>: anything here may change or disappear
 * in any release without notice; do not call it from application code.
 */
@NullMarked
package dev.ragkit.internal;

import org.jspecify.annotations.NullMarked;
