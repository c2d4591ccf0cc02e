import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  fetchWebhookDeliveries,
  fetchWebhookDelivery,
  replayWebhookDelivery,
} from '../../../src/api/webhooks';
import { defaultListQuery } from '../../../src/domain/list';
import { WEBHOOKS_LIST, replaySummary } from '../../../src/domain/webhooks';
import { WEBHOOK_ROWS, toDelivery, webhookDetailWire } from '../../msw/fixtures-webhooks';
import { api } from '../../msw/handlers';
import { recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

describe('webhook inbox API', () => {
  it('sends the filters (blanks dropped, the range as UTC date-times) and normalises the rows', async () => {
    server.use(
      http.get(api('/webhook-deliveries'), () =>
        HttpResponse.json({
          rows: WEBHOOK_ROWS.slice(0, 2),
          total: 1000,
          page: 1,
          pageSize: 50,
          totalPages: 20,
          totalCapped: true,
        }),
      ),
    );
    const query = defaultListQuery(WEBHOOKS_LIST);
    const page = await fetchWebhookDeliveries({
      ...query,
      filters: {
        ...query.filters,
        outcome: 'failed',
        email: ' Ada@Example.com ',
        from: '2026-11-20T10:00',
      },
    });
    expect(Object.fromEntries(seen[0]!.url.searchParams)).toEqual({
      page: '1',
      pageSize: '50',
      outcome: 'failed',
      email: 'Ada@Example.com',
      from: '2026-11-20 10:00:00',
    });
    expect(page).toEqual({
      rows: WEBHOOK_ROWS.slice(0, 2).map(toDelivery),
      total: 1000,
      totalPages: 20,
      isTotalCapped: true,
    });
  });

  it('reads one delivery with its headers and payload, and an unknown outcome as failed', async () => {
    const wire = webhookDetailWire(WEBHOOK_ROWS[2]!);
    server.use(
      http.get(api('/webhook-deliveries/110'), () =>
        HttpResponse.json({ ...wire, outcome: 'mystery', headers: { a: 'b', n: 5 } }),
      ),
    );
    const detail = await fetchWebhookDelivery('110');
    expect(detail).toMatchObject({
      id: '110',
      provider: 'clickbank',
      outcome: 'failed',
      headers: { a: 'b' },
      body: { receipt: 'ABCD1234', transactionType: 'SALE' },
    });
  });

  it('replays with POST and says what the replay did', async () => {
    server.use(
      http.post(api('/webhook-deliveries/105/replay'), () =>
        HttpResponse.json({ outcome: 'duplicate', effects: [], error: null }),
      ),
    );
    const result = await replayWebhookDelivery('105');
    expect(seen[0]!.method).toBe('POST');
    expect(result).toEqual({ outcome: 'duplicate', effects: [], error: null });
    expect(replaySummary(result)).toBe('Already applied: nothing changed.');
    expect(replaySummary({ outcome: 'applied', effects: ['access.grant'], error: null })).toBe(
      'Applied: access.grant.',
    );
    expect(
      replaySummary({ outcome: 'invalid', effects: [], error: 'user_email is required' }),
    ).toBe('Invalid: user_email is required.');
  });
});
