import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { eventsStreamUrl, parseLiveEvent } from '../../../src/api/events';
import {
  fetchIsrAffiliates,
  fetchIsrDaily,
  fetchIsrEvents,
  fetchIsrSummary,
  isrSummaryErrorMessage,
} from '../../../src/api/isr';
import { fetchLogs } from '../../../src/api/logs';
import { defaultListQuery } from '../../../src/domain/list';
import { LOGS_LIST } from '../../../src/domain/logs';
import { DEFAULT_ISR_EVENTS_QUERY } from '../../../src/domain/isr';
import {
  enforceNow,
  fetchDiag,
  pingClickbank,
  pingDiscourse,
  pingLemonSqueezy,
  previewExpiration,
  runExpiration,
} from '../../../src/api/maintenance';
import { fetchMetricsOverview, metricsErrorMessage } from '../../../src/api/metrics';
import { pingFailureLine, summarisePing } from '../../../src/domain/maintenance';
import { api } from '../../msw/handlers';
import { TEST_PREFIX, recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);
const notFound = () =>
  HttpResponse.json({ error: 'not_found', message: 'Not found' }, { status: 404 });

describe('maintenance (§2, §7 candidate paths)', () => {
  it('previews the expiration with GET dryRun=true on the first candidate that exists', async () => {
    server.use(
      http.get(api('/maintenance/run-expiration'), notFound),
      http.get(api('/run-expiration'), () =>
        HttpResponse.json({
          dryRun: true,
          affected_count: 2,
          details: [{ email: 'a@x.io' }, { email: 'b@x.io' }],
        }),
      ),
    );
    const result = await previewExpiration();
    expect(seen.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`)).toEqual([
      'GET /api/admin/maintenance/run-expiration?dryRun=true',
      'GET /api/admin/run-expiration?dryRun=true',
    ]);
    expect(result).toMatchObject({
      dryRun: true,
      affectedCount: 2,
      sampleEmails: ['a@x.io', 'b@x.io'],
    });
  });

  it('applies the expiration with POST {dryRun:false}', async () => {
    server.use(
      http.post(api('/maintenance/run-expiration'), () =>
        HttpResponse.json({ dry_run: false, processed: 3 }),
      ),
    );
    expect(await runExpiration()).toMatchObject({ dryRun: false, processed: 3 });
    expect(JSON.parse(await seen[0]!.body)).toEqual({ dryRun: false });
  });

  it('forum ping: every candidate 404 → 404 with the §8 text', async () => {
    server.use(http.get(api('/*'), notFound));
    const error = await pingDiscourse().catch((e: unknown) => e);
    expect(seen.map((r) => r.url.pathname)).toEqual([
      '/api/admin/maintenance/ping-discourse',
      '/api/admin/maintenance/ping',
      '/api/admin/ping-discourse',
      '/api/admin/ping',
    ]);
    expect(error).toMatchObject({
      status: 404,
      message:
        'Not Found – none of the candidate paths responded. Please confirm the backend route.',
    });
    expect(pingFailureLine(error)).toBe(
      'ping failed: Not Found – none of the candidate paths responded. Please confirm the backend route.',
    );
  });

  it('marketplace ping passes which= and summarises the answer', async () => {
    server.use(
      http.get(api('/maintenance/ping-clickbank'), notFound),
      http.get(api('/ping-clickbank'), () =>
        HttpResponse.json({ ok: true, status: 200, version: '1.3' }),
      ),
    );
    const summary = await pingClickbank('developer');
    expect(seen[1]!.url.searchParams.get('which')).toBe('developer');
    expect(summarisePing(summary)).toBe('ok: true · status: 200 · version: 1.3');
    await pingClickbank();
    expect(seen[2]!.url.searchParams.has('which')).toBe(false);
  });

  it('billing store ping, diagnostics and enforce-now use their fixed paths', async () => {
    server.use(
      http.get(api('/maintenance/ping-lemonsqueezy'), () =>
        HttpResponse.json({ success: false, error: 'Unauthorized' }),
      ),
      http.get(api('/maintenance/diag'), () => HttpResponse.json({ db: 'ok', node: '20' })),
      http.post(api('/maintenance/enforce-now'), () => HttpResponse.json({ ok: true })),
    );
    expect(summarisePing(await pingLemonSqueezy())).toBe('success: false · error: Unauthorized');
    expect(await fetchDiag()).toEqual({ db: 'ok', node: '20' });
    await enforceNow('a@x.io');
    expect(JSON.parse(await seen[2]!.body)).toEqual({ email: 'a@x.io' });
  });
});

describe('logs, metrics, ISR (permissive shapes)', () => {
  it('logs: sends page/pageSize, drops blank level and q, reads rows', async () => {
    server.use(
      http.get(api('/logs'), () =>
        HttpResponse.json({
          rows: [
            { ts: '2026-11-20T11:59:01Z', level: 'warn', msg: 'slow query', context: { ms: 812 } },
          ],
          total: 1,
          totalPages: 1,
        }),
      ),
    );
    const page = await fetchLogs(defaultListQuery(LOGS_LIST));
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({ page: '1', pageSize: '50' });
    expect(page).toEqual({
      rows: [
        {
          id: '#0',
          ts: '2026-11-20T11:59:01Z',
          level: 'warn',
          msg: 'slow query',
          context: { ms: 812 },
        },
      ],
      total: 1,
      totalPages: 1,
      isTotalCapped: false,
    });
  });

  it('metrics overview: query parameters, totals, accepted amount series and pies', async () => {
    server.use(
      http.get(api('/metrics/overview'), () =>
        HttpResponse.json({
          range: { from: '2026-10-24', to: '2026-11-20' },
          totals: { totalActive: 812, churnRate: '0.0734', estimatedRevenueCents: 1234500 },
          series: {
            lineDaily: [{ date: '2026-11-20', new: 3, renewals: 11, cancellations: 1 }],
            dailyByProvider: [{ date: '2026-11-20', lemonsqueezy: 2, clickbank: 1 }],
            amountByProviderDaily: [{ date: '2026-11-20', lemonsqueezy: 1998 }],
          },
          pies: {
            activeByProvider: [{ provider: 'clickbank', cnt: '300' }],
            activeByPlan: [{ plan: 'monthly', cnt: 640 }],
          },
        }),
      ),
    );
    const m = await fetchMetricsOverview({
      from: '2026-10-24',
      to: '2026-11-20',
      provider: '',
      status: 'active',
      type: '',
      plan: ' ',
      source: '',
    });
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      from: '2026-10-24',
      to: '2026-11-20',
      status: 'active',
    });
    expect(m.totals).toEqual({
      totalActive: 812,
      totalNewInRange: null,
      totalRenewalsInRange: null,
      totalCancellationsInRange: null,
      churnRate: 0.0734,
      estimatedRevenueCents: 1234500,
    });
    expect(m.byProviderDaily).toHaveLength(1);
    expect(m.amountSeries?.name).toBe('amountByProviderDaily');
    expect(m.amountSeries?.sentInCents).toBe(false);
    expect(m.amountSeries?.rows[0]).toEqual({
      date: '2026-11-20',
      values: { lemonsqueezy: 199800 },
      total: 199800,
    });
    expect(m.pies.activeByProvider).toEqual([{ name: 'clickbank', cnt: 300 }]);
  });

  it('metrics and ISR failure texts', () => {
    expect(metricsErrorMessage(new Error(''))).toBe('Failed to load metrics');
    expect(metricsErrorMessage(new Error('Bad range'))).toBe('Bad range');
    expect(isrSummaryErrorMessage(null)).toBe('Failed to load ISR summary');
  });

  it('ISR summary ({data}), daily, affiliates (limit 12) and events (§7 notes)', async () => {
    server.use(
      http.get(api('/isr-metrics/summary'), () =>
        HttpResponse.json({
          data: { total_amount_cents: 9400, total_events: 2, clickbank_amount_cents: 4700 },
        }),
      ),
      http.get(api('/isr-metrics/daily'), () =>
        HttpResponse.json({
          rows: [{ day: '2026-11-20', source: 'clickbank', events: 2, amount_cents: 9400 }],
        }),
      ),
      http.get(api('/isr-metrics/affiliates'), () =>
        HttpResponse.json({ rows: [{ affiliate: 'topaff', amount_cents: '9400', events: 2 }] }),
      ),
      http.get(api('/isr-events'), () =>
        HttpResponse.json({
          rows: [{ id: 7, created_at: '2026-11-20T10:00:00Z', amount_cents: 4700, receipt: 'R1' }],
          total: 1,
        }),
      ),
    );
    const range = { from: '2026-11-07 00:00:00', to: '2026-11-20 23:59:59' };
    expect(await fetchIsrSummary(range)).toEqual({
      totalAmountCents: 9400,
      totalEvents: 2,
      clickbankAmountCents: 4700,
      clickbankEvents: null,
      lemonsqueezyAmountCents: null,
      lemonsqueezyEvents: null,
    });
    expect(await fetchIsrDaily(range)).toEqual([
      { day: '2026-11-20', source: 'clickbank', events: 2, amountCents: 9400 },
    ]);
    expect(await fetchIsrAffiliates(range)).toEqual([
      { affiliate: 'topaff', amountCents: 9400, events: 2 },
    ]);
    const events = await fetchIsrEvents({ ...DEFAULT_ISR_EVENTS_QUERY, orderId: ' 55 ' });
    expect(events.total).toBe(1);
    expect(events.isTotalCapped).toBe(false);
    expect(events.rows[0]).toMatchObject({
      id: '7',
      receipt: 'R1',
      amountCents: 4700,
      affiliate: null,
    });
    expect(Object.fromEntries(seen[2]!.url.searchParams)).toEqual({ ...range, limit: '12' });
    expect(Object.fromEntries(seen[3]!.url.searchParams)).toEqual({
      source: 'clickbank',
      order_id: '55',
      page: '1',
      pageSize: '50',
    });
  });

  it('ISR events: a search total the server capped (totalCapped) reads as capped', async () => {
    server.use(
      http.get(api('/isr-events'), () =>
        HttpResponse.json({ rows: [{ id: 1, receipt: 'R1' }], total: 1000, totalCapped: true }),
      ),
    );
    const page = await fetchIsrEvents({ ...DEFAULT_ISR_EVENTS_QUERY, q: 'example' });
    expect(page).toMatchObject({ total: 1000, isTotalCapped: true });
  });
});

describe('live events (§4, CONTRACT.md)', () => {
  it('builds the stream URL under the prefix', () => {
    expect(eventsStreamUrl()).toBe(`${TEST_PREFIX}/events/stream`);
  });

  it('parses messages with a type and drops bad payloads', () => {
    expect(parseLiveEvent('{"type":"subscription.new","email":"a@x.io"}')).toEqual({
      id: null,
      type: 'subscription.new',
      email: 'a@x.io',
      provider: null,
      amountCents: null,
      currency: null,
      at: null,
    });
    for (const bad of ['not json', '[]', '{"type":3}', '{}', 'null'])
      expect(parseLiveEvent(bad)).toBeNull();
  });
});
