/**
 * RagKit's Spring Boot starter: {@link dev.ragkit.spring.RagKitAutoConfiguration} builds the pipeline from
 * {@code ragkit.*} properties ({@link dev.ragkit.spring.RagKitProperties}), with an extractive fallback for a model
 * that cannot answer; {@link dev.ragkit.spring.RagKitIngest} indexes the folders of {@code ragkit.ingest.paths} at
 * startup and keeps them in sync; {@link dev.ragkit.spring.RagKitHealthIndicator} reports it all to Actuator.
 */
package dev.ragkit.spring;
