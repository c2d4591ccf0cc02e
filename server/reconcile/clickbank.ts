/**
 * Reconciliation with ClickBank (docs/api.md "Reconciliation"): reads the Orders API,
 * `GET {CLICKBANK_API_URL}/rest/1.3/orders2/list?startDate=&endDate=` (yyyy-mm-dd, UTC) for the last
 * RECONCILE_CLICKBANK_DAYS, with ClickBank's `Authorization` header (`DEV-KEY:CLERK-KEY`, or the
 * API key alone when no developer key is set) and `Accept: application/json`. The API answers 100
 * orders a page: 206 Partial Content while more follow, asked for with the request header
 * `Page: N`, and 200 on the last page. Its JSON gives a list of one element as the element itself
 * (`orderData` and `lineItemData` may be an object), so both are read as lists. ClickBank allows
 * 10 requests a second per address.
 *
 * Orders (SALE, BILL, RFND, CGBK; FEE, TEST_* and affiliate-role rows are skipped) are grouped by
 * their initial receipt, as the webhook groups them (initialReceiptOf). The latest order decides
 * the provider's state: a refund or chargeback is cancelled now; a sale or rebill whose line item
 * says CANCELED is cancelled at its next payment date; otherwise active. A group is `missing`
 * without a subscription row, and `mismatched` for each order the database never recorded (field
 * `order`), and for its status and access. A fix applies the unrecorded orders, oldest first, as
 * the Instant Notifications they stand for, through the webhook's own code
 * (applyClickbankNotification) under the webhook's dedup keys, so a later redelivery of the same
 * notification is a duplicate. When the state still differs (a cancellation or its reversal is
 * not an order), it applies CANCEL-REBILL or UNCANCEL-REBILL at the run's time.
 */
import { z } from 'zod';
import type { AppDeps, ServerConfig } from '../context';
import type { Queryable } from '../db/types';
import { activeAccessCondition } from '../vocabulary';
import { claimDedup, storableJson } from '../webhooks/common';
import {
  applyClickbankNotification,
  clickbankDedupKey,
  initialReceiptOf,
  parseClickbankNotification,
  parseClickbankTime,
} from '../webhooks/clickbank';
import { accessMismatch, type AccessExpectation, type StoredAccess } from './access';
import { providerGet, ProviderError, type ProviderHttpOptions, type RequestBudget } from './http';
import type { Comparison, Fix, MismatchRow } from './types';

/** ClickBank's API limit: 10 requests a second. */
export const CLICKBANK_BUDGET: RequestBudget = { max: 10, windowMs: 1000 };
/** Default of RECONCILE_CLICKBANK_DAYS. */
export const DEFAULT_RECONCILE_CLICKBANK_DAYS = 30;
/** Most pages one run reads (100,000 orders). */
const MAX_PAGES = 1000;

/** Why reconciliation with ClickBank cannot run, or null when it can. */
export function clickbankNotConfigured(config: ServerConfig): string | null {
  return config.clickbankClerkKey
    ? null
    : 'ClickBank is not configured: set CLICKBANK_CLERK_KEY (and CLICKBANK_DEVELOPER_KEY for a key pair)';
}

/** The Authorization header value: `DEV-KEY:CLERK-KEY`, or the clerk (API) key alone. */
export function clickbankAuthorization(config: ServerConfig): string {
  const clerk = config.clickbankClerkKey ?? '';
  return config.clickbankDeveloperKey ? `${config.clickbankDeveloperKey}:${clerk}` : clerk;
}

const money = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .transform(Number),
  ])
  .nullish();
const optText = z.union([z.string(), z.number()]).transform(String).nullish();
const lineItem = z
  .object({
    itemNo: optText,
    productTitle: z.string().nullish(),
    recurring: z.boolean().nullish(),
    accountAmount: money,
    customerAmount: money,
    lineItemType: z.string().nullish(),
    rebillAmount: money,
    processedPayments: z.number().nullish(),
    futurePayments: z.number().nullish(),
    nextPaymentDate: z.string().nullish(),
    status: z.string().nullish(),
  })
  .loose();
const listOf = <T extends z.ZodType>(item: T) =>
  z
    .union([z.array(item), item])
    .nullish()
    .transform((v) => (v == null ? [] : Array.isArray(v) ? v : [v]) as z.output<T>[]);
