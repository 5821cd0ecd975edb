/**
 * Grounding an answer: deterministic citations ({@link dev.ragkit.grounding.CitationExtractor}), the hybrid
 * confidence score ({@link dev.ragkit.grounding.ConfidenceScorer}) and the hand-off to a human owner
 * ({@link dev.ragkit.grounding.Router}, {@link dev.ragkit.grounding.OwnerDirectory}).
 */
@NullMarked
package dev.ragkit.grounding;

import org.jspecify.annotations.NullMarked;
