/**
 * The {@code ragkit} command line: {@code index}, {@code ask}, {@code eval} and {@code health} on embedded
 * defaults. Start with {@link dev.ragkit.cli.RagkitCli}.
 */
@NullMarked
package dev.ragkit.cli;

import org.jspecify.annotations.NullMarked;
