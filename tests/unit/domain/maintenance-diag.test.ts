import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenDiag } from '../../../src/domain/maintenance';
import { DIAG_WIRE } from '../../msw/fixtures-maintenance';

describe('flattenDiag (Diagnostics key/value pairs)', () => {
  it('flattens nested objects into dotted keys in the server order, booleans as yes/no, null as a dash', () => {
    const pairs = flattenDiag(DIAG_WIRE);
    expect(pairs.slice(0, 3)).toEqual([
      { key: 'versions.app', value: '0.0.1' },
      { key: 'versions.node', value: 'v20.20.0' },
      { key: 'versions.database', value: 'PostgreSQL 17.5 on wasm32 (PGlite)' },
    ]);
    expect(pairs).toContainEqual({
      key: 'database.migrations',
      value: '001_init, 002_list_indexes, 004_logs_search',
    });
    expect(pairs).toContainEqual({ key: 'counts.members.active', value: '812' });
    expect(pairs).toContainEqual({ key: 'integrations.discourse', value: 'no' });
    expect(pairs).toContainEqual({ key: 'integrations.lemonsqueezy_api', value: 'yes' });
    expect(pairs).toContainEqual({ key: 'expiration.last_run', value: '—' });
    expect(pairs).toContainEqual({ key: 'reconcile.lemonsqueezy.last_run.ok', value: 'yes' });
    expect(pairs).toContainEqual({ key: 'reconcile.clickbank.last_run', value: '—' });
  });

  it('never throws on any JSON and gives at most the limit of string pairs', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const pairs = flattenDiag(value, 50);
        expect(pairs.length).toBeLessThanOrEqual(50);
        expect(pairs.every((p) => typeof p.key === 'string' && typeof p.value === 'string')).toBe(
          true,
        );
      }),
    );
    expect(flattenDiag(null)).toEqual([]);
    expect(flattenDiag('text')).toEqual([]);
  });
});