const orderSchema = z
  .object({
    transactionTime: z.string().min(1),
    receipt: z.string().min(1).max(64),
    transactionType: z.string().min(1),
    email: z.string().nullish(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    fullName: z.string().nullish(),
    country: z.string().nullish(),
    state: z.string().nullish(),
    postalCode: optText,
    vendor: z.string().nullish(),
    affiliate: z.string().nullish(),
    role: z.string().nullish(),
    currency: z.string().nullish(),
    totalOrderAmount: money,
    trackingId: z.string().nullish(),
    vendorVariables: z.unknown().optional(),
    lineItemData: listOf(lineItem),
  })
  .loose();
type Order = z.output<typeof orderSchema>;
const listSchema = z
  .object({ orderData: listOf(z.unknown()) })
  .loose()
  .nullable();

/** The transaction types that are orders of a subscription (others are skipped). */
const ORDER_TYPES = new Set(['SALE', 'BILL', 'RFND', 'CGBK']);

/** An order of the list, read. */
interface ReadOrder {
  order: Order;
  type: 'SALE' | 'BILL' | 'RFND' | 'CGBK';
  at: Date;
  initial: string;
  email: string;
}

/** A day's date (yyyy-mm-dd, UTC) `days` before `now`. */
const dayOf = (now: Date, days = 0) =>
  new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * Reads every page of the orders of the last `days` days up to `now`, handing each page's raw
 * orders to `onPage` → the number of pages. Throws ProviderError.
 */
export async function listClickbankOrders(
  config: ServerConfig,
  now: Date,
  days: number,
  onPage: (orders: unknown[]) => void,
  opts: ProviderHttpOptions = {},
): Promise<number> {
  const base = config.clickbankApiUrl ?? 'https://api.clickbank.com';
  const query = new URLSearchParams({ startDate: dayOf(now, days), endDate: dayOf(now) });
  let page = 1;
  for (;;) {
    const answer = await providerGet(
      'ClickBank',
      `${base}/rest/1.3/orders2/list?${query.toString()}`,
      {
        Authorization: clickbankAuthorization(config),
        Accept: 'application/json',
        Page: String(page),
      },
      base,
      CLICKBANK_BUDGET,
      opts,
    );
    const parsed = listSchema.safeParse(answer.body);
    if (!parsed.success) {
      throw new ProviderError(
        `ClickBank answered page ${page} without an orderData list`,
        answer.status,
      );
    }
    onPage(parsed.data?.orderData ?? []);
    if (answer.status !== 206 || page >= MAX_PAGES) return page;
    page++;
  }
}

/** The Instant Notification (JSON v7 shape) an order of the list stands for, as `type` at `time`. */
function notificationOf(o: Order, type: string, time: string, nextPaymentDate?: string): unknown {
  const vendorVariables: Record<string, string> = {};
  const vars = o.vendorVariables;
  if (Array.isArray(vars)) {
    for (const v of vars as Array<{ name?: unknown; value?: unknown }>) {
      if (typeof v?.name === 'string') vendorVariables[v.name] = String(v.value ?? '');
    }
  } else if (vars && typeof vars === 'object') {
    for (const [k, v] of Object.entries(vars)) vendorVariables[k] = String(v);
  }
  return {
    transactionTime: time,
    receipt: o.receipt,
    transactionType: type,
    vendor: o.vendor ?? null,
    affiliate: o.affiliate ?? null,
    role: o.role ?? 'VENDOR',
    totalOrderAmount: o.totalOrderAmount ?? null,
    currency: o.currency ?? 'USD',
    trackingCodes: o.trackingId ? [o.trackingId] : [],
    lineItems: o.lineItemData.map((li) => ({
      itemNo: li.itemNo ?? null,
      productTitle: li.productTitle ?? null,
      recurring: li.recurring ?? null,
      accountAmount: li.accountAmount ?? null,
      lineItemType: li.lineItemType ?? null,
      rebillAmount: li.rebillAmount ?? null,
      paymentPlan: {
        rebillStatus: li.status ?? null,
        rebillAmount: li.rebillAmount ?? null,
        paymentsProcessed: li.processedPayments ?? null,
        paymentsRemaining: li.futurePayments ?? null,
        nextPaymentDate: nextPaymentDate ?? li.nextPaymentDate ?? null,
      },
    })),
    customer: {
      billing: {
        firstName: o.firstName ?? null,
        lastName: o.lastName ?? null,
        fullName: o.fullName ?? null,
        email: o.email ?? null,
        address: {
          state: o.state ?? null,
          postalCode: o.postalCode ?? null,
          country: o.country ?? null,
        },
      },
    },
    vendorVariables,
    version: 7,
  };
}

/** The provider's state of one subscription: its status word and what it asks of access. */
interface ProviderState {
  status: 'active' | 'cancelled';
  access: AccessExpectation;
  /** For a cancellation: when access ends (ISO, for the CANCEL-REBILL a fix may apply). */
  endsAt: Date | null;
}

function stateOf(latest: ReadOrder, now: Date): ProviderState {
  if (latest.type === 'RFND' || latest.type === 'CGBK') {
    return { status: 'cancelled', access: { kind: 'revoke_now' }, endsAt: latest.at };
  }
  const line = latest.order.lineItemData[0];
  if (line?.status && /CANCEL/i.test(line.status)) {
    const next = line.nextPaymentDate ? parseClickbankTime(line.nextPaymentDate) : null;
    const at = next ?? now;
    return { status: 'cancelled', access: { kind: 'revoke_at', at }, endsAt: at };
  }
  return { status: 'active', access: { kind: 'grant' }, endsAt: null };
}

interface StoredSub extends StoredAccess {
  provider_id: string;
  status: string;
}

async function storedSubs(
  db: Queryable,
  receipts: string[],
  now: Date,
): Promise<Map<string, StoredSub>> {
  const r = await db.query<StoredSub>(
    `SELECT s.provider_id, s.status, m.mg_status, m.expires_at,
            EXISTS (SELECT 1 FROM subscriptions o WHERE o.customer_id = s.customer_id AND o.id <> s.id
                       AND ${activeAccessCondition('o', '$2')}) AS other_grants
       FROM subscriptions s LEFT JOIN members m ON m.customer_id = s.customer_id
      WHERE s.provider = 'clickbank' AND s.provider_id = ANY($1::text[])`,
    [receipts, now],
  );
  return new Map(r.rows.map((row) => [row.provider_id, row]));
}

/**
 * The orders of `groups` the database has recorded: a sale or rebill by its clickbank_orders row,
 * a refund or chargeback by its refund lifecycle row at that time → keys `receipt|type|time`.
 */
async function recordedOrders(db: Queryable, orders: ReadOrder[]): Promise<Set<string>> {
  const done = new Set<string>();
  const key = (receipt: string, type: string, at: Date) => `${receipt}|${type}|${at.toISOString()}`;
  const sales = orders.filter((o) => o.type === 'SALE' || o.type === 'BILL');
  if (sales.length > 0) {
    const r = await db.query<{ receipt: string }>(
      'SELECT receipt FROM clickbank_orders WHERE receipt = ANY($1::text[])',
      [sales.map((o) => o.order.receipt)],
    );
    const have = new Set(r.rows.map((x) => x.receipt));
    for (const o of sales)
      if (have.has(o.order.receipt)) done.add(key(o.order.receipt, o.type, o.at));
  }
  const refunds = orders.filter((o) => o.type === 'RFND' || o.type === 'CGBK');
  if (refunds.length > 0) {
    const r = await db.query<{ provider_id: string; occurred_at: Date }>(
      `SELECT s.provider_id, e.occurred_at FROM subscription_events e
         JOIN subscriptions s ON s.id = e.subscription_id
        WHERE e.type = 'refund' AND s.provider = 'clickbank' AND s.provider_id = ANY($1::text[])`,
      [[...new Set(refunds.map((o) => o.initial))]],
    );
    const have = new Set(
      r.rows.map((x) => `${x.provider_id}|${new Date(x.occurred_at).toISOString()}`),
    );
    for (const o of refunds) {
      if (have.has(`${o.initial}|${o.at.toISOString()}`))
        done.add(key(o.order.receipt, o.type, o.at));
    }
  }
  return done;
}

/** Reads one raw order → ReadOrder, or null for an order reconciliation skips. */
function readOrder(raw: unknown): ReadOrder | null {
  const parsed = orderSchema.safeParse(storableJson(raw));
  if (!parsed.success) return null;
  const o = parsed.data;
  const type = o.transactionType.trim().toUpperCase();
  if (!ORDER_TYPES.has(type) || (o.role ?? 'VENDOR').toUpperCase() === 'AFFILIATE') return null;
  const email = o.email?.trim().toLowerCase() ?? '';
  const at = parseClickbankTime(o.transactionTime);
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || !at) return null;
  const initial = initialReceiptOf({
    receipt: o.receipt,
    parentReceipt: null,
    originalReceipt: null,
  });
  return { order: o, type: type as ReadOrder['type'], at, initial, email };
}

