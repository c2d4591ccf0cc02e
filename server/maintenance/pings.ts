/**
 * Maintenance pings (specification §2 Maintenance "Ping actions", §7 forum / billing store /
 * marketplace ping; CONTRACT.md ping summary and "not configured" answer).
 *
 * Every ping answers a ping summary `{ok, status?, version?, message?, error?, reason?}` and never
 * throws: provider failures (401/403, 5xx, time-out, refused connection, unreadable answers)
 * become `{ok:false, status, error}`. Each outgoing call is cut off after `pingTimeoutMs`
 * (default 10 000 ms). Secrets are sent only to their provider and never appear in an answer.
 *
 * - Forum (Discourse): `GET {DISCOURSE_URL}/about.json` with `Api-Key` / `Api-Username`; Discourse
 *   refuses an invalid key with 403 even on public pages, so a 200 proves the key; version from
 *   `about.version`.
 * - LemonSqueezy: `GET {LEMONSQUEEZY_API_URL}/v1/users/me` ("Retrieve the authenticated user")
 *   with `Authorization: Bearer {key}` and the JSON:API media type.
 * - ClickBank developer: `GET {CLICKBANK_API_URL}/rest/1.3/debug` with
 *   `Authorization: {developer key}:{clerk key}` (ClickBank's API key pair header; 403 when wrong).
 * - ClickBank secret: CLICKBANK_SECRET_KEY encrypts a TEST Instant Notification and decrypts it
 *   back (server/clickbank/ins.ts), locally.
 */
import type { ServerConfig } from '../context';
import { decryptIns, encryptIns, testNotification } from '../clickbank/ins';

/** Default time-out of one ping call (ms). */
export const PING_TIMEOUT_MS = 10_000;

/** A ping summary (CONTRACT.md). */
export interface PingSummary {
  ok: boolean;
  status?: number | null;
  version?: string | null;
  message?: string;
  error?: string;
  reason?: string;
  [key: string]: unknown;
}

/** The CONTRACT.md answer for an integration that is not configured. */
export const notConfigured = (what: string): PingSummary => ({
  ok: false,
  reason: `${what} not configured`,
});

interface Fetched {
  status: number;
  body: unknown;
  text: string;
}

/** One GET with a time-out → the answer, or a failure summary (never throws). */
async function getJson(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
  fetchImpl: typeof fetch,
): Promise<Fetched | PingSummary> {
  try {
    const res = await fetchImpl(url, {
      method: 'GET',
      headers,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text.trim() === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: res.status, body, text };
  } catch (err) {
    const e = err as {
      name?: string;
      message?: string;
      cause?: { code?: string; message?: string };
    };
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
      return { ok: false, status: null, error: `timed out after ${timeoutMs} ms` };
    }
    const cause = e?.cause?.code ?? e?.cause?.message;
    return {
      ok: false,
      status: null,
      error: cause
        ? `connection failed (${cause})`
        : `connection failed (${e?.message ?? String(err)})`,
    };
  }
}

const isFailure = (r: Fetched | PingSummary): r is PingSummary => 'ok' in r;

/** The error text of a non-2xx provider answer: its own message when short, else 'HTTP {status}'. */
function httpError(f: Fetched, provider: string): PingSummary {
  const b = (f.body && typeof f.body === 'object' ? f.body : {}) as Record<string, unknown>;
  const errors = b.errors;
  let detail: string | null = null;
  if (Array.isArray(errors) && errors.length > 0) {
    const first = errors[0] as unknown;
    detail =
      typeof first === 'string'
        ? errors.map(String).join('; ')
        : typeof (first as { detail?: unknown })?.detail === 'string'
          ? String((first as { detail: string }).detail)
          : null;
  } else if (typeof b.message === 'string') detail = b.message;
  else if (typeof b.error === 'string') detail = b.error;
  else if (
    f.body === null &&
    !['', 'null'].includes(f.text.trim()) &&
    f.text.length <= 200 &&
    !/[<>]/.test(f.text)
  )
    detail = f.text.trim();
  const auth =
    f.status === 401 || f.status === 403
      ? `${provider} refused the credentials`
      : `${provider} answered HTTP ${f.status}`;
  return { ok: false, status: f.status, error: detail ? `${auth}: ${detail.slice(0, 200)}` : auth };
}

/** Options shared by the pings: the fetch to use (tests) and the time-out. */
export interface PingOptions {
  fetchImpl?: typeof fetch;
  now?: () => Date;
}

/** Forum ping → PingSummary; `{ok:false, reason:'Discourse not configured'}` without DISCOURSE_URL/API key/group. */
export async function pingDiscourse(
  config: ServerConfig,
  opts: PingOptions = {},
): Promise<PingSummary> {
  const d = config.discourse;
  if (d === null) return notConfigured('Discourse');
  const timeoutMs = config.pingTimeoutMs ?? PING_TIMEOUT_MS;
  const r = await getJson(
    `${d.baseUrl}/about.json`,
    { 'Api-Key': d.apiKey, 'Api-Username': d.apiUsername, Accept: 'application/json' },
    timeoutMs,
    opts.fetchImpl ?? fetch,
  );
  if (isFailure(r)) return r;
  if (r.status < 200 || r.status >= 300) return httpError(r, 'Discourse');
  const about = (r.body as { about?: { version?: unknown; title?: unknown } } | null)?.about;
  if (!about || typeof about !== 'object') {
    return {
      ok: false,
      status: r.status,
      error: 'Discourse answered, but not with an about.json object',
    };
  }
  return {
    ok: true,
    status: r.status,
    version: typeof about.version === 'string' ? about.version : null,
    message:
      typeof about.title === 'string'
        ? `Forum '${about.title.slice(0, 80)}' reachable with the API key`
        : 'Forum reachable with the API key',
  };
}

