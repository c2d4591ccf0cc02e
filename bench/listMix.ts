/**
 * The Users and Subscriptions list requests the load test (bench/load.ts) sends, as data: the
 * filter fields an operator combines (the load test picks 0–2 of them, plus an email fragment)
 * with the values each can take, and the sort keys. `bench/server-lists.ts --matrix` runs every
 * combination of them, so the two stay the same mix.
 */

/** One filter field: the query parameters of each value it can take. */
export type ListFilterField = Record<string, string>[];

/** The list the mix is for. */
export type MixList = 'users' | 'subscriptions';

/**
 * The filter fields of `list`'s requests, dates relative to `nowMs` (epoch ms; UTC days): a
 * provider, a cadence, a start range of 30 days a year back, and for Users an mg_status and an
 * expiry range of the next 30 days, for Subscriptions a provider status and a renewal range of
 * the next 30 days.
 */
export function listFilterFields(list: MixList, nowMs: number): ListFilterField[] {
  const day = (offsetDays: number) =>
    new Date(nowMs + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const common: ListFilterField[] = [
    [{ provider: 'lemonsqueezy' }, { provider: 'clickbank' }],
    [{ cadence: 'monthly' }, { cadence: 'yearly' }],
    [{ start_from: day(-400), start_to: day(-370) }],
  ];
  return list === 'users'
    ? [
        ...common,
        [{ mg_status: 'active' }, { mg_status: 'scheduled' }, { mg_status: 'cancelled' }],
        [{ exp_from: day(0), exp_to: day(30) }],
      ]
    : [
        ...common,
        [{ provider_status: 'active' }, { provider_status: 'cancelled' }],
        [{ renew_from: day(0), renew_to: day(30) }],
      ];
}

/** The Users sort keys of the mix (each sent ascending and descending: `-key`). */
export const USER_MIX_SORTS = [
  'row_id',
  'email',
  'start_date',
  'expires_at',
  'current_period_end',
  'updated_at',
  'provider_status',
] as const;

/** The Subscriptions sort keys of the mix (each sent with sortDir asc and desc). */
export const SUBSCRIPTION_MIX_SORTS = [
  'row_id',
  'email',
  'start_date',
  'current_period_end',
  'updated_at',
] as const;
