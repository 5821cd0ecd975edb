/**
 * RagKit observed with <a href="https://micrometer.io">Micrometer</a>: {@link dev.ragkit.micrometer.MicrometerRagListener}
 * (an observation per request and per stage: latency histograms by stage, tokens, context use, confidence, routed
 * and empty-context shares; spans through Micrometer Tracing), {@link dev.ragkit.micrometer.MeteredDocumentStore}
 * (store search latency), {@link dev.ragkit.micrometer.MeteredEmbedder} (embedding batches) and
 * {@link dev.ragkit.micrometer.MeteredIndexListener} (index progress). Framework-free; the Spring Boot starter
 * wires them.
 */
@NullMarked
package dev.ragkit.micrometer;

import org.jspecify.annotations.NullMarked;
