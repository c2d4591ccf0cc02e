import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { decryptIns, encryptIns } from '../clickbank/ins';
import { discourseConfig, testConfig } from '../testing/app';
import {
  startFakeDiscourse,
  type FakeDiscourse,
  type FakeReply,
  type RecordedRequest,
} from '../testing/fakeDiscourse';
import { pingClickbank, pingDiscourse, pingLemonSqueezy } from './pings';

/**
 * The maintenance pings against fake Discourse, LemonSqueezy and ClickBank servers on loopback:
 * ok, 401/403, 5xx, time-out and connection refused; not configured; the local secret check.
 */
const fakes: FakeDiscourse[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});
async function fake(reply: (req: RecordedRequest) => FakeReply): Promise<FakeDiscourse> {
  const f = await startFakeDiscourse(reply);
  fakes.push(f);
  return f;
}
/** A loopback URL nothing listens on (connection refused). */
async function refusedUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const ABOUT = { about: { title: 'MG Forum', version: '3.4.0.beta1' } };
const ME = {
  meta: { test_mode: true },
  data: { type: 'users', id: '1', attributes: { name: 'John Doe', email: 'john@example.com' } },
};

describe('ping-discourse', () => {
  it('not configured → {ok:false, reason}', async () => {
    expect(await pingDiscourse(testConfig())).toEqual({
      ok: false,
      reason: 'Discourse not configured',
    });
  });
  it('ok: sends the API key headers and reports the version', async () => {
    const f = await fake(() => ({ status: 200, body: ABOUT }));
    const r = await pingDiscourse(testConfig({ discourse: discourseConfig(f.url) }));
    expect(r).toMatchObject({ ok: true, status: 200, version: '3.4.0.beta1' });
    expect(f.requests[0]).toMatchObject({ method: 'GET', path: '/about.json' });
    expect(f.requests[0]?.headers['api-key']).toBe('test-key');
    expect(f.requests[0]?.headers['api-username']).toBe('system');
  });
  it('403 invalid key → refused credentials with Discourse’s message', async () => {
    const f = await fake(() => ({
      status: 403,
      body: { errors: ['The API username or key is invalid.'], error_type: 'invalid_access' },
    }));
    const r = await pingDiscourse(testConfig({ discourse: discourseConfig(f.url) }));
    expect(r).toEqual({
      ok: false,
      status: 403,
      error: 'Discourse refused the credentials: The API username or key is invalid.',
    });
  });
  it('5xx → ok false with the status', async () => {
    const f = await fake(() => ({ status: 502, body: null }));
    expect(await pingDiscourse(testConfig({ discourse: discourseConfig(f.url) }))).toMatchObject({
      ok: false,
      status: 502,
      error: 'Discourse answered HTTP 502',
    });
  });
  it('a server that never answers → time-out, never hangs', async () => {
    const f = await fake(() => 'hang');
    const r = await pingDiscourse(
      testConfig({ discourse: discourseConfig(f.url), pingTimeoutMs: 300 }),
    );
    expect(r).toEqual({ ok: false, status: null, error: 'timed out after 300 ms' });
  });
  it('connection refused → ok false naming the cause', async () => {
    const r = await pingDiscourse(testConfig({ discourse: discourseConfig(await refusedUrl()) }));
    expect(r).toMatchObject({ ok: false, status: null, error: 'connection failed (ECONNREFUSED)' });
  });
});

describe('ping-lemonsqueezy', () => {
  it('not configured → reason', async () => {
    expect(await pingLemonSqueezy(testConfig())).toEqual({
      ok: false,
      reason: 'LemonSqueezy API key not configured',
    });
  });
  it('ok: GET /v1/users/me with the bearer key; the answer never carries the key', async () => {
    const f = await fake(() => ({ status: 200, body: ME }));
    const r = await pingLemonSqueezy(
      testConfig({ lemonSqueezyApiKey: 'ls-secret-key', lemonSqueezyApiUrl: f.url }),
    );
    expect(r).toEqual({
      ok: true,
      status: 200,
      message: 'Authenticated as John Doe (test mode)',
      test_mode: true,
    });
    expect(f.requests[0]?.path).toBe('/v1/users/me');
    expect(f.requests[0]?.headers.authorization).toBe('Bearer ls-secret-key');
    expect(f.requests[0]?.headers.accept).toBe('application/vnd.api+json');
    expect(JSON.stringify(r)).not.toContain('ls-secret-key');
  });
  it('401 → refused credentials with the JSON:API error detail', async () => {
    const f = await fake(() => ({
      status: 401,
      body: { errors: [{ detail: 'Unauthenticated.', status: '401' }] },
    }));
    const r = await pingLemonSqueezy(
      testConfig({ lemonSqueezyApiKey: 'bad', lemonSqueezyApiUrl: f.url }),
    );
    expect(r).toEqual({
      ok: false,
      status: 401,
      error: 'LemonSqueezy refused the credentials: Unauthenticated.',
    });
  });
  it('5xx, time-out and refused connection → ok false', async () => {
    const f5 = await fake(() => ({ status: 500, body: { message: 'Server Error' } }));
    expect(
      await pingLemonSqueezy(testConfig({ lemonSqueezyApiKey: 'k', lemonSqueezyApiUrl: f5.url })),
    ).toMatchObject({ ok: false, status: 500 });
    const hang = await fake(() => 'hang');
    expect(
      await pingLemonSqueezy(
        testConfig({ lemonSqueezyApiKey: 'k', lemonSqueezyApiUrl: hang.url, pingTimeoutMs: 200 }),
      ),
    ).toMatchObject({
      ok: false,
      error: 'timed out after 200 ms',
    });
    expect(
      await pingLemonSqueezy(
        testConfig({ lemonSqueezyApiKey: 'k', lemonSqueezyApiUrl: await refusedUrl() }),
      ),
    ).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^connection failed/),
    });
  });
});