/**
 * Compares the orders of the last RECONCILE_CLICKBANK_DAYS with the database at deps.now() → the
 * fixes a real run applies. Throws ProviderError.
 */
export async function compareClickbank(
  deps: AppDeps,
  opts: ProviderHttpOptions = {},
): Promise<Comparison> {
  const now = deps.now();
  const days = deps.config.reconcileClickbankDays ?? DEFAULT_RECONCILE_CLICKBANK_DAYS;
  const orders: ReadOrder[] = [];
  await listClickbankOrders(
    deps.config,
    now,
    days,
    (page) => {
      for (const raw of page) {
        const o = readOrder(raw);
        if (o) orders.push(o);
      }
    },
    opts,
  );
  const groups = new Map<string, ReadOrder[]>();
  for (const o of orders) {
    const list = groups.get(o.initial) ?? [];
    list.push(o);
    groups.set(o.initial, list);
  }
  const fixes: Fix[] = [];
  const receipts = [...groups.keys()];
  for (let i = 0; i < receipts.length; i += 1000) {
    const chunk = receipts.slice(i, i + 1000);
    const stored = await storedSubs(deps.db, chunk, now);
    const chunkOrders = chunk.flatMap((r) => groups.get(r) ?? []);
    const recorded = await recordedOrders(deps.db, chunkOrders);
    for (const initial of chunk) {
      const list = (groups.get(initial) ?? []).sort((a, b) => a.at.getTime() - b.at.getTime());
      const latest = list[list.length - 1];
      if (!latest) continue;
      const state = stateOf(latest, now);
      const row = stored.get(initial);
      const unrecorded = list.filter(
        (o) => !recorded.has(`${o.order.receipt}|${o.type}|${o.at.toISOString()}`),
      );
      const mismatch = (
        field: string,
        ours: string | null,
        theirs: string | null,
      ): MismatchRow => ({
        email: latest.email,
        subscription_id: initial,
        field,
        ours,
        theirs,
      });
      const mismatches: MismatchRow[] = [];
      if (row) {
        for (const o of unrecorded) {
          mismatches.push(
            mismatch('order', null, `${o.order.receipt} ${o.type} ${o.at.toISOString()}`),
          );
        }
        if (row.status !== state.status)
          mismatches.push(mismatch('status', row.status, state.status));
        const access = accessMismatch(state.access, row, now);
        if (access) mismatches.push(mismatch('access', access.ours, access.theirs));
        if (mismatches.length === 0) continue;
      }
      fixes.push({
        email: latest.email,
        subscriptionId: initial,
        providerStatus: state.status,
        isMissing: !row,
        mismatches,
        apply: (tx, at, reason) => applyGroup(tx, initial, unrecorded, latest, state, at, reason),
      });
    }
  }
  return { checked: groups.size, fixes, failed: [] };
}

