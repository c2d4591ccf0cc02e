/**
 * Integrated sales tracking (ISR) rows of the demo seed: one isr_events row per payment the
 * simulation made (the initial sale, every rebill) and one per refund (negative amount), for both
 * providers, so the ISR figures agree with the seeded ClickBank orders and LemonSqueezy
 * subscriptions.
 *
 * Attribution is decided once per customer at the sale — affiliate and TID (ClickBank, drawn on a
 * long tail by the generator), campaign and referrer — and rebills and refunds inherit the
 * campaign, affiliate and TID (ClickBank credits rebills to the original affiliate); only the sale
 * carries a browser referrer. Draws come from their own PRNG stream, so adding ISR rows leaves the
 * rest of the seeded data unchanged.
 */
import { copyLine } from './copy';
import { createRng, type Rng } from './prng';
import { CB_CAMPAIGNS, LS_CAMPAIGNS, LS_REFERRERS } from './vocabulary';

/** Column list matching the field order of the isr_events COPY data. */
export const ISR_COPY_COLUMNS =
  'id, source, kind, order_id, receipt, product_id, amount_cents, currency, affiliate, subid, campaign, customer_email, referrer, created_at, raw';

/** One money movement of a customer: a sale, a rebill or a refund (amountCents > 0; refunds are negated on output). */
export interface IsrPayment {
  kind: 'sale' | 'rebill' | 'refund';
  /** Epoch ms (UTC). */
  at: number;
  /** Positive amount in cents of `currency`. */
  amountCents: number;
  receipt: string;
  orderId: string;
}

/** What the ISR rows of one customer are made from. */
export interface IsrCustomer {
  provider: 'lemonsqueezy' | 'clickbank';
  email: string;
  /** LemonSqueezy traffic source (LS_SOURCES); ignored for ClickBank. */
  trafficSource: string;
  /** ClickBank affiliate nickname, or null. */
  affiliate: string | null;
  /** ClickBank TID, or null. */
  subid: string | null;
  productId: string;
  currency: string;
  payments: IsrPayment[];
}

const DAY_MS = 86_400_000;

/** True when `ms` falls in the Black Friday / Cyber Monday window (20 Nov – 2 Dec, UTC). */
function inBlackFriday(ms: number): boolean {
  const d = new Date(ms);
  const m = d.getUTCMonth();
  const day = d.getUTCDate();
  return (m === 10 && day >= 20) || (m === 11 && day <= 2);
}

/** Generates isr_events COPY lines, ids from 1 upwards across calls. */
export class IsrWriter {
  private readonly rng: Rng;
  private id = 0;

  constructor(seed: number) {
    // A stream of its own (see the module doc).
    this.rng = createRng((seed ^ 0x5f3759df) >>> 0);
  }

  /** Rows written so far. */
  get count(): number {
    return this.id;
  }

  /** COPY lines of one customer's payments, in the order given. */
  lines(c: IsrCustomer): string[] {
    const first = c.payments[0];
    if (!first) return [];
    const r = this.rng;
    const saleAt = first.at;
    const blackFriday = inBlackFriday(saleAt) && r.chance(0.6);
    let campaign: string | null;
    let referrer: string | null;
    let utmSource: string;
    let utmMedium: string;
    if (c.provider === 'clickbank') {
      const year = new Date(saleAt).getUTCFullYear();
      campaign = blackFriday ? `black-friday-${year}` : r.weighted(CB_CAMPAIGNS);
      referrer = c.affiliate
        ? `https://${c.affiliate}.example.net/${r.pick(['review', 'blog/best-membership-sites', 'go', 'bonus', 'compare'])}`
        : r.chance(0.5)
          ? 'https://www.clickbank.com/marketplace/'
          : null;
      utmSource = c.affiliate ?? 'clickbank';
      utmMedium = 'affiliate';
    } else {
      const choices = LS_CAMPAIGNS[c.trafficSource] ?? [['(none)', 1] as const];
      const picked = r.weighted(choices);
      const year = new Date(saleAt).getUTCFullYear();
      campaign =
        blackFriday && c.trafficSource !== 'direct'
          ? `black-friday-${year}`
          : picked === '(none)'
            ? null
            : picked;
      const base = r.pick(LS_REFERRERS[c.trafficSource] ?? ['']);
      referrer =
        base === ''
          ? null
          : base.endsWith('/episodes/') || base.endsWith('/issue/')
            ? `${base}${r.int(12, 240)}`
            : base;
      utmSource = c.trafficSource;
      utmMedium =
        c.trafficSource === 'newsletter'
          ? 'email'
          : c.trafficSource === 'google'
            ? 'cpc'
            : c.trafficSource === 'direct'
              ? 'none'
              : 'social';
    }
    const landing = `https://mgclub.example.com/${c.provider === 'clickbank' ? 'join' : r.pick(['join', 'pricing', 'members'])}`;

    const out: string[] = [];
    for (const p of c.payments) {
      this.id++;
      const amount = p.kind === 'refund' ? -p.amountCents : p.amountCents;
      const isSale = p.kind === 'sale';
      const raw: Record<string, unknown> = {
        event: p.kind,
        source: c.provider,
        order_id: p.orderId,
        receipt: p.receipt,
        product_id: c.productId,
        amount: amount / 100,
        currency: c.currency,
        email: c.email,
        ...(c.affiliate ? { affiliate: c.affiliate } : {}),
        ...(c.subid ? { tid: c.subid } : {}),
        ...(campaign ? { campaign } : {}),
        ...(isSale
          ? {
              utm: { source: utmSource, medium: utmMedium, ...(campaign ? { campaign } : {}) },
              landing_page: landing,
            }
          : {}),
        ...(isSale && referrer ? { referrer } : {}),
        tracked_at: new Date(p.at).toISOString(),
        ...(p.kind === 'refund'
          ? { days_after_payment: Math.round((p.at - saleAt) / DAY_MS) }
          : {}),
      };
      out.push(
        copyLine([
          this.id,
          c.provider,
          p.kind,
          p.orderId,
          p.receipt,
          c.productId,
          amount,
          c.currency,
          c.affiliate,
          c.subid,
          campaign,
          c.email,
          isSale ? referrer : null,
          new Date(p.at).toISOString(),
          JSON.stringify(raw),
        ]),
      );
    }
    return out;
  }
}