describe('ping-clickbank', () => {
  it('nothing configured → not configured for each variant and both', async () => {
    expect(await pingClickbank(testConfig(), 'developer')).toEqual({
      ok: false,
      reason: 'ClickBank developer and clerk keys not configured',
    });
    expect(await pingClickbank(testConfig(), 'secret')).toEqual({
      ok: false,
      reason: 'CLICKBANK_SECRET_KEY not configured',
    });
    expect(await pingClickbank(testConfig(), null)).toMatchObject({
      ok: false,
      reason:
        'developer: ClickBank developer and clerk keys not configured; secret: CLICKBANK_SECRET_KEY not configured',
    });
  });
  it('developer ok: Authorization is DEV-KEY:CLERK-KEY', async () => {
    const f = await fake(() => ({ status: 200, body: 'debug' }));
    const config = testConfig({
      clickbankDeveloperKey: 'DEV-123',
      clickbankClerkKey: 'API-456',
      clickbankApiUrl: f.url,
    });
    expect(await pingClickbank(config, 'developer')).toMatchObject({ ok: true, status: 200 });
    expect(f.requests[0]?.path).toBe('/rest/1.3/debug');
    expect(f.requests[0]?.headers.authorization).toBe('DEV-123:API-456');
  });
  it('developer 403 / 5xx / time-out / refused → ok false', async () => {
    const keys = { clickbankDeveloperKey: 'DEV-1', clickbankClerkKey: 'API-1' };
    const f403 = await fake(() => ({ status: 403, body: null }));
    expect(
      await pingClickbank(testConfig({ ...keys, clickbankApiUrl: f403.url }), 'developer'),
    ).toEqual({
      ok: false,
      status: 403,
      error: 'ClickBank refused the credentials',
    });
    const f503 = await fake(() => ({ status: 503, body: null }));
    expect(
      await pingClickbank(testConfig({ ...keys, clickbankApiUrl: f503.url }), 'developer'),
    ).toMatchObject({ ok: false, status: 503 });
    const hang = await fake(() => 'hang');
    expect(
      await pingClickbank(
        testConfig({ ...keys, clickbankApiUrl: hang.url, pingTimeoutMs: 200 }),
        'developer',
      ),
    ).toMatchObject({
      ok: false,
      error: 'timed out after 200 ms',
    });
    expect(
      await pingClickbank(
        testConfig({ ...keys, clickbankApiUrl: await refusedUrl() }),
        'developer',
      ),
    ).toMatchObject({ ok: false });
  });
  it('secret: a TEST notification round-trips locally; both ok → ok', async () => {
    const f = await fake(() => ({ status: 200, body: {} }));
    const config = testConfig({
      clickbankSecretKey: 'MYSECRETKEY16CHR',
      clickbankDeveloperKey: 'D',
      clickbankClerkKey: 'C',
      clickbankApiUrl: f.url,
    });
    expect(await pingClickbank(config, 'secret')).toMatchObject({
      ok: true,
      message: expect.stringContaining('TEST Instant Notification'),
    });
    const both = await pingClickbank(config, null);
    expect(both).toMatchObject({ ok: true, status: 200, message: 'developer: ok; secret: ok' });
    expect(JSON.stringify(both)).not.toContain('MYSECRETKEY16CHR');
  });
});

describe('ClickBank INS crypto', () => {
  it('decrypts the public test vector and round-trips', () => {
    const v = JSON.parse(
      readFileSync(
        new URL(
          '../../tests/msw/provider/clickbank-ins-testvector-clickbankgo.json',
          import.meta.url,
        ),
        'utf8',
      ),
    ) as {
      secretKey: string;
      iv: string;
      notification: string;
      expectedPlaintext: string;
    };
    expect(decryptIns({ notification: v.notification, iv: v.iv }, v.secretKey)).toBe(
      v.expectedPlaintext,
    );
    const env = encryptIns('{"transactionType":"TEST"}', v.secretKey);
    expect(decryptIns(env, v.secretKey)).toBe('{"transactionType":"TEST"}');
    expect(() => decryptIns(env, 'ANOTHERKEY')).toThrow();
  });
});
