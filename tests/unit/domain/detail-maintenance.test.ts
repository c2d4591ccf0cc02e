import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MIXED_CURRENCY_LABEL,
  addressRegion,
  displayName,
  marketplaceLocation,
  pageAmountTotal,
  safeExternalLinks,
  splitOrders,
} from '../../../src/domain/detail';
import {
  MAINTENANCE_DETAIL_LIMIT,
  SAMPLE_EMAILS_LIMIT,
  maintenanceErrorMessage,
  normaliseMaintenanceResult,
  pingFailureLine,
  summarisePing,
} from '../../../src/domain/maintenance';
import { MESSAGES } from '../../../src/domain/messages';
import type { MarketplaceOrder } from '../../../src/domain/types';

const order = (partial: Partial<MarketplaceOrder>): MarketplaceOrder => ({
  receipt: null,
  sku: null,
  status: null,
  title: null,
  site: null,
  affiliate: null,
  country: null,
  state: null,
  postalCode: null,
  firstName: null,
  lastName: null,
  customerDisplayName: null,
  customerRefundableState: null,
  currency: null,
  amountCents: null,
  rebillAmountCents: null,
  accountAmountCents: null,
  nextPaymentAt: null,
  createdAtProvider: null,
  rawJson: null,
  ...partial,
});

describe('displayName (§2)', () => {
  const cbOrder = order({
    customerDisplayName: 'Grace H.',
    firstName: 'Grace',
    lastName: 'Hopper',
  });
  it('the detail name first', () => {
    expect(displayName({ name: 'Ada Lovelace', provider: 'clickbank' }, cbOrder)).toBe(
      'Ada Lovelace',
    );
  });
  it('for the marketplace, then the display name', () => {
    expect(displayName({ name: '  ', provider: 'clickbank' }, cbOrder)).toBe('Grace H.');
  });
  it('then first plus last name', () => {
    expect(
      displayName(
        { name: null, provider: 'clickbank' },
        order({ firstName: 'Grace', lastName: 'Hopper' }),
      ),
    ).toBe('Grace Hopper');
    expect(displayName({ name: null, provider: 'lemonsqueezy' }, cbOrder)).toBe('Grace Hopper');
    expect(displayName({ name: null, provider: 'clickbank' }, order({ lastName: 'Hopper' }))).toBe(
      'Hopper',
    );
  });
  it('null when nothing is known', () => {
    expect(displayName({ name: null, provider: 'clickbank' })).toBeNull();
    expect(displayName({ name: null, provider: 'clickbank' }, order({}))).toBeNull();
  });
});

describe('locations', () => {
  it('marketplace location is state, country, postal code, skipping blanks', () => {
    expect(marketplaceLocation(order({ state: 'CA', country: 'US', postalCode: '94103' }))).toBe(
      'CA, US, 94103',
    );
    expect(marketplaceLocation(order({ state: ' ', country: 'US', postalCode: '94103' }))).toBe(
      'US, 94103',
    );
    expect(marketplaceLocation(order({}))).toBeNull();
    expect(marketplaceLocation(null)).toBeNull();
  });

  it('address/region prefers the address, else city, region, country', () => {
    const base = { city: 'Austin', region: 'Texas', country: 'US' };
    expect(
      addressRegion({
        ...base,
        address: { city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' },
      }),
    ).toBe('Austin, TX, 78701, US');
    expect(addressRegion({ ...base, address: null })).toBe('Austin, Texas, US');
    expect(addressRegion({ city: null, region: null, country: null, address: null })).toBeNull();
  });
});

describe('safeExternalLinks (§2 Useful Links)', () => {
  it('keeps only absolute http(s) links, in order', () => {
    expect(
      safeExternalLinks({
        customer_portal: 'https://my-store.lemonsqueezy.com/billing?x=1',
        evil: 'javascript:alert(1)',
        data: 'data:text/html,hi',
        relative: '/billing',
        plain: 'http://example.com/a',
        broken: 'https://',
        number: 42,
      }),
    ).toEqual([
      { name: 'customer_portal', href: 'https://my-store.lemonsqueezy.com/billing?x=1' },
      { name: 'plain', href: 'http://example.com/a' },
    ]);
    expect(safeExternalLinks(null)).toEqual([]);
  });

  it('property: every href is http or https', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.webUrl(), fc.anything())),
        (urls) => {
          for (const link of safeExternalLinks(urls))
            expect(new URL(link.href).protocol).toMatch(/^https?:$/);
        },
      ),
    );
  });
});

describe('pageAmountTotal (§2 footer)', () => {
  it('one currency → its sum; missing amounts skipped; missing currency is USD', () => {
    expect(
      pageAmountTotal([
        { amountCents: 999, currency: 'USD' },
        { amountCents: null, currency: 'EUR' },
        { amountCents: 1, currency: null },
        { amountCents: 100, currency: 'usd' },
      ]),
    ).toEqual({ kind: 'single', amountCents: 1100, currency: 'USD' });
  });
  it("more than one currency → mixed, shown as '— Mixed —'", () => {
    expect(
      pageAmountTotal([
        { amountCents: 1, currency: 'USD' },
        { amountCents: 1, currency: 'EUR' },
      ]),
    ).toEqual({ kind: 'mixed' });
    expect(MIXED_CURRENCY_LABEL).toBe('— Mixed —');
  });
  it('no amounts → none', () => {
    expect(pageAmountTotal([])).toEqual({ kind: 'none' });
    expect(pageAmountTotal([{ amountCents: null, currency: 'USD' }])).toEqual({ kind: 'none' });
  });
});

