/**
 * Wire answers of POST /maintenance/reconcile (docs/api.md "Reconciliation") for stories and unit
 * tests: a LemonSqueezy dry run with two missing subscriptions and one mismatched (four fields), the
 * same applied, a run with nothing to fix, runs with stored subscriptions the store no longer lists,
 * and ClickBank's "not configured" refusal.
 */

const RAN_AT = '2026-11-20T09:00:00.000Z';

/** A LemonSqueezy dry run: 1,250 checked, 2 missing, 1 subscription mismatched in 4 fields. */
export const RECONCILE_DRY_WIRE = {
  provider: 'lemonsqueezy',
  dryRun: true,
  checked: 1250,
  missing: [
    { email: 'new.buyer@example.com', subscription_id: '4101', provider_status: 'active' },
    { email: 'trial.start@example.com', subscription_id: '4102', provider_status: 'trialing' },
  ],
  mismatched: [
    {
      email: 'gone@example.com',
      subscription_id: '3202',
      field: 'status',
      ours: 'active',
      theirs: 'cancelled',
    },
    {
      email: 'gone@example.com',
      subscription_id: '3202',
      field: 'current_period_end',
      ours: '2026-12-10T00:00:00.000Z',
      theirs: '2026-11-19T00:00:00.000Z',
    },
    {
      email: 'gone@example.com',
      subscription_id: '3202',
      field: 'ends_at',
      ours: null,
      theirs: '2026-11-19T00:00:00.000Z',
    },
    {
      email: 'gone@example.com',
      subscription_id: '3202',
      field: 'access',
      ours: 'active',
      theirs: 'cancelled',
    },
  ],
  applied: 0,
  failed: [],
  ran_at: RAN_AT,
};

/** The same run applied: 3 subscriptions fixed. */
export const RECONCILE_APPLIED_WIRE = { ...RECONCILE_DRY_WIRE, dryRun: false, applied: 3 };

/** An applied run where one fix failed (the others applied). */
export const RECONCILE_PARTIAL_WIRE = {
  ...RECONCILE_DRY_WIRE,
  dryRun: false,
  applied: 2,
  failed: [
    {
      email: 'trial.start@example.com',
      subscription_id: '4102',
      error: 'user_email: Enter an email address like name@example.com',
    },
  ],
};

/** Nothing to fix: the database agrees with the provider. */
export const RECONCILE_NOTHING_WIRE = {
  provider: 'lemonsqueezy',
  dryRun: true,
  checked: 1250,
  missing: [],
  mismatched: [],
  applied: 0,
  failed: [],
  ran_at: RAN_AT,
};

/**
 * A LemonSqueezy dry run with nothing to fix and `listed` stored subscriptions the store's list
 * lacks (`not_at_provider`), `total` of them in all (the server lists at most 1,000).
 */
export function reconcileNotAtProviderWire(
  listed: number,
  total = listed,
): Record<string, unknown> {
  return {
    ...RECONCILE_NOTHING_WIRE,
    not_at_provider: Array.from({ length: listed }, (_, i) => ({
      email: i === 0 ? 'moved.store@example.com' : `only-here-${i + 1}@example.com`,
      subscription_id: String(3300 + i),
      status: i % 3 === 1 ? 'cancelled' : 'active',
    })),
    not_at_provider_total: total,
  };
}

/** The 409 of a provider that is not configured. */
export const RECONCILE_NOT_CONFIGURED = {
  error: 'not_configured',
  provider: 'clickbank',
  message:
    'ClickBank is not configured: set CLICKBANK_CLERK_KEY (and CLICKBANK_DEVELOPER_KEY for a key pair)',
};

/** A dry run of `n` missing subscriptions (more than the view lists). */
export function reconcileManyMissingWire(n: number): Record<string, unknown> {
  return {
    ...RECONCILE_NOTHING_WIRE,
    checked: n,
    missing: Array.from({ length: n }, (_, i) => ({
      email: `missing-${i + 1}@example.com`,
      subscription_id: String(5000 + i),
      provider_status: 'active',
    })),
  };
}
