/**
 * Reconciliation with the providers (docs/api.md "Reconciliation"): the normalised answer of
 * POST /maintenance/reconcile and what the Maintenance screen shows for a run. Pure and total:
 * permissive input, never a throw.
 */

/** The providers the console reconciles. */
export const RECONCILE_PROVIDERS = ['lemonsqueezy', 'clickbank'] as const;
/** One of RECONCILE_PROVIDERS. */
export type ReconcileProvider = (typeof RECONCILE_PROVIDERS)[number];

/** The providers' display names. */
export const RECONCILE_PROVIDER_LABELS: Record<ReconcileProvider, string> = {
  lemonsqueezy: 'LemonSqueezy',
  clickbank: 'ClickBank',
};

/** The result view lists at most this many rows of each list. */
export const RECONCILE_ROW_LIMIT = 50;

/** A subscription the provider has and the database does not. */
export interface ReconcileMissing {
  email: string;
  /** The provider's id (LemonSqueezy subscription id, ClickBank initial receipt). */
  subscriptionId: string;
  /** The provider's state in the status column's words. */
  providerStatus: string;
}

/** One differing field: the database's value and the provider's, as text (instants ISO UTC) or null. */
export interface ReconcileMismatch {
  email: string;
  subscriptionId: string;
  field: string;
  ours: string | null;
  theirs: string | null;
}

/** A provider object that could not be read or applied. */
export interface ReconcileFailure {
  email: string | null;
  subscriptionId: string;
  error: string;
}

/**
 * A subscription the database holds for the provider's store that the provider's complete list
 * lacks. Reported only: reconciliation never changes it, so an operator checks it at the provider.
 */
export interface ReconcileNotAtProvider {
  email: string;
  subscriptionId: string;
  /** Our status column's value. */
  status: string;
}

/** A reconciliation's answer, normalised. */
export interface ReconcileResult {
  provider: ReconcileProvider;
  /** true for a dry run (nothing applied). */
  dryRun: boolean;
  /** Provider subscriptions compared. */
  checked: number;
  missing: ReconcileMissing[];
  mismatched: ReconcileMismatch[];
  /** Subscriptions fixed (0 on a dry run). */
  applied: number;
  failed: ReconcileFailure[];
  /** Stored subscriptions the provider does not list (the server lists at most 1,000). */
  notAtProvider: ReconcileNotAtProvider[];
  /** How many there are in all: at least notAtProvider.length. */
  notAtProviderTotal: number;
  /** When the run started (ISO UTC), or null. */
  ranAt: string | null;
  /** The answer as sent, for the raw JSON view. */
  raw: unknown;
}

/** What a reconcile card shows after a run: its result, "not configured", or a failure (§8 text). */
export type ReconcileOutcome =
  | { kind: 'result'; result: ReconcileResult }
  | { kind: 'not_configured'; message: string }
  | { kind: 'failure'; message: string };

type Bag = Record<string, unknown>;
const asBag = (v: unknown): Bag =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Bag) : {};
const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
const count = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0;
const list = (v: unknown): Bag[] => (Array.isArray(v) ? v.map(asBag) : []);

/** The answer of POST /maintenance/reconcile → ReconcileResult (`provider` when the answer omits it). */
export function normaliseReconcileResult(
  raw: unknown,
  provider: ReconcileProvider,
): ReconcileResult {
  const bag = asBag(raw);
  const p =
    bag.provider === 'clickbank' || bag.provider === 'lemonsqueezy' ? bag.provider : provider;
  const notAtProvider = list(bag.not_at_provider).map((m) => ({
    email: text(m.email) ?? '',
    subscriptionId: text(m.subscription_id) ?? '',
    status: text(m.status) ?? '',
  }));
  return {
    provider: p,
    dryRun: bag.dryRun !== false,
    checked: count(bag.checked),
    missing: list(bag.missing).map((m) => ({
      email: text(m.email) ?? '',
      subscriptionId: text(m.subscription_id) ?? '',
      providerStatus: text(m.provider_status) ?? '',
    })),
    mismatched: list(bag.mismatched).map((m) => ({
      email: text(m.email) ?? '',
      subscriptionId: text(m.subscription_id) ?? '',
      field: text(m.field) ?? '',
      ours: text(m.ours),
      theirs: text(m.theirs),
    })),
    applied: count(bag.applied),
    failed: list(bag.failed).map((f) => ({
      email: text(f.email),
      subscriptionId: text(f.subscription_id) ?? '',
      error: text(f.error) ?? '',
    })),
    notAtProvider,
    notAtProviderTotal: Math.max(count(bag.not_at_provider_total), notAtProvider.length),
    ranAt: text(bag.ran_at),
    raw,
  };
}

/**
 * The one-line summary of a result, e.g. '1,250 checked · 3 missing · 2 mismatched', with
 * '· N fixed' after a real run, '· N not at the provider' and '· N failed' when there are any.
 */
export function reconcileSummary(r: ReconcileResult): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const subscriptions = new Set(r.mismatched.map((m) => m.subscriptionId)).size;
  const parts = [
    `${n(r.checked)} checked`,
    `${n(r.missing.length)} missing`,
    `${n(subscriptions)} mismatched`,
  ];
  if (!r.dryRun) parts.push(`${n(r.applied)} fixed`);
  if (r.notAtProviderTotal > 0) parts.push(`${n(r.notAtProviderTotal)} not at the provider`);
  if (r.failed.length > 0) parts.push(`${n(r.failed.length)} failed`);
  return parts.join(' · ');
}
