/**
 * Live stream messages (CONTRACT.md "Live events", §8): the zod/mini schema normalises the
 * contract's message, tolerates missing or wrong-kind fields, drops malformed messages and ignores
 * unknown types; and each live resource maps to its query-key prefix.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { liveResourceQueryKey, parseLiveEvent, readLiveMessage } from '../../../src/api/events';
import { queryKeys } from '../../../src/api/queryKeys';
import { LIVE_EVENT_TYPES } from '../../../src/domain/live';

const message = (body: unknown) => JSON.stringify(body);

describe('readLiveMessage', () => {
  it("normalises the contract's message", () => {
    expect(
      readLiveMessage(
        message({
          id: '42',
          type: 'subscription.new',
          email: 'ada@example.com',
          provider: 'lemonsqueezy',
          amount_cents: 4700,
          currency: 'usd',
          at: '2026-11-20T11:59:00Z',
        }),
      ),
    ).toEqual({
      kind: 'event',
      event: {
        id: '42',
        type: 'subscription.new',
        email: 'ada@example.com',
        provider: 'lemonsqueezy',
        amountCents: 4700,
        currency: 'USD',
        at: '2026-11-20T11:59:00.000Z',
      },
    });
  });

  it("reads the contract's UTC times, with or without a T, as ISO UTC", () => {
    const at = (value: unknown) => parseLiveEvent(message({ type: 'isr.event', at: value }))?.at;
    expect(at('2026-11-20 11:59')).toBe('2026-11-20T11:59:00.000Z');
    expect(at('2026-11-20T12:59:00+01:00')).toBe('2026-11-20T11:59:00.000Z');
    expect(at('2026-02-30 10:00')).toBeNull();
    expect(at(1_700_000_000)).toBeNull();
  });

  it("prefers the stream's id: line over the JSON id; numbers become text", () => {
    expect(parseLiveEvent(message({ id: 1, type: 'isr.event' }), '99')?.id).toBe('99');
    expect(parseLiveEvent(message({ id: 1, type: 'isr.event' }), '')?.id).toBe('1');
    expect(parseLiveEvent(message({ type: 'isr.event' }))?.id).toBeNull();
  });

  it('reads wrong-kind or missing fields as null and keeps the event', () => {
    expect(
      parseLiveEvent(
        message({
          type: ' access.granted ',
          email: 42,
          provider: '  ',
          amount_cents: 'lots',
          currency: 'dollars',
          at: 'yesterday',
          id: { nested: true },
        }),
      ),
    ).toEqual({
      id: null,
      type: 'access.granted',
      email: null,
      provider: null,
      amountCents: null,
      currency: null,
      at: null,
    });
  });

  it('accepts numeric-string cents and rounds fractional cents; keeps refunds negative', () => {
    expect(parseLiveEvent(message({ type: 'isr.event', amount_cents: '1250' }))?.amountCents).toBe(
      1250,
    );
    expect(parseLiveEvent(message({ type: 'isr.event', amount_cents: 99.6 }))?.amountCents).toBe(
      100,
    );
    expect(parseLiveEvent(message({ type: 'isr.event', amount_cents: -1250 }))?.amountCents).toBe(
      -1250,
    );
    expect(
      parseLiveEvent(message({ type: 'isr.event', amount_cents: '' }))?.amountCents,
    ).toBeNull();
  });

  it('calls not-JSON, non-objects and a missing or non-string type malformed', () => {
    for (const bad of [
      'not json',
      '{"type":',
      message([1]),
      message(null),
      message('subscription.new'),
      message({}),
      message({ type: 42 }),
      message({ type: '  ' }),
      7,
      null,
      undefined,
    ])
      expect(readLiveMessage(bad)).toEqual({ kind: 'malformed' });
  });

  it('ignores a well-formed message of an unknown type', () => {
    expect(readLiveMessage(message({ type: 'order.created', email: 'a@b.c' }))).toEqual({
      kind: 'unknown-type',
      type: 'order.created',
    });
    expect(parseLiveEvent(message({ type: 'order.created' }))).toBeNull();
  });

  it('property: never throws; an event always has a known type and fields of the right kind', () => {
    const field = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.object());
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc
            .record({
              type: fc.oneof(fc.constantFrom(...LIVE_EVENT_TYPES), fc.string()),
              id: field,
              email: field,
              provider: field,
              amount_cents: field,
              currency: field,
              at: field,
            })
            .map((o) => JSON.stringify(o)),
        ),
        (data) => {
          const result = readLiveMessage(data);
          if (result.kind !== 'event') return;
          const { event } = result;
          expect(LIVE_EVENT_TYPES).toContain(event.type);
          for (const text of [event.id, event.email, event.provider, event.at])
            expect(text === null || (typeof text === 'string' && text.trim() === text)).toBe(true);
          expect(event.amountCents === null || Number.isInteger(event.amountCents)).toBe(true);
          expect(event.currency === null || /^[A-Z]{3}$/.test(event.currency)).toBe(true);
        },
      ),
    );
  });
});

describe('liveResourceQueryKey', () => {
  it("is each resource's query-key prefix", () => {
    expect(liveResourceQueryKey('stats')).toEqual(queryKeys.stats());
    expect(liveResourceQueryKey('users')).toEqual(queryKeys.users.all());
    expect(liveResourceQueryKey('subscriptions')).toEqual(queryKeys.subscriptions.all());
    expect(liveResourceQueryKey('metrics')).toEqual(queryKeys.metrics.all());
    expect(liveResourceQueryKey('isr')).toEqual(queryKeys.isr.all());
  });
});