describe('splitOrders', () => {
  it('latest and previous', () => {
    const a = order({ receipt: 'A' });
    const b = order({ receipt: 'B' });
    expect(splitOrders([a, b])).toEqual({ latest: a, previous: [b] });
    expect(splitOrders([])).toEqual({ latest: null, previous: [] });
  });
});

describe('maintenance (§2, §3, §8)', () => {
  it('limits are 50 detail rows and 5 example emails', () => {
    expect(MAINTENANCE_DETAIL_LIMIT).toBe(50);
    expect(SAMPLE_EMAILS_LIMIT).toBe(5);
  });

  it('normalises the result spellings', () => {
    expect(
      normaliseMaintenanceResult({
        dry_run: true,
        preview: { affected: 3, users: ['a@x.io', { email: 'b@x.io', id: 2 }] },
      }),
    ).toMatchObject({
      dryRun: true,
      affectedCount: 3,
      details: [{ email: 'a@x.io' }, { email: 'b@x.io', id: 2 }],
      sampleEmails: ['a@x.io', 'b@x.io'],
    });
    expect(
      normaliseMaintenanceResult({
        dryRun: false,
        processed: '4',
        affected: [{ email: 'c@x.io' }],
        sample_emails: ['z@x.io'],
        meta: { took_ms: 3 },
      }),
    ).toMatchObject({
      dryRun: false,
      processed: 4,
      affectedCount: 1,
      sampleEmails: ['z@x.io'],
      meta: { took_ms: 3 },
    });
    expect(normaliseMaintenanceResult('nope')).toMatchObject({
      dryRun: null,
      processed: null,
      affectedCount: null,
      details: [],
    });
  });

  it('never throws', () => {
    fc.assert(fc.property(fc.anything(), (raw) => void normaliseMaintenanceResult(raw)));
  });

  it('summarises pings on one line', () => {
    expect(
      summarisePing({ ok: true, status: 200, version: '3.2', message: 'pong', extra: 1 }),
    ).toBe('ok: true · status: 200 · version: 3.2 · message: pong');
    expect(summarisePing({ error: { code: 'E' } })).toBe('error: {"code":"E"}');
    expect(summarisePing({})).toBe('(empty response)');
  });

  it("failures: the message, or 'HTTP {status}', or 'Network error'", () => {
    expect(maintenanceErrorMessage({ status: 500, message: 'Boom' })).toBe('Boom');
    expect(maintenanceErrorMessage({ status: 502, message: '' })).toBe('HTTP 502');
    expect(maintenanceErrorMessage({ status: 0, message: '' })).toBe('Network error');
    expect(maintenanceErrorMessage(undefined)).toBe('Network error');
    expect(pingFailureLine({ status: 502, message: '' })).toBe('ping failed: HTTP 502');
  });

  // §8 "the message, or 'HTTP {status}'": an ApiError of a non-OK answer carries the status text
  // or 'Request failed' as its message; that is not the answer's message, so neither may show.
  it("HTTP failures whose answer carries no message show 'HTTP {status}'", () => {
    const apiError = (status: number, message: string, payload: unknown) =>
      Object.assign(new Error(message), { status, payload });
    expect(maintenanceErrorMessage(apiError(502, 'Bad Gateway', null))).toBe('HTTP 502');
    expect(maintenanceErrorMessage(apiError(500, 'Request failed', null))).toBe('HTTP 500');
    expect(maintenanceErrorMessage(apiError(503, 'Service Unavailable', '<h1>down</h1>'))).toBe(
      'HTTP 503',
    );
    expect(maintenanceErrorMessage(apiError(500, 'Internal Server Error', { ok: false }))).toBe(
      'HTTP 500',
    );
    expect(pingFailureLine(apiError(502, 'Bad Gateway', null))).toBe('ping failed: HTTP 502');
    // The answer's own message (or error) still wins, and so do the §8 fixed texts.
    expect(maintenanceErrorMessage(apiError(500, 'Boom', { message: 'Boom' }))).toBe('Boom');
    expect(maintenanceErrorMessage(apiError(500, 'db down', { error: 'db down' }))).toBe('db down');
    expect(
      maintenanceErrorMessage(apiError(404, MESSAGES.candidatesNotFound, { message: 'Not found' })),
    ).toBe(MESSAGES.candidatesNotFound);
    expect(maintenanceErrorMessage(apiError(0, 'Request timed out', null))).toBe(
      'Request timed out',
    );
    expect(maintenanceErrorMessage(apiError(0, '', null))).toBe('Network error');
  });
});
