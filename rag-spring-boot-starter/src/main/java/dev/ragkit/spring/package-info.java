/**
 * RagKit's Spring Boot starter: {@link dev.ragkit.spring.RagKitAutoConfiguration} builds the pipeline from
 * {@code ragkit.*} properties ({@link dev.ragkit.spring.RagKitProperties}); {@link dev.ragkit.spring.RagKitHealthIndicator}
 * reports it to Actuator.
 */
package dev.ragkit.spring;
