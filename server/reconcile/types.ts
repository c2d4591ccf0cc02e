/**
 * The shapes of a reconciliation with a provider (docs/api.md "Reconciliation"): what
 * POST /maintenance/reconcile answers, and what each provider module hands the run.
 */
import type { Queryable } from '../db/types';

/** The providers a reconciliation reads. */
export const RECONCILE_PROVIDERS = ['lemonsqueezy', 'clickbank'] as const;
/** One of RECONCILE_PROVIDERS. */
export type ReconcileProvider = (typeof RECONCILE_PROVIDERS)[number];

/** A subscription the provider has and the database does not. */
export interface MissingRow {
  email: string;
  /** The provider's id: a LemonSqueezy subscription id, a ClickBank initial receipt. */
  subscription_id: string;
  /** The provider's state in the status column's words (LemonSqueezy `on_trial` → `trialing`). */
  provider_status: string;
}

/** One field of a stored subscription that differs from the provider's. Instants ISO UTC. */
export interface MismatchRow {
  email: string;
  subscription_id: string;
  /** `status`, `current_period_end`, `ends_at`, `access` or (ClickBank) `order`. */
  field: string;
  /** The database's value as text, or null when it has none. */
  ours: string | null;
  /** The provider's value as text, or null when it has none. */
  theirs: string | null;
}

/** A provider object that could not be read or applied, and why. */
export interface FailedRow {
  email: string | null;
  subscription_id: string;
  error: string;
}

/** The answer of POST /maintenance/reconcile. */
export interface ReconcileResult {
  provider: ReconcileProvider;
  dryRun: boolean;
  /** Provider subscriptions compared (ClickBank: initial receipts seen in the window). */
  checked: number;
  missing: MissingRow[];
  mismatched: MismatchRow[];
  /** Subscriptions fixed (one transaction each); 0 on a dry run. */
  applied: number;
  failed: FailedRow[];
  /** When the run started (ISO UTC). */
  ran_at: string;
}

/** One provider subscription whose stored state differs: what differs and how to apply it. */
export interface Fix {
  email: string;
  subscriptionId: string;
  providerStatus: string;
  /** The database has no such subscription. */
  isMissing: boolean;
  mismatches: MismatchRow[];
  /** Applies the provider's state in `tx` by the webhook's rules → the effects (short words). */
  apply(tx: Queryable, now: Date, reason: string): Promise<string[]>;
}

/** What a provider module's comparison hands the run. */
export interface Comparison {
  checked: number;
  fixes: Fix[];
  failed: FailedRow[];
}
