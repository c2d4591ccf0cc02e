import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty, startServer, type RunningServer } from './main';
import { makeTestConfig, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from './testing/deps';

let server: RunningServer;
let staticDir: string;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(tmpdir(), 'mg-main-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  const config = await makeTestConfig({ staticDir, seedCustomers: 30, seedValue: 5 });
  server = await startServer(config, { log: silent, hostname: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await server?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

describe('startServer', () => {
  it('listens on a free port and seeds the empty database', async () => {
    expect(server.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    const n = await server.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
    expect(n.rows[0]?.n).toBe(30);
  });

  it('does not seed again when customers exist', async () => {
    await seedIfEmpty(server.deps.db, server.deps.config, silent, new Date());
    const n = await server.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM customers');
    expect(n.rows[0]?.n).toBe(30);
  });

  it('serves the console and the API over real HTTP, with the bearer token (the cookie alone only opens the event stream)', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    const page = await fetch(`${base}/admin/users`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>console</title>');
    const login = await fetch(`${base}/api/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const { token } = (await login.json()) as { token: string };
    expect((await fetch(`${base}/api/admin/stats`, { headers: { cookie } })).status).toBe(401);
    const stats = await fetch(`${base}/api/admin/stats`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(stats.status).toBe(200);
    expect(await stats.json()).toMatchObject({ currency: 'USD', totalSubscribers: 30 });
  });

  it('closes cleanly: the port stops answering and the database is closed', async () => {
    const base = `http://127.0.0.1:${server.port}`;
    await server.close();
    await server.close(); // idempotent
    await expect(fetch(`${base}/api/admin/health`)).rejects.toThrow();
    await expect(server.deps.db.query('SELECT 1')).rejects.toThrow();
  });
});
