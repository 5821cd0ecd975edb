/**
 * JMH benchmarks of RagKit, each comparing RagKit with its peers in the same run.
 *
 * <p>Every benchmark is a {@code *Benchmark} class with a {@code @Param} over an enum of implementations (ours
 * and the peers'); its javadoc gives the exact command to run it. Build the runnable jar with
 * {@code mvn -B -q -pl benchmarks -am package -DskipTests}; it lands in {@code benchmarks/target/benchmarks.jar}.
 */
@NullMarked
package dev.ragkit.benchmarks;

import org.jspecify.annotations.NullMarked;