/** A fix of one ClickBank subscription (module doc) in `tx` → the effects. */
async function applyGroup(
  tx: Queryable,
  initial: string,
  unrecorded: ReadOrder[],
  latest: ReadOrder,
  state: ProviderState,
  now: Date,
  reason: string,
): Promise<string[]> {
  const effects: string[] = [];
  for (const o of unrecorded) {
    const parsed = parseClickbankNotification(
      storableJson(notificationOf(o.order, o.type, o.order.transactionTime)),
    );
    if (!(await claimDedup(tx, clickbankDedupKey(parsed), 'clickbank', now))) continue;
    effects.push(...(await applyClickbankNotification(tx, parsed, now, reason)));
  }
  const stored = (await storedSubs(tx, [initial], now)).get(initial);
  const differs =
    !stored || stored.status !== state.status || accessMismatch(state.access, stored, now) !== null;
  if (!differs) return effects;
  const type = state.status === 'active' ? 'UNCANCEL-REBILL' : 'CANCEL-REBILL';
  const base = { ...latest.order, receipt: initial };
  const parsed = parseClickbankNotification(
    storableJson(notificationOf(base, type, now.toISOString(), state.endsAt?.toISOString())),
  );
  await claimDedup(tx, clickbankDedupKey(parsed), 'clickbank', now);
  effects.push(...(await applyClickbankNotification(tx, parsed, now, reason)));
  return effects;
}
