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

/**
 * A subscription the database holds for the configured store that the provider's complete list
 * does not have. Reported only, never changed: an absence is no proof of an end (a store moved, a
 * test-mode object, a list read while it changed), so an operator decides.
 */
export interface NotAtProviderRow {
  email: string;
  subscription_id: string;
  /** Our status column's value. */
  status: string;
}

/** At most this many NotAtProviderRow are listed in an answer (the total is always counted). */
export const NOT_AT_PROVIDER_LISTED = 1000;

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
  /**
   * LemonSqueezy: stored subscriptions of the configured store absent from its complete list
   * (the first NOT_AT_PROVIDER_LISTED by id; never applied). ClickBank: always empty (its orders
   * are read for a window, so an absence means nothing).
   */
  not_at_provider: NotAtProviderRow[];
  /** How many there are in all (not_at_provider may list fewer). */
  not_at_provider_total: number;
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
  /**
   * Looks up what the fix needs from the provider before its transaction (LemonSqueezy: the
   * variant's interval); never throws.
   */
  prepare?(): Promise<void>;
  /** Applies the provider's state in `tx` by the webhook's rules → the effects (short words). */
  apply(tx: Queryable, now: Date, reason: string): Promise<string[]>;
}

/** What a provider module's comparison hands the run. */
export interface Comparison {
  checked: number;
  fixes: Fix[];
  failed: FailedRow[];
  /** Stored subscriptions the provider does not have (LemonSqueezy only; listed and total). */
  notAtProvider?: { rows: NotAtProviderRow[]; total: number };
}
