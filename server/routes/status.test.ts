/**
 * GET /status while the database is down: the session check itself needs the database (a revoked
 * session must not pass while it cannot be looked up), so the answer is the 503 db_unavailable of
 * docs/api.md "Errors" — and docs/api.md "Dashboard and status" says so, rather than promising
 * null figures that only a figure query failing after the session check can produce.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { freshDb } from '../testing/app';
import { makeTestConfig, makeTestDeps, testSessionToken } from '../testing/deps';

const NOW = new Date('2026-11-20T12:00:00Z');
const apiDoc = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../docs/api.md');

describe('GET /status with the database down', () => {
  it('answers 503 db_unavailable', async () => {
    const db = await freshDb();
    const config = await makeTestConfig();
    const app = createApp(makeTestDeps(db, config, { now: NOW }));
    const token = await testSessionToken(db, config, NOW);
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.request(`${config.apiPrefix}/status`, { headers })).status).toBe(200);
    await db.close();
    const res = await app.request(`${config.apiPrefix}/status`, { headers });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: 'db_unavailable' });
  }, 60_000);

  it('is what docs/api.md describes', () => {
    const doc = readFileSync(apiDoc, 'utf8');
    const start = doc.indexOf('GET /status →');
    const section = doc.slice(start, doc.indexOf('**Freshness.**', start));
    expect(start).toBeGreaterThan(-1);
    expect(section).toMatch(/database[^.]*down[^.]*503[^.]*`db_unavailable`/s);
    expect(section).not.toMatch(/Every figure is null when the database fails\./);
  });
});
