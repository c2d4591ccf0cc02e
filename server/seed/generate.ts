/**
 * Pure, deterministic generation of the demo dataset as PostgreSQL COPY text (tab-separated). Nothing
 * here touches the database or the wall clock: the same seed and seeding moment give the same bytes.
 *
 * The world: one customer per row, each with one subscription, ~60 % LemonSqueezy and ~40 %
 * ClickBank, started over the last two years (more recent ones more likely). Each subscription
 * is simulated period by period up to the seeding moment, the simulation's "now": renewals at every
 * past period boundary, churn (cancellation with access until the period end, sometimes refunded),
 * payment failures (LemonSqueezy past_due / unpaid), trials and pauses. Nothing that happened is
 * dated after that moment, so a fresh database never shows activity later than the clock; only what
 * is scheduled (period ends, access expiries, the next ClickBank payment) lies ahead of it.
 */
import { createHash } from 'node:crypto';
import { copyLine } from './copy';
import { revenueSpanLines } from './revenue';
import { IsrWriter, type IsrPayment } from './isr';
import { createRng, type Rng } from './prng';
import {
  AFFILIATE_WEIGHTS,
  COUNTRIES,
  CURRENCIES,
  FIRST_NAMES,
  LAST_NAMES,
  LOG_LEVEL_WEIGHTS,
  LOG_TEMPLATES,
  LS_SOURCES,
  PLANS,
  STREETS,
  TID_WEIGHTS,
  type Plan,
} from './vocabulary';
import {
  storedProviderStatus,
  type Cadence,
  type LemonSqueezyStatus,
  type MgStatus,
  type Provider,
} from '../vocabulary';

const DAY_MS = 86_400_000;
/** LemonSqueezy store the seeded subscriptions belong to. */
export const LS_STORE_ID = 48213;
/** ClickBank vendor nickname of the seeded orders. */
export const CB_VENDOR = 'mgclub';
/** Id offset of seeded LemonSqueezy subscription ids (provider_id = 1000000 + customer index). */
const LS_SUBSCRIPTION_BASE = 1_000_000;

/** LemonSqueezy statuses (the payload keeps them; the status column maps on_trial → trialing). */
type LsStatus = LemonSqueezyStatus;

