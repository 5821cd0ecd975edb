/**
 * The HTTP plumbing RagKit's model-server backends share: settings, requests with retries, streamed lines, the
 * backend base. Not an API for applications, with one exception: the two failures every model-server backend
 * throws, {@link dev.ragkit.http.ModelServerException} (the server answered with an error) and
 * {@link dev.ragkit.http.ModelProtocolException} (it answered something that is not its protocol), which callers
 * may catch.
 */
@NullMarked
package dev.ragkit.http;

import org.jspecify.annotations.NullMarked;