/** LemonSqueezy ping → PingSummary; `{ok:false, reason:'LemonSqueezy API key not configured'}` without LEMONSQUEEZY_API_KEY. */
export async function pingLemonSqueezy(
  config: ServerConfig,
  opts: PingOptions = {},
): Promise<PingSummary> {
  const key = config.lemonSqueezyApiKey;
  if (!key) return notConfigured('LemonSqueezy API key');
  const base = config.lemonSqueezyApiUrl ?? 'https://api.lemonsqueezy.com';
  const r = await getJson(
    `${base}/v1/users/me`,
    {
      Authorization: `Bearer ${key}`,
      Accept: 'application/vnd.api+json',
      'Content-Type': 'application/vnd.api+json',
    },
    config.pingTimeoutMs ?? PING_TIMEOUT_MS,
    opts.fetchImpl ?? fetch,
  );
  if (isFailure(r)) return r;
  if (r.status < 200 || r.status >= 300) return httpError(r, 'LemonSqueezy');
  const body = r.body as {
    data?: { type?: unknown; attributes?: { name?: unknown } };
    meta?: { test_mode?: unknown };
  } | null;
  if (!body?.data || body.data.type !== 'users') {
    return {
      ok: false,
      status: r.status,
      error: 'LemonSqueezy answered, but not with a user object',
    };
  }
  const name =
    typeof body.data.attributes?.name === 'string' ? body.data.attributes.name.slice(0, 80) : null;
  const testMode = body.meta?.test_mode === true;
  return {
    ok: true,
    status: r.status,
    message: `${name ? `Authenticated as ${name}` : 'Authenticated'}${testMode ? ' (test mode)' : ''}`,
    test_mode: testMode,
  };
}

/** ClickBank developer ping → PingSummary; not configured without both CLICKBANK_DEVELOPER_KEY and CLICKBANK_CLERK_KEY. */
export async function pingClickbankDeveloper(
  config: ServerConfig,
  opts: PingOptions = {},
): Promise<PingSummary> {
  const dev = config.clickbankDeveloperKey;
  const clerk = config.clickbankClerkKey;
  if (!dev || !clerk) return notConfigured('ClickBank developer and clerk keys');
  const base = config.clickbankApiUrl ?? 'https://api.clickbank.com';
  const r = await getJson(
    `${base}/rest/1.3/debug`,
    { Authorization: `${dev}:${clerk}`, Accept: 'application/json' },
    config.pingTimeoutMs ?? PING_TIMEOUT_MS,
    opts.fetchImpl ?? fetch,
  );
  if (isFailure(r)) return r;
  if (r.status < 200 || r.status >= 300) return httpError(r, 'ClickBank');
  return {
    ok: true,
    status: r.status,
    message: 'ClickBank API accepted the developer and clerk keys',
  };
}

/**
 * ClickBank secret check → PingSummary: encrypts a TEST notification with CLICKBANK_SECRET_KEY and
 * decrypts it back, locally (nothing is sent). Not configured without CLICKBANK_SECRET_KEY.
 */
export function pingClickbankSecret(config: ServerConfig, opts: PingOptions = {}): PingSummary {
  const secret = config.clickbankSecretKey;
  if (!secret) return notConfigured('CLICKBANK_SECRET_KEY');
  try {
    const plaintext = JSON.stringify(testNotification((opts.now ?? (() => new Date()))()));
    const back = decryptIns(encryptIns(plaintext, secret), secret);
    if (back !== plaintext)
      return { ok: false, error: 'The TEST notification did not decrypt to what was encrypted' };
    const summary: PingSummary = {
      ok: true,
      message: 'CLICKBANK_SECRET_KEY encrypts and decrypts a TEST Instant Notification',
    };
    // ClickBank secret keys are at most 16 upper-case letters and digits; say so when it is not.
    if (!/^[A-Z0-9]{1,16}$/.test(secret))
      summary.warning = 'ClickBank secret keys are up to 16 upper-case letters and digits';
    return summary;
  } catch (err) {
    return {
      ok: false,
      error: `The TEST notification could not be encrypted and decrypted (${err instanceof Error ? err.message : String(err)})`,
    };
  }
}

/** The marketplace ping's variant (§7 which=secret|developer); null = both. */
export type ClickbankWhich = 'secret' | 'developer' | null;

/**
 * ClickBank ping: `developer`, `secret`, or both (null) → PingSummary. Both: ok when both are ok;
 * `developer` and `secret` carry each summary; message/reason join the two parts.
 */
export async function pingClickbank(
  config: ServerConfig,
  which: ClickbankWhich,
  opts: PingOptions = {},
): Promise<PingSummary> {
  if (which === 'developer') return pingClickbankDeveloper(config, opts);
  if (which === 'secret') return pingClickbankSecret(config, opts);
  const developer = await pingClickbankDeveloper(config, opts);
  const secret = pingClickbankSecret(config, opts);
  const part = (name: string, s: PingSummary) =>
    `${name}: ${s.ok ? 'ok' : (s.reason ?? s.error ?? 'failed')}`;
  const line = `${part('developer', developer)}; ${part('secret', secret)}`;
  const ok = developer.ok && secret.ok;
  const summary: PingSummary = { ok, developer, secret };
  if (developer.status !== undefined) summary.status = developer.status;
  if (ok) summary.message = line;
  else if (developer.reason && secret.reason) summary.reason = line;
  else summary.error = line;
  return summary;
}