const LS_STATUS_FORMATTED: Record<LsStatus, string> = {
  on_trial: 'On Trial',
  active: 'Active',
  paused: 'Paused',
  past_due: 'Past due',
  unpaid: 'Unpaid',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

interface SimEvent {
  type: 'new' | 'renewal' | 'cancellation' | 'expiration' | 'refund';
  at: number;
  amountCents: number | null;
}

/** A ClickBank transaction (one order row): its receipt, kind and time. */
interface CbTxn {
  receipt: string;
  kind: 'SALE' | 'BILL';
  at: number;
  refundedAt: number | null;
  /** Zero-based payment number (0 = the initial sale). */
  index: number;
}

interface Simulated {
  status: LsStatus;
  /** End of the current (or last) paid period, epoch ms. */
  periodEnd: number;
  /** When access ends for cancelled/expired/unpaid, epoch ms; null otherwise. */
  endsAt: number | null;
  trialEndsAt: number | null;
  cancelled: boolean;
  cancelledAt: number | null;
  refunded: boolean;
  paymentTimes: number[];
  events: SimEvent[];
}

/** Options of the generator: customer count, PRNG seed and the seeding moment. */
export interface GenerateOptions {
  customers: number;
  seed: number;
  /** The seeding moment (epoch ms, UTC): the simulation runs up to it, and no row is dated later. */
  nowMs: number;
}

/** COPY text-format data per table for one batch of customers, plus row counts. */
export interface CsvBatch {
  customers: string;
  subscriptions: string;
  members: string;
  events: string;
  clickbankOrders: string;
  /** isr_events rows (ISR_COPY_COLUMNS). */
  isr: string;
  /** revenue_spans rows (REVENUE_SPAN_COLUMNS). */
  revenueSpans: string;
  counts: {
    customers: number;
    lemonsqueezy: number;
    clickbank: number;
    members: number;
    events: number;
    clickbankOrders: number;
    accessActive: number;
    isrEvents: number;
  };
}

/** Row counts of an empty batch. */
function zeroCounts(): CsvBatch['counts'] {
  return {
    customers: 0,
    lemonsqueezy: 0,
    clickbank: 0,
    members: 0,
    events: 0,
    clickbankOrders: 0,
    accessActive: 0,
    isrEvents: 0,
  };
}

/**
 * One batch of the COPY text and counts of `slices` generated one after the other (their
 * customers in order): the same batch as one call of DemoGenerator.batch for all of them.
 */
export function joinBatches(slices: readonly CsvBatch[]): CsvBatch {
  const text = (key: Exclude<keyof CsvBatch, 'counts'>) => slices.map((b) => b[key]).join('');
  const counts = zeroCounts();
  for (const b of slices) {
    for (const key of Object.keys(counts) as Array<keyof CsvBatch['counts']>) {
      counts[key] += b.counts[key];
    }
  }
  return {
    customers: text('customers'),
    subscriptions: text('subscriptions'),
    members: text('members'),
    events: text('events'),
    clickbankOrders: text('clickbankOrders'),
    isr: text('isr'),
    revenueSpans: text('revenueSpans'),
    counts,
  };
}

/** Column lists matching the field order of each table's COPY data. */
export const COPY_COLUMNS = {
  customers: 'id, email, name, created_at',
  subscriptions:
    'id, customer_id, provider, provider_id, status, cadence, plan, source, amount_cents, currency, start_date, current_period_end, ends_at, payload, created_at, updated_at, email',
  // email: the customer's, which migration 034's triggers copy outside the bulk load.
  // sub_*: its subscription's columns, which the triggers of migrations 035, 036 and 040 copy
  // outside the bulk load.
  members:
    'id, customer_id, subscription_id, mg_status, expires_at, updated_at, email, sub_provider, sub_status, sub_cadence, sub_start_date, sub_current_period_end, sub_ends_at',
  events: 'id, subscription_id, type, occurred_at, amount_cents, currency',
  clickbankOrders:
    'id, subscription_id, email, receipt, sku, status, title, site, affiliate, country, state, postal_code, first_name, last_name, customer_display_name, customer_refundable_state, currency, amount_cents, rebill_amount_cents, account_amount_cents, next_payment_at, created_at_provider, raw_json',
  logs: 'ts, level, msg, context',
} as const;

const iso = (ms: number) => new Date(ms).toISOString();
/** LemonSqueezy's timestamp style: '2021-08-11T13:47:28.000000Z'. */
const lsTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}.000000Z`;
/** ClickBank INS v6 style: '2023-07-28T02:07:57+00:00'. */
const cbTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
const money = (cents: number) => Math.round(cents) / 100;

/** Adds whole months in UTC keeping the day of month, clamped to the target month's length (billing anchor). */
export function addMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const targetYear = y + Math.floor(m / 12);
  const targetMonth = ((m % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Date.UTC(
    targetYear,
    targetMonth,
    day,
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  );
}

const periodEndAt = (startMs: number, cadence: Cadence, periods: number) =>
  addMonthsUtc(startMs, cadence === 'monthly' ? periods : 12 * periods);

function hexDigest(...parts: Array<string | number>): string {
  return createHash('sha256').update(parts.join('|')).digest('hex');
}

/** ClickBank item number (SKU) of a customer's plan and cadence, e.g. 'mg-pro-m'. */
function clickbankSku(c: Customer): string {
  return `mg-${c.plan.name.toLowerCase()}-${c.cadence === 'monthly' ? 'm' : 'y'}`;
}

/**
 * ISR payments of a LemonSqueezy customer from the simulated events: a paid 'new' is the sale
 * (order id = the payload's order_id), each renewal a rebill ('<order>-R<n>'), a refund refunds the
 * last payment. Free trials have no payment.
 */
function lemonSqueezyPayments(c: Customer): IsrPayment[] {
  const order = 3_000_000 + c.index;
  const out: IsrPayment[] = [];
  let last: IsrPayment | null = null;
  let renewals = 0;
  for (const e of [...c.sim.events].sort((a, b) => a.at - b.at)) {
    if ((e.type === 'new' || e.type === 'renewal') && e.amountCents != null && e.amountCents > 0) {
      const orderId = e.type === 'new' ? String(order) : `${order}-R${++renewals}`;
      last = {
        kind: e.type === 'new' ? 'sale' : 'rebill',
        at: e.at,
        amountCents: e.amountCents,
        receipt: `LS${orderId}`,
        orderId,
      };
      out.push(last);
    } else if (e.type === 'refund' && e.amountCents != null && last) {
      out.push({
        kind: 'refund',
        at: e.at,
        amountCents: e.amountCents,
        receipt: last.receipt,
        orderId: last.orderId,
      });
    }
  }
  return out;
}

/** ISR payments of a ClickBank customer: one per transaction (SALE / BILL), plus the refund of a refunded one. */
function clickbankPayments(c: Customer, txns: CbTxn[]): IsrPayment[] {
  const out: IsrPayment[] = [];
  for (const t of txns) {
    out.push({
      kind: t.index === 0 ? 'sale' : 'rebill',
      at: t.at,
      amountCents: c.priceCents,
      receipt: t.receipt,
      orderId: t.receipt,
    });
    if (t.refundedAt != null) {
      out.push({
        kind: 'refund',
        at: t.refundedAt,
        amountCents: c.priceCents,
        receipt: t.receipt,
        orderId: t.receipt,
      });
    }
  }
  return out;
}

/** Everything decided about one customer before serialisation. */
interface Customer {
  index: number;
  id: number;
  first: string;
  last: string;
  email: string;
  provider: Provider;
  cadence: Cadence;
  plan: Plan;
  currency: string;
  source: string;
  affiliate: string | null;
  priceCents: number;
  startMs: number;
  sim: Simulated;
}

/** The generator: call batch() repeatedly until done(), then logs(). Ids start at 1 in each table. */
export class DemoGenerator {
  private readonly rng: Rng;
  /** The MRR history's own stream, so drawing it changes nothing else (./revenue.ts). */
  private readonly revenueRng: Rng;
  /** UTC midnight of the seeding moment's day (the dashboard's "today"). */
  private readonly anchorDayMs: number;
  /** The seeding moment: the simulation's "now". */
  private readonly horizonMs: number;
  private nextIndex = 0;
  private eventId = 0;
  private orderId = 0;
  private readonly emails: string[] = [];
  private readonly isr: IsrWriter;

  constructor(private readonly opts: GenerateOptions) {
    this.rng = createRng(opts.seed);
    this.revenueRng = createRng((opts.seed ^ 0x52455645) >>> 0);
    this.isr = new IsrWriter(opts.seed);
    this.horizonMs = opts.nowMs;
    this.anchorDayMs = Math.floor(opts.nowMs / DAY_MS) * DAY_MS;
  }

  /** True when every customer has been generated. */
  done(): boolean {
    return this.nextIndex >= this.opts.customers;
  }

  /** Generates the next `size` customers (fewer at the end) as COPY text for every table. */
  batch(size: number): CsvBatch {
    const out: CsvBatch = {
      customers: '',
      subscriptions: '',
      members: '',
      events: '',
      clickbankOrders: '',
      isr: '',
      revenueSpans: '',
      counts: zeroCounts(),
    };
    const end = Math.min(this.opts.customers, this.nextIndex + size);
    const parts = {
      customers: [] as string[],
      subscriptions: [] as string[],
      members: [] as string[],
      events: [] as string[],
      orders: [] as string[],
      isr: [] as string[],
      revenueSpans: [] as string[],
    };
    for (; this.nextIndex < end; this.nextIndex++) {
      const customer = this.customer(this.nextIndex);
      this.emails.push(customer.email);
      this.serialise(customer, parts, out.counts);
    }
    out.customers = parts.customers.join('');
    out.subscriptions = parts.subscriptions.join('');
    out.members = parts.members.join('');
    out.events = parts.events.join('');
    out.clickbankOrders = parts.orders.join('');
    out.isr = parts.isr.join('');
    out.revenueSpans = parts.revenueSpans.join('');
    return out;
  }

  private customer(index: number): Customer {
    const r = this.rng;
    const first = r.pick(FIRST_NAMES);
    const last = r.pick(LAST_NAMES);
    const domain = r.chance(0.7) ? 'example.com' : 'example.org';
    const email = `${first}.${last}+${index + 1}@${domain}`.toLowerCase();
    const provider: Provider = r.chance(0.6) ? 'lemonsqueezy' : 'clickbank';
    let cadence: Cadence = r.chance(0.25) ? 'yearly' : 'monthly';
    const plan = r.weighted(PLANS.map((p) => [p, p.weight] as const));
    const currency = r.weighted(CURRENCIES);
    const affiliate =
      provider === 'clickbank' && r.chance(0.75) ? r.weighted(AFFILIATE_WEIGHTS) : null;
    const source =
      provider === 'lemonsqueezy' ? r.weighted(LS_SOURCES) : (affiliate ?? 'clickbank');
    const secondOfDay = r.int(0, 86_399);
    // More recent starts are likelier (a growing business): days ago = 730 · u^1.4.
    const daysAgo = Math.floor(730 * Math.pow(r.next(), 1.4));
    let startMs = this.dayTime(daysAgo, secondOfDay);

    // Make sure the anchor day itself has activity, whatever the sample size.
    let forced: 'none' | 'new' | 'renewal' | 'cancel' = 'none';
    if (index === 0) {
      forced = 'new';
      startMs = this.dayTime(0, secondOfDay);
    } else if (index === 1) {
      forced = 'renewal';
      cadence = 'monthly';
      startMs = this.renewingToday(secondOfDay);
    } else if (index === 2) {
      forced = 'cancel';
    }

    const priceCents = cadence === 'monthly' ? plan.monthlyCents : plan.yearlyCents;
    const sim = this.simulate(provider, cadence, startMs, priceCents, forced);
    return {
      index,
      id: index + 1,
      first,
      last,
      email,
      provider,
      cadence,
      plan,
      currency,
      source,
      affiliate,
      priceCents,
      startMs,
      sim,
    };
  }

  /**
   * The instant `secondOfDay` seconds into the UTC day `daysAgo` days before the anchor day, in
   * whole seconds. The anchor day has only run until the seeding moment, so its 86,400 seconds are
   * scaled into the part that has passed: what is drawn for today happens before now (at now only
   * when seeding at midnight exactly).
   */
  private dayTime(daysAgo: number, secondOfDay: number): number {
    if (daysAgo > 0) return this.anchorDayMs - daysAgo * DAY_MS + secondOfDay * 1000;
    const elapsedMs = this.horizonMs - this.anchorDayMs;
    return this.anchorDayMs + Math.floor((secondOfDay * elapsedMs) / DAY_MS) * 1000;
  }

  /** A monthly start some months before the anchor day whose renewal falls on the anchor day, before now. */
  private renewingToday(secondOfDay: number): number {
    const target = this.dayTime(0, secondOfDay);
    for (let k = 3; k <= 14; k++) {
      const start = addMonthsUtc(target, -k);
      if (addMonthsUtc(start, k) === target) return start;
    }
    return addMonthsUtc(target, -1);
  }

  private simulate(
    provider: Provider,
    cadence: Cadence,
    startMs: number,
    priceCents: number,
    forced: 'none' | 'new' | 'renewal' | 'cancel',
  ): Simulated {
    const r = this.rng;
    const H = this.horizonMs;
    const events: SimEvent[] = [];
    const paymentTimes: number[] = [];

    // LemonSqueezy trials: recent sign-ups, 14 days free, no charge yet.
    if (
      provider === 'lemonsqueezy' &&
      forced === 'none' &&
      H - startMs < 14 * DAY_MS &&
      r.chance(0.35)
    ) {
      const trialEnd = startMs + 14 * DAY_MS;
      events.push({ type: 'new', at: startMs, amountCents: 0 });
      return {
        status: 'on_trial',
        periodEnd: trialEnd,
        endsAt: null,
        trialEndsAt: trialEnd,
        cancelled: false,
        cancelledAt: null,
        refunded: false,
        paymentTimes,
        events,
      };
    }

    events.push({ type: 'new', at: startMs, amountCents: priceCents });
    paymentTimes.push(startMs);
    const churn = cadence === 'monthly' ? 0.06 : 0.22;
    let periodStart = startMs;
    for (let k = 1; ; k++) {
      const periodEnd = periodEndAt(startMs, cadence, k);
      if (forced === 'none' && r.chance(churn)) {
        const cancelAt = periodStart + Math.floor(r.next() * (periodEnd - periodStart));
        if (cancelAt < H) {
          const refunded = cancelAt - periodStart < 30 * DAY_MS && r.chance(0.12);
          events.push({ type: 'cancellation', at: cancelAt, amountCents: null });
          if (refunded) events.push({ type: 'refund', at: cancelAt, amountCents: priceCents });
          const endsAt = refunded ? cancelAt : periodEnd;
          const expired = endsAt < H;
          if (expired) events.push({ type: 'expiration', at: endsAt, amountCents: null });
          return {
            status: expired ? 'expired' : 'cancelled',
            periodEnd,
            endsAt,
            trialEndsAt: null,
            cancelled: true,
            cancelledAt: cancelAt,
            refunded,
            paymentTimes,
            events,
          };
        }
      }
      if (periodEnd >= H) {
        if (forced === 'cancel') {
          // Cancelled today: access continues until the end of the paid period.
          const cancelAt = Math.max(this.dayTime(0, r.int(0, 86_399)), periodStart);
          events.push({ type: 'cancellation', at: cancelAt, amountCents: null });
          return {
            status: 'cancelled',
            periodEnd,
            endsAt: periodEnd,
            trialEndsAt: null,
            cancelled: true,
            cancelledAt: cancelAt,
            refunded: false,
            paymentTimes,
            events,
          };
        }
        const paused = provider === 'lemonsqueezy' && forced === 'none' && r.chance(0.03);
        return {
          status: paused ? 'paused' : 'active',
          periodEnd,
          endsAt: null,
          trialEndsAt: null,
          cancelled: false,
          cancelledAt: null,
          refunded: false,
          paymentTimes,
          events,
        };
      }
      // A renewal is due at periodEnd (in the past). Occasionally the card fails.
      if (forced === 'none' && r.chance(0.012)) {
        const age = H - periodEnd;
        if (provider === 'lemonsqueezy' && age <= 14 * DAY_MS) {
          return {
            status: 'past_due',
            periodEnd,
            endsAt: null,
            trialEndsAt: null,
            cancelled: false,
            cancelledAt: null,
            refunded: false,
            paymentTimes,
            events,
          };
        }
        if (provider === 'lemonsqueezy' && age <= 45 * DAY_MS) {
          return {
            status: 'unpaid',
            periodEnd,
            endsAt: periodEnd,
            trialEndsAt: null,
            cancelled: false,
            cancelledAt: null,
            refunded: false,
            paymentTimes,
            events,
          };
        }
        events.push({ type: 'expiration', at: periodEnd, amountCents: null });
        return {
          status: 'expired',
          periodEnd,
          endsAt: periodEnd,
          trialEndsAt: null,
          cancelled: false,
          cancelledAt: null,
          refunded: false,
          paymentTimes,
          events,
        };
      }
      events.push({ type: 'renewal', at: periodEnd, amountCents: priceCents });
      paymentTimes.push(periodEnd);
      periodStart = periodEnd;
    }
  }

  private serialise(
    c: Customer,
    parts: {
      customers: string[];
      subscriptions: string[];
      members: string[];
      events: string[];
      orders: string[];
      isr: string[];
      revenueSpans: string[];
    },
    counts: CsvBatch['counts'],
  ): void {
    const r = this.rng;
    const sim = c.sim;
    const name = `${c.first} ${c.last}`;
    const subscriptionId = c.id;
    const statusColumn = storedProviderStatus(sim.status);
    // Same rule as activeAccessCondition (server/vocabulary.ts); a simulated 'cancelled' always ends after the anchor day.
    const hasAccess =
      sim.status === 'active' ||
      sim.status === 'on_trial' ||
      sim.status === 'past_due' ||
      sim.status === 'cancelled';
    // Every simulated event lies before the seeding moment, so the last one dates the row.
    const updatedAt = sim.events.reduce((m, e) => Math.max(m, e.at), c.startMs);

    parts.customers.push(copyLine([c.id, c.email, name, iso(c.startMs)]));
    counts.customers++;

    let providerId: string;
    let payload: unknown;
    let isrPayments: IsrPayment[];
    let subid: string | null = null;
    if (c.provider === 'lemonsqueezy') {
      providerId = String(LS_SUBSCRIPTION_BASE + c.index);
      payload = this.lemonSqueezyPayload(c, providerId, name, updatedAt);
      isrPayments = lemonSqueezyPayments(c);
      counts.lemonsqueezy++;
    } else {
      const orders = this.clickbankOrders(c, subscriptionId, name);
      providerId = orders.initialReceipt;
      payload = orders.summary;
      subid = orders.trackingCode;
      isrPayments = clickbankPayments(c, orders.txns);
      for (const line of orders.lines) parts.orders.push(line);
      counts.clickbankOrders += orders.lines.length;
      counts.clickbank++;
    }
    const isrLines = this.isr.lines({
      provider: c.provider,
      email: c.email,
      trafficSource: c.source,
      affiliate: c.affiliate,
      subid,
      productId: c.provider === 'clickbank' ? clickbankSku(c) : String(c.plan.productId),
      currency: c.currency,
      payments: isrPayments,
    });
    for (const line of isrLines) parts.isr.push(line);
    counts.isrEvents += isrLines.length;

    const currentPeriodEnd =
      sim.endsAt != null && sim.status !== 'past_due' ? sim.endsAt : sim.periodEnd;
    parts.subscriptions.push(
      copyLine([
        subscriptionId,
        c.id,
        c.provider,
        providerId,
        statusColumn,
        c.cadence,
        c.plan.name,
        c.source,
        c.priceCents,
        c.currency,
        iso(c.startMs),
        iso(currentPeriodEnd),
        sim.endsAt == null ? null : iso(sim.endsAt),
        jsonText(payload),
        iso(c.startMs),
        iso(updatedAt),
        c.email,
      ]),
    );
    if (hasAccess) counts.accessActive++;
    const spans = revenueSpanLines(
      {
        subscriptionId,
        customerId: c.id,
        provider: c.provider,
        plan: c.plan,
        cadence: c.cadence,
        currency: c.currency,
        startMs: c.startMs,
        status: sim.status,
        endsAt: sim.endsAt,
        periodEnd: sim.periodEnd,
        paymentTimes: sim.paymentTimes,
      },
      this.horizonMs,
      this.revenueRng,
    );
    for (const line of spans) parts.revenueSpans.push(line);

    // Forum access: active while the subscription grants access (a cancelled one is a scheduled
    // revocation at ends_at). Some recently ended ones still wait for the expiration job.
    let mgStatus: MgStatus;
    let expiresAt: number | null;
    if (hasAccess) {
      mgStatus = 'active';
      expiresAt = sim.status === 'cancelled' ? sim.endsAt : null;
    } else if (sim.status === 'paused') {
      mgStatus = 'cancelled';
      expiresAt = null;
    } else {
      const ended = sim.endsAt ?? sim.periodEnd;
      const pendingExpiry = this.horizonMs - ended < 3 * DAY_MS && r.chance(0.5);
      mgStatus = pendingExpiry ? 'active' : 'cancelled';
      expiresAt = ended;
    }
    parts.members.push(
      copyLine([
        c.id,
        c.id,
        subscriptionId,
        mgStatus,
        expiresAt == null ? null : iso(expiresAt),
        iso(updatedAt),
        c.email,
        c.provider,
        statusColumn,
        c.cadence,
        iso(c.startMs),
        iso(currentPeriodEnd),
        sim.endsAt == null ? null : iso(sim.endsAt),
      ]),
    );
    counts.members++;

    const sorted = [...sim.events].sort((a, b) => a.at - b.at);
    for (const e of sorted) {
      this.eventId++;
      parts.events.push(
        copyLine([
          this.eventId,
          subscriptionId,
          e.type,
          iso(e.at),
          e.amountCents,
          e.amountCents == null ? null : c.currency,
        ]),
      );
      counts.events++;
    }
  }

  private lemonSqueezyPayload(c: Customer, id: string, name: string, updatedAt: number): unknown {
    const r = this.rng;
    const sim = c.sim;
    const paypal = r.chance(0.1);
    const cardBrand = paypal
      ? null
      : r.weighted([
          ['visa', 55],
          ['mastercard', 30],
          ['american_express', 10],
          ['discover', 5],
        ] as const);
    const lastFour = paypal ? null : String(r.int(0, 9999)).padStart(4, '0');
    const variantId = c.plan.productId * 10 + (c.cadence === 'monthly' ? 1 : 2);
    const currencyIndex = CURRENCIES.findIndex(([code]) => code === c.currency);
    const priceId = variantId * 10 + currencyIndex;
    const expires = Math.floor(this.horizonMs / 1000);
    const sign = (kind: string) => hexDigest(this.opts.seed, id, kind);
    const base = `https://mgclub.lemonsqueezy.com`;
    const api = `https://api.lemonsqueezy.com/v1/subscriptions/${id}`;
    const relationships: Record<string, { links: { related: string; self: string } }> = {};
    for (const rel of [
      'store',
      'customer',
      'order',
      'order-item',
      'product',
      'variant',
      'subscription-items',
      'subscription-invoices',
    ]) {
      relationships[rel] = {
        links: { related: `${api}/${rel}`, self: `${api}/relationships/${rel}` },
      };
    }
    return {
      type: 'subscriptions',
      id,
      attributes: {
        store_id: LS_STORE_ID,
        customer_id: 2_000_000 + c.index,
        order_id: 3_000_000 + c.index,
        order_item_id: 4_000_000 + c.index,
        product_id: c.plan.productId,
        variant_id: variantId,
        product_name: `${c.plan.name} Membership`,
        variant_name: c.cadence === 'monthly' ? 'Monthly' : 'Yearly',
        user_name: name,
        user_email: c.email,
        status: sim.status,
        status_formatted: LS_STATUS_FORMATTED[sim.status],
        card_brand: cardBrand,
        card_last_four: lastFour,
        payment_processor: paypal ? 'paypal' : 'stripe',
        pause:
          sim.status === 'paused'
            ? { mode: 'void', resumes_at: lsTime(addMonthsUtc(sim.periodEnd, 1)) }
            : null,
        cancelled: sim.cancelled,
        trial_ends_at: sim.trialEndsAt == null ? null : lsTime(sim.trialEndsAt),
        billing_anchor: new Date(sim.trialEndsAt ?? c.startMs).getUTCDate(),
        first_subscription_item: {
          id: 5_000_000 + c.index,
          subscription_id: Number(id),
          price_id: priceId,
          quantity: 1,
          created_at: lsTime(c.startMs),
          updated_at: lsTime(updatedAt),
        },
        urls: {
          update_payment_method: `${base}/subscription/${id}/payment-details?expires=${expires}&signature=${sign('update_payment_method')}`,
          customer_portal: `${base}/billing?expires=${expires}&signature=${sign('customer_portal')}`,
          customer_portal_update_subscription: `${base}/billing/${id}/update?expires=${expires}&signature=${sign('customer_portal_update_subscription')}`,
        },
        renews_at: lsTime(sim.periodEnd),
        ends_at: sim.endsAt == null ? null : lsTime(sim.endsAt),
        created_at: lsTime(c.startMs),
        updated_at: lsTime(updatedAt),
        test_mode: false,
      },
      relationships,
      links: { self: api },
    };
  }

  private clickbankOrders(
    c: Customer,
    subscriptionId: number,
    name: string,
  ): {
    initialReceipt: string;
    lines: string[];
    summary: unknown;
    txns: CbTxn[];
    trackingCode: string | null;
  } {
    const r = this.rng;
    const sim = c.sim;
    const H = this.horizonMs;
    const country = r.weighted(COUNTRIES.map((k) => [k, k.weight] as const));
    const [state, city] = r.pick(country.regions);
    const postal = postalCode(r, country.code);
    const address = {
      address1: `${r.int(1, 999)} ${r.pick(STREETS)}`,
      city,
      ...(state ? { state } : {}),
      postalCode: postal,
      country: country.code,
    };
    const paymentMethod = r.weighted([
      ['VISA', 55],
      ['MSTR', 28],
      ['AMEX', 7],
      ['DISC', 3],
      ['PYPL', 7],
    ] as const);
    const sku = clickbankSku(c);
    const title = `${c.plan.name} Membership (${c.cadence === 'monthly' ? 'Monthly' : 'Yearly'})`;
    // Receipts: 4 random characters + the customer index in base 36 → unique, 8 characters.
    const initialReceipt = `${r.chars(4, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789')}${c.index.toString(36).toUpperCase().padStart(4, '0')}`;
    const trackingCode = r.chance(0.55) ? r.weighted(TID_WEIGHTS) : null;
    const person = {
      firstName: c.first.toUpperCase(),
      lastName: c.last.toUpperCase(),
      fullName: name,
      email: c.email,
    };
    // Digital product: the shipping block carries no address (as in the provider's test vector).
    const customer = { shipping: { ...person, address: {} }, billing: { ...person, address } };

    const refundAt = sim.refunded ? sim.cancelledAt : null;
    const txns: CbTxn[] = sim.paymentTimes.map((at, index) => ({
      receipt: index === 0 ? initialReceipt : `${initialReceipt}-B${index}`,
      kind: index === 0 ? 'SALE' : 'BILL',
      at,
      refundedAt: null,
      index,
    }));
    const lastTxn = txns[txns.length - 1];
    if (refundAt != null && lastTxn) lastTxn.refundedAt = refundAt;
    const active = sim.status === 'active';
    const nextPayment = active ? sim.periodEnd : null;
    const accountCents = Math.max(
      0,
      Math.round((c.priceCents * 0.925 - 100) * (c.affiliate ? 0.5 : 1)),
    );

    const lines: string[] = [];
    txns.forEach((t, i) => {
      const isLast = i === txns.length - 1;
      const cancelRebill = i === 0 && sim.cancelled && !sim.refunded ? sim.cancelledAt : null;
      const refunded = t.refundedAt != null;
      let kind: string = t.kind;
      let at = t.at;
      if (refunded) {
        kind = 'RFND';
        at = t.refundedAt ?? t.at;
      } else if (cancelRebill != null) {
        kind = 'CANCEL-REBILL';
        at = cancelRebill;
      }
      const sign = kind === 'RFND' ? -1 : kind === 'CANCEL-REBILL' ? 0 : 1;
      const itemStatus =
        sim.status === 'active'
          ? 'ACTIVE'
          : sim.status === 'cancelled' || kind === 'CANCEL-REBILL'
            ? 'CANCELED'
            : 'COMPLETED';
      const raw: Record<string, unknown> = {
        transactionTime: cbTime(at),
        receipt: t.receipt,
        transactionType: kind,
        vendor: CB_VENDOR,
        ...(c.affiliate ? { affiliate: c.affiliate } : {}),
        role: 'VENDOR',
        totalAccountAmount: money(sign * accountCents),
        paymentMethod,
        totalOrderAmount: money(sign * c.priceCents),
        totalTaxAmount: 0,
        totalShippingAmount: 0,
        currency: c.currency,
        orderLanguage: 'EN',
        trackingCodes: trackingCode ? [trackingCode] : [],
        lineItems: [
          {
            itemNo: sku,
            productTitle: title,
            shippable: false,
            recurring: true,
            accountAmount: money(sign * accountCents),
            quantity: 1,
            lineItemType: 'ORIGINAL',
            rebillAmount: money(c.priceCents),
            processedPayments: t.index + 1,
            futurePayments: active ? 999 : 0,
            ...(isLast && nextPayment != null ? { nextPaymentDate: cbTime(nextPayment) } : {}),
            status: itemStatus,
            customerProductAmount: money(sign * c.priceCents),
            ...(kind === 'RFND' ? { customerRefundAmount: money(c.priceCents) } : {}),
          },
        ],
        customer,
        upsell: null,
        hopfeed: null,
        version: 6.0,
        attemptCount: 1,
      };
      const refundableState = refunded
        ? 'REFUNDED'
        : H - t.at < 60 * DAY_MS
          ? 'REFUNDABLE'
          : 'NON_REFUNDABLE';
      this.orderId++;
      lines.push(
        copyLine([
          this.orderId,
          subscriptionId,
          c.email,
          t.receipt,
          sku,
          kind,
          title,
          CB_VENDOR,
          c.affiliate,
          country.code,
          state || null,
          postal,
          person.firstName,
          person.lastName,
          name,
          refundableState,
          c.currency,
          c.priceCents,
          c.priceCents,
          accountCents,
          isLast && nextPayment != null ? iso(nextPayment) : null,
          iso(t.at),
          cbJsonText(raw),
        ]),
      );
    });
    const latest = lastTxn ?? { receipt: initialReceipt, at: c.startMs, kind: 'SALE' };
    const summary = {
      receipt: latest.receipt,
      original_receipt: initialReceipt,
      transaction_type: sim.refunded ? 'RFND' : latest.kind,
      transaction_time: cbTime(latest.at),
      sku,
      title,
      vendor: CB_VENDOR,
      affiliate: c.affiliate,
      currency: c.currency,
      amount_cents: c.priceCents,
      payments: txns.length,
      next_payment_at: nextPayment == null ? null : iso(nextPayment),
    };
    return { initialReceipt, lines, summary, txns, trackingCode };
  }

  /** About `count` log rows over the 30 days before the seeding moment, oldest first. */
  logs(count: number): { text: string; rows: number } {
    const r = this.rng;
    const rows: Array<{
      ts: number;
      level: string;
      msg: string;
      context: Record<string, unknown>;
    }> = [];
    const byLevel = new Map<string, Array<(typeof LOG_TEMPLATES)[number]>>();
    for (const t of LOG_TEMPLATES) byLevel.set(t[0], [...(byLevel.get(t[0]) ?? []), t]);
    const email = () =>
      this.emails.length > 0 ? r.pick(this.emails) : `user${r.int(1, 999)}@example.com`;
    for (let i = 0; i < count; i++) {
      const level = r.weighted(LOG_LEVEL_WEIGHTS);
      const [, msg, kind] = r.pick(byLevel.get(level) ?? LOG_TEMPLATES);
      const ts = this.horizonMs - 1000 - Math.floor(r.next() * 30 * DAY_MS);
      rows.push({ ts, level, msg, context: logContext(r, kind, email) });
    }
    rows.sort((a, b) => a.ts - b.ts);
    const text = rows
      .map((row) => copyLine([iso(row.ts), row.level, row.msg, jsonText(row.context)]))
      .join('');
    return { text, rows: rows.length };
  }
}

