/**
 * Audit view fixtures: the wire rows of ./fixtures-audit normalised as the API layer does
 * (src/api/audit.ts toAuditEntry), and pages of them for the views' stories.
 */
import { toAuditEntry } from '../../src/api/audit';
import type { AuditEntry, AuditPage } from '../../src/domain/audit';
import { AUDIT_ROWS, LONG_AUDIT_ROWS, makeAuditRows, type AuditRowWire } from './fixtures-audit';

/** Wire rows → normalised entries. */
export function auditEntries(rows: readonly AuditRowWire[]): AuditEntry[] {
  return rows.map((row, index) => toAuditEntry({ ...row }, index));
}

/** A page of `rows` whose total is `total` (default: just these rows). */
export function auditPage(
  rows: readonly AuditEntry[],
  total = rows.length,
  isTotalCapped = false,
): AuditPage {
  return { rows: [...rows], total, totalPages: Math.max(1, Math.ceil(total / 50)), isTotalCapped };
}

/** The twelve fixture rows, normalised. */
export const AUDIT_ENTRIES = auditEntries(AUDIT_ROWS);
/** Rows with long operators, targets and details, normalised. */
export const LONG_AUDIT_ENTRIES = auditEntries(LONG_AUDIT_ROWS);
/** A full page of 50 rows. */
export const MANY_AUDIT_ENTRIES = auditEntries(makeAuditRows(50));
/** johndoe@example.com's rows (the drawer's customer), newest first. */
export const JOHNDOE_AUDIT_ENTRIES = AUDIT_ENTRIES.filter(
  (e) => e.target === 'johndoe@example.com',
);
