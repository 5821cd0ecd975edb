/** The HTTP plumbing RagKit's model-server backends share; not an API for applications. */
@NullMarked
package dev.ragkit.http;

import org.jspecify.annotations.NullMarked;