function logContext(r: Rng, kind: string, email: () => string): Record<string, unknown> {
  switch (kind) {
    case 'ls':
      return {
        provider: 'lemonsqueezy',
        event_name: r.pick([
          'subscription_created',
          'subscription_updated',
          'subscription_payment_success',
          'subscription_cancelled',
        ]),
        subscription_id: String(LS_SUBSCRIPTION_BASE + r.int(0, 99_999)),
        email: email(),
      };
    case 'cb':
      return {
        provider: 'clickbank',
        transactionType: r.pick(['SALE', 'BILL', 'RFND', 'CANCEL-REBILL']),
        receipt: r.chars(8, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'),
        email: email(),
      };
    case 'member':
      return { email: email(), group_id: 42, ms: r.int(80, 900) };
    case 'admin':
      return { email: 'admin@example.com', ip: `203.0.113.${r.int(1, 254)}` };
    case 'admin_failed':
      return {
        email: 'admin@example.com',
        code: r.pick(['INCORRECT_PASSWORD', 'INCORRECT_USER']),
        ip: `198.51.100.${r.int(1, 254)}`,
      };
    case 'job':
      return { job: 'expire-cancelled-access', processed: r.int(0, 40), ms: r.int(20, 3000) };
    case 'request':
      return {
        method: r.pick(['GET', 'POST']),
        path: r.pick(['/api/admin/users', '/api/admin/subscriptions', '/api/admin/stats']),
        bytes: r.int(0, 4000),
      };
    case 'discourse':
      return {
        email: email(),
        status: r.pick([422, 429, 500, 502]),
        errors: ['Group membership change failed'],
        wait_seconds: r.int(1, 30),
      };
    case 'provider':
      return {
        provider: r.pick(['lemonsqueezy', 'clickbank']),
        status: r.pick([500, 502, 503, 504]),
        attempt: r.int(1, 3),
      };
    default:
      return { component: 'db', error: 'connection terminated unexpectedly' };
  }
}

function postalCode(r: Rng, country: string): string {
  switch (country) {
    case 'US':
      return String(r.int(10000, 99999));
    case 'CA':
      return `${r.chars(1, 'ABCEGHJKLMNPRSTVXY')}${r.int(0, 9)}${r.chars(1, 'ABCEGHJKLMNPRSTVWXYZ')} ${r.int(0, 9)}${r.chars(1, 'ABCEGHJKLMNPRSTVWXYZ')}${r.int(0, 9)}`;
    case 'GB':
      return `${r.chars(2, 'ABCDEFGHKLMNPRSTW')}${r.int(1, 20)} ${r.int(1, 9)}${r.chars(2, 'ABDEFGHJLNPQRSTUWXYZ')}`;
    case 'AU':
      return String(r.int(2000, 7999));
    case 'DE':
      return String(r.int(10000, 99999));
    default:
      return `${r.chars(1, 'ACDEFHKNPRTVWXY')}${r.int(10, 99)} ${r.chars(4, 'ACDEFHKNPRTVWXY0123456789')}`;
  }
}

/** JSON text of a value (for JSONB columns). */
function jsonText(value: unknown): string {
  return JSON.stringify(value);
}

/** ClickBank JSON text, keeping the notification's `"version":6.0` spelling as the provider sends it. */
function cbJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"version":6,/, '"version":6.0,');
}
