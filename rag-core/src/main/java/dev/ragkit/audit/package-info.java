/**
 * The audit trail: one {@link dev.ragkit.audit.AuditRecord} for every request, whatever its outcome, written to
 * an {@link dev.ragkit.audit.AuditSink}.
 */
@NullMarked
package dev.ragkit.audit;

import org.jspecify.annotations.NullMarked;
