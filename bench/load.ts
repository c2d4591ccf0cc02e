/**
 * Load test of the whole reference server: operators using the console, provider webhooks and
 * open event streams at the same time, against one or more instances. Prints figures; it exits
 * non-zero only on correctness failures (a non-2xx answer, a request error, a live event lost or
 * duplicated on a stream), never on slowness.
 *
 *   # one PGlite instance started here, BENCH_CUSTOMERS demo customers (default 100000):
 *   npx tsx bench/load.ts
 *   BENCH_CUSTOMERS=2000 BENCH_LOAD_S=10 npx tsx bench/load.ts
 *   # one or two instances started here on the same PostgreSQL (seeded once when empty):
 *   DATABASE_URL=postgres://… BENCH_INSTANCES=1 npx tsx bench/load.ts
 *   DATABASE_URL=postgres://… BENCH_INSTANCES=2 npx tsx bench/load.ts
 *   # servers that already run (the load is split between them, round robin):
 *   BENCH_TARGETS=http://127.0.0.1:8091,http://127.0.0.1:8092 LEMONSQUEEZY_WEBHOOK_SECRET=… \
 *     BENCH_ADMIN_EMAIL=… BENCH_ADMIN_PASSWORD=… npx tsx bench/load.ts
 *
 * Settings: BENCH_LOAD_S (60 s), BENCH_OPERATORS (20 signed-in operators, one keep-alive
 * connection each, back to back), BENCH_OPERATOR_RPS (0: back to back; N > 0: each operator sends
 * at most N requests a second, as a person clicking through the console does, its second starting
 * at a random instant of the first), BENCH_WEBHOOK_RPS (50 signed LemonSqueezy deliveries a second),
 * BENCH_STREAMS (20 open GET /events/stream), BENCH_ACTION_EVERY_S (4.5: mean seconds between
 * one operator's access actions), BENCH_PORT (8091; started instances take consecutive ports),
 * BENCH_DATA_DIR (a PGlite folder kept and reused, so 100,000 customers are seeded once),
 * BENCH_START_TIMEOUT_S (3600: seeding 1,000,000 customers takes minutes).
 *
 * Operators are `support` operators `load-op-NN@bench.example`, invited by the owner and signed
 * in once each (an existing one is reused). Their requests are a weighted mix of list pages with
 * filters and sorts, customer drawers and pages, search, dashboard and metrics, revenue and ISR
 * reads, and every few seconds one of the five access actions on a customer of the data.
 *
 * Report (times in ms, nearest-rank percentiles): per endpoint family the count, p50 / p95 / p99
 * from request written to response read (autocannon's figure), its non-2xx answers and the
 * goal; requests per second overall and per target; webhook ingest (send → 2xx answer read);
 * delivery (webhook or action sent → its live event read on each stream); and per stream the
 * events received, lost and duplicated.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildServer } from '../scripts/build-server.mjs';
import {
  lemonSqueezyInvoice,
  lemonSqueezySubscription,
  lsTime,
  signedLemonSqueezyDelivery,
} from '../server/webhooks/deliveries';
import { listFilterFields, SUBSCRIPTION_MIX_SORTS, USER_MIX_SORTS } from './listMix';
import { percentile, startBuiltServer, type BuiltServer } from './support';

const env = process.env;
const LOAD_S = Number(env.BENCH_LOAD_S ?? 60);
const OPERATORS = Number(env.BENCH_OPERATORS ?? 20);
/**
 * Requests a second per operator (autocannon's connectionRate: up to N at the start of each of
 * the operator's seconds, then a pause), or 0 for back to back. Back to back measures what the
 * servers can serve (throughput, one instance against two); paced, what operators working at a
 * person's speed wait for, since 20 operators back to back wait on each other by construction
 * (each answer's time is about 20 / throughput, whatever one request costs alone).
 */
const OPERATOR_RPS = Number(env.BENCH_OPERATOR_RPS ?? 0);
/** How many of the slowest requests of a family over its goal the report lists. */
const SLOWEST_SHOWN = 5;
const WEBHOOK_RPS = Number(env.BENCH_WEBHOOK_RPS ?? 50);
const STREAMS = Number(env.BENCH_STREAMS ?? 20);
const ACTION_EVERY_S = Number(env.BENCH_ACTION_EVERY_S ?? 4.5);
const PORT = Number(env.BENCH_PORT ?? 8091);
const CUSTOMERS = env.BENCH_CUSTOMERS ?? '100000';
const PREFIX = env.BENCH_API_PREFIX ?? '/api/admin';
const START_TIMEOUT_MS = Number(env.BENCH_START_TIMEOUT_S ?? 3600) * 1000;
const OPERATOR_PASSWORD = 'load-Operator-pass-2931';

type Family = 'lists' | 'drawer' | 'search' | 'dashboard' | 'revenue' | 'isr' | 'actions';
const FAMILIES: { family: Family; label: string; goalMs: number }[] = [
  { family: 'lists', label: 'lists (Users, Subscriptions)', goalMs: 100 },
  { family: 'drawer', label: 'drawer / customer page', goalMs: 100 },
  { family: 'search', label: 'search', goalMs: 100 },
  { family: 'dashboard', label: 'dashboard + metrics', goalMs: 100 },
  { family: 'revenue', label: 'revenue', goalMs: 100 },
  { family: 'isr', label: 'ISR', goalMs: 100 },
  { family: 'actions', label: 'access actions', goalMs: 250 },
];
/** Read families and their share of an operator's reads (actions are paced by time instead). */
const READ_WEIGHTS: [Family, number][] = [
  ['lists', 30],
  ['drawer', 25],
  ['search', 12],
  ['dashboard', 13],
  ['revenue', 6],
  ['isr', 14],
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const day = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : '-');

// ---------------------------------------------------------------------------------------------
// Servers

interface Setup {
  targets: string[];
  servers: BuiltServer[];
  /** The build folder of the started servers, removed at the end. */
  outdir: string | null;
  admin: { email: string; password: string };
  webhookSecret: string;
  description: string;
}

async function setUp(): Promise<Setup> {
  if (env.BENCH_TARGETS) {
    const webhookSecret = env.LEMONSQUEEZY_WEBHOOK_SECRET;
    if (!webhookSecret) {
      console.error('BENCH_TARGETS needs LEMONSQUEEZY_WEBHOOK_SECRET, as the servers have it.');
      process.exit(2);
    }
    const targets = env.BENCH_TARGETS.split(',')
      .map((t) => t.trim().replace(/\/+$/, ''))
      .filter(Boolean);
    return {
      targets,
      servers: [],
      outdir: null,
      admin: {
        email: env.BENCH_ADMIN_EMAIL ?? 'admin@example.com',
        password: env.BENCH_ADMIN_PASSWORD ?? 'admin',
      },
      webhookSecret,
      description: `${targets.length} running server(s): ${targets.join(', ')}`,
    };
  }
  const databaseUrl = env.DATABASE_URL;
  const instances = Number(env.BENCH_INSTANCES ?? 1);
  if (!databaseUrl && instances !== 1) {
    console.error('BENCH_INSTANCES > 1 needs DATABASE_URL: PGlite serves one process.');
    process.exit(2);
  }
  const admin = { email: 'bench-admin@example.com', password: 'bench-Secret-pass-1' };
  const webhookSecret = 'bench-load-lemonsqueezy-secret';
  // Instances must share the JWT secret (sessions) and the webhook secrets.
  const serverEnv: Record<string, string> = {
    JWT_SECRET: 'bench-load-jwt-secret-0123456789abcdef',
    LEMONSQUEEZY_WEBHOOK_SECRET: webhookSecret,
    CLICKBANK_SECRET_KEY: 'BENCHKEY12345678',
    HOST: '127.0.0.1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // Its own build folder: a rebuild of dist-server/ by someone else's run would otherwise
  // replace the files under a running instance. Inside node_modules so that the server's
  // imports resolve from the project's packages.
  const outdir = path.join('node_modules', '.cache', `mg-bench-load-${process.pid}`);
  const { outfile } = await buildServer(outdir);
  const dataDir = env.BENCH_DATA_DIR;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const started = performance.now();
  console.log(
    `starting ${instances} instance(s) on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}` +
      ` (seeding ${CUSTOMERS} customers when the database is empty)…`,
  );
  const servers = await Promise.all(
    Array.from({ length: instances }, (_, i) =>
      startBuiltServer({
        port: PORT + i,
        customers: CUSTOMERS,
        admin,
        timeoutMs: START_TIMEOUT_MS,
        env: serverEnv,
        outfile,
        ...(dataDir && !databaseUrl ? { dataDir } : {}),
      }),
    ),
  );
  console.log(`started in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return {
    targets: servers.map((s) => s.base.replace('//localhost:', '//127.0.0.1:')),
    servers,
    outdir,
    admin,
    webhookSecret,
    description:
      `${instances} instance(s) started here on ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ` +
      `${CUSTOMERS} customers seeded (when the database was empty)`,
  };
}

// ---------------------------------------------------------------------------------------------
// API helpers

async function api<T>(
  base: string,
  pathName: string,
  init: { token?: string; method?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${PREFIX}${pathName}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text for the error message
  }
  return { status: res.status, body: body as T };
}

async function signIn(base: string, email: string, password: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await api<{ token?: string; retry_after_s?: number }>(base, '/auth/login', {
      body: { email, password },
    });
    if (res.body.token) return res.body.token;
    // Password checks are few at a time; a refused slot asks to come back.
    if (res.status === 429 && attempt < 5) {
      await sleep(1000 * (res.body.retry_after_s ?? 2));
      continue;
    }
    throw new Error(`sign-in of ${email} at ${base}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** Creates (or reuses) `support` operator n through the owner's invitation and signs it in at `base`. */
async function operatorSession(
  base: string,
  ownerBase: string,
  ownerToken: string,
  n: number,
): Promise<string> {
  const email = `load-op-${String(n).padStart(2, '0')}@bench.example`;
  const invited = await api<{ invite?: { token: string }; code?: string }>(
    ownerBase,
    '/operators',
    { token: ownerToken, body: { email, name: `Load operator ${n}`, role: 'support' } },
  );
  if (invited.status === 201 && invited.body.invite) {
    const accepted = await api(ownerBase, '/auth/invite/accept', {
      body: { token: invited.body.invite.token, password: OPERATOR_PASSWORD },
    });
    if (accepted.status !== 200)
      throw new Error(`invite accept of ${email}: ${accepted.status} ${JSON.stringify(accepted)}`);
  } else if (invited.body.code !== 'OPERATOR_EXISTS') {
    throw new Error(`invite of ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  }
  return signIn(base, email, OPERATOR_PASSWORD);
}

// ---------------------------------------------------------------------------------------------
// The data the mix picks from

interface SubRow {
  email: string;
  name: string | null;
  provider: string;
  provider_id: string;
  amount: number | null;
  currency: string | null;
}
interface Pools {
  emails: string[];
  names: string[];
  lemon: SubRow[];
  receipts: string[];
  /** Customers with a Users row, for the access actions. */
  members: Member[];
  /** LemonSqueezy subscription objects as stored (the drawer's provider_detail), for updates. */
  lemonObjects: { id: string; attributes: Record<string, unknown> }[];
}

async function loadPools(base: string, token: string): Promise<Pools> {
  const page = async <T>(p: string) => {
    const res = await api<{ rows: T[]; total: number }>(base, p, { token });
    if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** Rows of `pages` random pages of 200 of the list `p` (already holding its filters). */
  const randomPages = async <T>(p: string, pages: number): Promise<T[]> => {
    const first = await page<T>(`${p}&page=1&pageSize=200`);
    const last = Math.max(1, Math.ceil(first.total / 200));
    const rows = [...first.rows];
    for (let i = 1; i < pages && i < last; i++) {
      const n = 1 + Math.floor(Math.random() * last);
      rows.push(...(await page<T>(`${p}&page=${n}&pageSize=200`)).rows);
    }
    return rows;
  };
  const users = await randomPages<Member>('/users?sort=row_id', 4);
  const lemon = await randomPages<SubRow>(
    '/subscriptions?provider=lemonsqueezy&provider_status=active&sortKey=row_id&sortDir=asc',
    3,
  );
  const clickbank = await randomPages<SubRow>(
    '/subscriptions?provider=clickbank&sortKey=row_id&sortDir=asc',
    1,
  );
  const lemonObjects: Pools['lemonObjects'] = [];
  for (const row of lemon.slice(0, 40)) {
    const res = await api<{ provider_detail?: { id?: string; attributes?: object } }>(
      base,
      `/subscriptions/detail?provider=lemonsqueezy&provider_id=${encodeURIComponent(row.provider_id)}`,
      { token },
    );
    const detail = res.body.provider_detail;
    if (res.status === 200 && detail?.attributes && detail.id)
      lemonObjects.push({
        id: detail.id,
        attributes: detail.attributes as Record<string, unknown>,
      });
  }
  const emails = [...new Set([...users.map((u) => u.email), ...lemon.map((s) => s.email)])];
  const names = [...lemon, ...clickbank]
    .map((s) => s.name?.split(' ')[0])
    .filter((n): n is string => !!n && n.length >= 2);
  if (emails.length === 0 || lemon.length === 0)
    throw new Error('the database has no customers or no active LemonSqueezy subscription');
  const members = [...new Map(users.map((u) => [u.email, u])).values()];
  return {
    emails,
    members,
    names,
    lemon,
    receipts: clickbank.map((s) => s.provider_id),
    lemonObjects,
  };
}

// ---------------------------------------------------------------------------------------------
// The operators' mix

interface Planned {
  family: Family;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** For an access action: the live event it must produce (type|email), if any. */
  expects?: string;
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return q.toString();
}

/** A substring of an address's local part, as an operator types into the email filter. */
function emailFragment(email: string): string {
  const local = email.split('@')[0] ?? email;
  const start = Math.floor(Math.random() * Math.max(1, local.length - 4));
  return local.slice(start, start + 3 + Math.floor(Math.random() * 3));
}

function readRequest(pools: Pools): Planned {
  const total = READ_WEIGHTS.reduce((s, [, w]) => s + w, 0);
  let r = Math.random() * total;
  let family: Family = 'lists';
  for (const [f, w] of READ_WEIGHTS) {
    if ((r -= w) < 0) {
      family = f;
      break;
    }
  }
  const get = (p: string): Planned => ({ family, method: 'GET', path: `${PREFIX}${p}` });
  const email = pick(pools.emails);
  switch (family) {
    case 'lists': {
      const users = Math.random() < 0.6;
      // The mix's fields (bench/listMix.ts), one value each, and an email fragment.
      const filters = [
        ...listFilterFields(users ? 'users' : 'subscriptions', Date.now()).map(
          (values) => () => pick(values),
        ),
        () => ({ email: emailFragment(pick(pools.emails)) }),
      ];
      const chosen = () => {
        const out: Record<string, string> = {};
        const n = Math.floor(Math.random() * 3); // 0, 1 or 2 filters
        for (let i = 0; i < n; i++) Object.assign(out, pick(filters)());
        return out;
      };
      const page = Math.random() < 0.8 ? 1 : 2 + Math.floor(Math.random() * 4);
      const pageSize = pick([50, 50, 100]);
      if (users) {
        return get(
          `/users?${query({
            page,
            pageSize,
            sort: `${Math.random() < 0.5 ? '-' : ''}${pick(USER_MIX_SORTS)}`,
            ...chosen(),
          })}`,
        );
      }
      return get(
        `/subscriptions?${query({
          page,
          pageSize,
          sortKey: pick(SUBSCRIPTION_MIX_SORTS),
          sortDir: pick(['asc', 'desc']),
          ...chosen(),
        })}`,
      );
    }
    case 'drawer': {
      const r2 = Math.random();
      if (r2 < 0.35) {
        const sub = pick(pools.lemon);
        return get(
          `/subscriptions/detail?${query({ provider: 'lemonsqueezy', provider_id: sub.provider_id })}`,
        );
      }
      if (r2 < 0.5) return get(`/subscriptions/detail?${query({ email })}`);
      if (r2 < 0.8) return get(`/customers/${encodeURIComponent(email)}`);
      return get(`/customers/${encodeURIComponent(email)}/timeline?limit=50`);
    }
    case 'search': {
      const r2 = Math.random();
      const q =
        r2 < 0.45
          ? email.slice(0, 3 + Math.floor(Math.random() * 4))
          : r2 < 0.7 && pools.names.length > 0
            ? pick(pools.names)
            : r2 < 0.9 && pools.receipts.length > 0
              ? pick(pools.receipts)
              : pick(['logs', 'users', 'revenue', 'webhooks']);
      return get(`/search?${query({ q, limit: 20 })}`);
    }
    case 'dashboard': {
      const r2 = Math.random();
      if (r2 < 0.45) return get('/stats');
      const days = pick([0, 0, 7, 90, 365]);
      return get(
        `/metrics/overview${days === 0 ? '' : `?${query({ from: day(-days + 1), to: day(0) })}`}`,
      );
    }
    case 'revenue': {
      const r2 = Math.random();
      if (r2 < 0.5) return get('/metrics/revenue');
      if (r2 < 0.8)
        return get(`/metrics/revenue?${query({ from: day(-89), to: day(0), interval: 'day' })}`);
      return get(
        `/metrics/revenue?${query({ provider: pick(['lemonsqueezy', 'clickbank']), cadence: pick(['monthly', 'yearly']) })}`,
      );
    }
    default: {
      const r2 = Math.random();
      const range = pick([{}, { from: day(-29), to: day(0) }]);
      if (r2 < 0.3) return get(`/isr-metrics/summary?${query(range)}`);
      if (r2 < 0.55) return get(`/isr-metrics/daily?${query(range)}`);
      if (r2 < 0.75) return get(`/isr-metrics/affiliates?${query({ ...range, limit: 12 })}`);
      return get(
        `/isr-events?${query({ page: 1, pageSize: 50, source: pick([undefined, 'clickbank', 'lemonsqueezy']) })}`,
      );
    }
  }
}

/** A customer's forum access as the operator last saw it (Users row, then its own answers). */
interface Member {
  email: string;
  mg_status: string;
  current_period_end: string | null;
}

/**
 * One of the five access actions on one of the operator's own customers, chosen as an operator
 * would from what the row shows (a scheduled revocation of a cancelled customer is refused with
 * 409, and revoke_deferred needs a billing period that has not ended), with the live event it
 * emits.
 */
function actionRequest(members: Member[]): Planned & { member: Member } {
  const member = pick(members);
  const email = member.email;
  const periodEnd = member.current_period_end ? Date.parse(member.current_period_end) : NaN;
  const kinds =
    member.mg_status === 'cancelled'
      ? ['grant', 'grant_on_date']
      : [
          'grant',
          'grant_on_date',
          'revoke_now',
          'revoke_on_date',
          ...(periodEnd > Date.now() + 86_400_000 ? ['revoke_deferred'] : []),
        ];
  const kind = pick(kinds);
  const body: Record<string, string> = { email };
  if (kind === 'grant_on_date') body.until = `${day(60)} 12:00:00`;
  if (kind === 'revoke_on_date') body.date = `${day(20)} 12:00:00`;
  // Grants and revoke_now change access at once (an access.* event); the scheduled
  // revocations emit theirs when the expiration run applies them.
  const expects =
    kind === 'grant' || kind === 'grant_on_date'
      ? `access.granted|${email}`
      : kind === 'revoke_now'
        ? `access.revoked|${email}`
        : undefined;
  return {
    family: 'actions',
    method: 'POST',
    path: `${PREFIX}/users/actions/${kind}`,
    body: JSON.stringify(body),
    expects,
    member,
  };
}

// ---------------------------------------------------------------------------------------------
// Live event streams

interface Frame {
  id: number;
  key: string;
  at: number;
}
interface Stream {
  index: number;
  target: string;
  frames: Frame[];
  /** Why the stream ended before we closed it (a comment line, or the error), else null. */
  endedEarly: string | null;
  close: () => void;
}

async function openStream(index: number, target: string, token: string): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${target}${PREFIX}/events/stream`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (res.status !== 200 || !res.body)
    throw new Error(`stream ${index} at ${target}: HTTP ${res.status} ${await res.text()}`);
  const stream: Stream = {
    index,
    target,
    frames: [],
    endedEarly: null,
    close: () => controller.abort(),
  };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let lastComment = '';
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        // The chunk's arrival: every frame in it was read now.
        const at = performance.now();
        if (done) {
          stream.endedEarly = `ended by the server${lastComment ? ` (${lastComment})` : ''}`;
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let id: string | undefined;
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) lastComment = line.slice(1).trim();
            else if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line.startsWith('data:')) data += line.slice(5).trim();
            else if (line.startsWith('retry:')) opened();
          }
          if (id !== undefined && data) {
            const msg = JSON.parse(data) as { type?: string; email?: string | null };
            stream.frames.push({ id: Number(id), key: `${msg.type}|${msg.email}`, at });
          }
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) stream.endedEarly = `read failed: ${String(error)}`;
    } finally {
      opened();
    }
  })();
  await ready;
  return stream;
}

// ---------------------------------------------------------------------------------------------
// Webhooks

interface Sent {
  target: string;
  sentAt: number;
  answeredAt: number;
  status: number;
  error: string | null;
  /** The live events its answer's effects imply (type|email). */
  expects: string[];
}

/** The live event types a LemonSqueezy delivery's effects stand for (server/webhooks). */
function eventsOfEffects(effects: string[], email: string): string[] {
  const out: string[] = [];
  for (const e of effects) {
    if (e === 'event.new') out.push(`subscription.new|${email}`);
    else if (e === 'event.renewal') out.push(`subscription.renewal|${email}`);
    else if (e === 'event.cancellation') out.push(`subscription.cancelled|${email}`);
    else if (e.startsWith('isr.')) out.push(`isr.event|${email}`);
    else if (e === 'access.grant') out.push(`access.granted|${email}`);
    else if (e === 'access.revoke') out.push(`access.revoked|${email}`);
  }
  return out;
}

function runWebhooks(targets: string[], pools: Pools, secret: string, sent: Sent[]): Promise<void> {
  const run = Date.now() % 1_000_000_000;
  const inFlight: Promise<void>[] = [];
  const send = async (i: number) => {
    const target = targets[i % targets.length]!;
    // The n-th delivery to each target: every target gets the same mix.
    const n = Math.floor(i / targets.length);
    const now = new Date();
    let email: string;
    let delivery: { body: string; headers: Record<string, string> };
    const object = pools.lemonObjects[Math.floor(n / 4) % Math.max(1, pools.lemonObjects.length)];
    if (n % 4 === 3 && object) {
      // A plan's ordinary update: the stored object again, updated now.
      email = String(object.attributes.user_email).toLowerCase();
      delivery = signedLemonSqueezyDelivery(
        'subscription_updated',
        lemonSqueezySubscription(object.id, { ...object.attributes, updated_at: lsTime(now) }),
        secret,
      );
    } else {
      const sub = pools.lemon[i % pools.lemon.length]!;
      email = sub.email.toLowerCase();
      delivery = signedLemonSqueezyDelivery(
        'subscription_payment_success',
        lemonSqueezyInvoice(`${run}${String(i).padStart(6, '0')}`, {
          subscription_id: sub.provider_id,
          user_email: sub.email,
          billing_reason: 'renewal',
          total: sub.amount ?? 1900,
          currency: sub.currency ?? 'USD',
          at: now,
        }),
        secret,
      );
    }
    const record: Sent = {
      target,
      sentAt: performance.now(),
      answeredAt: NaN,
      status: 0,
      error: null,
      expects: [],
    };
    sent.push(record);
    try {
      const res = await fetch(`${target}/webhooks/lemonsqueezy`, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
      });
      const text = await res.text();
      record.answeredAt = performance.now();
      record.status = res.status;
      if (res.status === 200) {
        const answer = JSON.parse(text) as { effects?: string[]; duplicate?: boolean };
        record.expects = eventsOfEffects(answer.effects ?? [], email);
      } else {
        record.error = text.slice(0, 200);
      }
    } catch (error) {
      record.answeredAt = performance.now();
      record.error = String(error);
    }
  };
  return new Promise((resolve) => {
    if (WEBHOOK_RPS <= 0) return resolve();
    const start = performance.now();
    let count = 0;
    // A fine timer catches up on the deliveries due, so the rate holds under timer drift.
    const timer = setInterval(() => {
      const elapsed = performance.now() - start;
      if (elapsed >= LOAD_S * 1000) {
        clearInterval(timer);
        void Promise.all(inFlight).then(() => resolve());
        return;
      }
      const due = Math.floor((elapsed / 1000) * WEBHOOK_RPS);
      while (count < due) inFlight.push(send(count++));
    }, 5);
  });
}

// ---------------------------------------------------------------------------------------------
// Operators under autocannon

interface Sample {
  target: string;
  family: Family;
  /** The request's path and query, without the API prefix. */
  path: string;
  ms: number;
  status: number;
}
interface ActionSent {
  sentAt: number;
  status: number;
  expects: string | undefined;
}

function runOperator(
  target: string,
  token: string,
  pools: Pools,
  members: Member[],
  samples: Sample[],
  actions: ActionSent[],
  failures: Map<string, { count: number; sample: string }>,
  errors: Map<string, number>,
): Promise<autocannon.Result> {
  // One connection, no pipelining: the response at hand answers the request planned last.
  let current: Planned & { member?: Member } = readRequest(pools);
  let currentAction: ActionSent | null = null;
  let nextActionAt = performance.now() + Math.random() * ACTION_EVERY_S * 2000;
  const plan = (): Planned & { member?: Member } => {
    if (members.length > 0 && performance.now() >= nextActionAt) {
      nextActionAt = performance.now() + (0.5 + Math.random()) * ACTION_EVERY_S * 1000;
      return actionRequest(members);
    }
    return readRequest(pools);
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target,
        connections: 1,
        pipelining: 1,
        ...(OPERATOR_RPS > 0 ? { connectionRate: OPERATOR_RPS } : {}),
        duration: LOAD_S,
        timeout: 30,
        requests: [
          {
            setupRequest: (req) => {
              current = plan();
              currentAction = null;
              if (current.family === 'actions') {
                currentAction = { sentAt: performance.now(), status: 0, expects: current.expects };
                actions.push(currentAction);
              }
              return {
                ...req,
                method: current.method,
                path: current.path,
                headers: {
                  authorization: `Bearer ${token}`,
                  ...(current.body ? { 'content-type': 'application/json' } : {}),
                },
                body: current.body ?? '',
              };
            },
            onResponse: (status, body) => {
              if (status >= 200 && status < 300) {
                if (current.member) {
                  const answer = JSON.parse(body) as { mg_status?: string };
                  if (answer.mg_status) current.member.mg_status = answer.mg_status;
                }
                return;
              }
              const key = `${status} ${current.family} ${current.path.split('?')[0]}`;
              const seen = failures.get(key);
              if (seen) seen.count++;
              else failures.set(key, { count: 1, sample: body.slice(0, 200) });
            },
          },
        ],
      },
      (err: unknown, result: autocannon.Result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      const path = current.path.startsWith(PREFIX)
        ? current.path.slice(PREFIX.length)
        : current.path;
      samples.push({ target, family: current.family, path, ms, status });
      if (currentAction) currentAction.status = status;
    });
    instance.on('reqError', (err: unknown) => {
      const key = err instanceof Error ? err.message : String(err);
      errors.set(key, (errors.get(key) ?? 0) + 1);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Correctness: every event on every stream exactly once

interface Expectation {
  key: string;
  sentAt: number;
  source: 'webhook' | 'action';
}

function checkStreams(
  streams: Stream[],
  loadStart: number,
  expectations: Expectation[],
): {
  universe: Set<number>;
  lostIds: number;
  duplicated: number;
  unmatched: number;
  webhookDelivery: number[];
  actionDelivery: number[];
  perStream: { stream: Stream; received: number; lost: number; duplicated: number }[];
} {
  // Events emitted before the load (if any) may reach one stream before it starts and
  // another after: they are no part of the comparison.
  const before = new Set<number>();
  const universe = new Set<number>();
  for (const s of streams)
    for (const f of s.frames) (f.at < loadStart ? before : universe).add(f.id);
  for (const id of before) universe.delete(id);
  let lostIds = 0;
  let duplicated = 0;
  const perStream = streams.map((stream) => {
    const counts = new Map<number, number>();
    for (const f of stream.frames) counts.set(f.id, (counts.get(f.id) ?? 0) + 1);
    let lost = 0;
    let dup = 0;
    for (const id of universe) if (!counts.has(id)) lost++;
    for (const n of counts.values()) if (n > 1) dup += n - 1;
    lostIds += lost;
    duplicated += dup;
    return {
      stream,
      received: [...counts.keys()].filter((id) => universe.has(id)).length,
      lost,
      duplicated: dup,
    };
  });
  // Each webhook's and action's own events, on every stream, in send order: the first unused
  // frame of that type and customer read after the send.
  const webhookDelivery: number[] = [];
  const actionDelivery: number[] = [];
  let unmatched = 0;
  const ordered = [...expectations].sort((a, b) => a.sentAt - b.sentAt);
  for (const stream of streams) {
    const byKey = new Map<string, { at: number; used: boolean }[]>();
    for (const f of stream.frames) {
      if (!universe.has(f.id)) continue;
      const list = byKey.get(f.key) ?? [];
      list.push({ at: f.at, used: false });
      byKey.set(f.key, list);
    }
    for (const e of ordered) {
      const frame = byKey.get(e.key)?.find((f) => !f.used && f.at >= e.sentAt);
      if (!frame) {
        unmatched++;
        continue;
      }
      frame.used = true;
      (e.source === 'webhook' ? webhookDelivery : actionDelivery).push(frame.at - e.sentAt);
    }
  }
  return {
    universe,
    lostIds,
    duplicated,
    unmatched,
    webhookDelivery,
    actionDelivery,
    perStream,
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const setup = await setUp();
  const { targets } = setup;
  try {
    const ownerToken = await signIn(targets[0]!, setup.admin.email, setup.admin.password);
    console.log(`signing in ${OPERATORS} support operators…`);
    const tokens: string[] = [];
    for (let i = 0; i < OPERATORS; i++)
      tokens.push(
        await operatorSession(targets[i % targets.length]!, targets[0]!, ownerToken, i + 1),
      );
    const pools = await loadPools(targets[0]!, ownerToken);
    console.log(
      `data: ${pools.emails.length} customer emails, ${pools.lemon.length} active LemonSqueezy` +
        ` subscriptions, ${pools.lemonObjects.length} subscription objects, ${pools.receipts.length} receipts`,
    );

    const streams: Stream[] = [];
    for (let i = 0; i < STREAMS; i++) {
      // Stream i belongs to operator i's session (at most 5 per session), on its target.
      const op = i % Math.max(1, OPERATORS);
      streams.push(await openStream(i, targets[op % targets.length]!, tokens[op] ?? ownerToken));
    }
    await sleep(500);

    console.log(
      `load: ${LOAD_S} s, ${OPERATORS} operators, ${WEBHOOK_RPS} webhooks/s, ${STREAMS} streams, ` +
        `over ${targets.length} target(s)…`,
    );
    const samples: Sample[] = [];
    const actions: ActionSent[] = [];
    const sent: Sent[] = [];
    const failures = new Map<string, { count: number; sample: string }>();
    const errors = new Map<string, number>();
    const perTarget = new Map<string, number>();
    const loadAvgBefore = loadavg()[0]!;
    const cpuBefore = process.cpuUsage();
    const loadStart = performance.now();
    let operatorsEnd = loadStart;
    const [results] = await Promise.all([
      Promise.all(
        tokens.map((token, i) => {
          const target = targets[i % targets.length]!;
          // Each operator acts on its own customers, so two never race on one.
          const own = pools.members.filter((_, k) => k % tokens.length === i);
          // Paced operators start at random instants of the first second: started together,
          // each second's requests of all of them would arrive as one burst.
          const start = OPERATOR_RPS > 0 ? sleep(Math.random() * 1000) : Promise.resolve();
          return start
            .then(() => runOperator(target, token, pools, own, samples, actions, failures, errors))
            .then((r) => {
              perTarget.set(target, (perTarget.get(target) ?? 0) + r.requests.total);
              return r;
            });
        }),
      ).then((r) => {
        operatorsEnd = performance.now();
        return r;
      }),
      runWebhooks(targets, pools, setup.webhookSecret, sent),
    ]);
    const loadEnd = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    const loadAvgAfter = loadavg()[0]!;

    // Every expected event must reach every stream: wait for stragglers, at most 15 s.
    const expectations: Expectation[] = [
      ...sent.flatMap((w) =>
        w.expects.map((key) => ({ key, sentAt: w.sentAt, source: 'webhook' as const })),
      ),
      ...actions
        .filter((a) => a.status >= 200 && a.status < 300 && a.expects)
        .map((a) => ({ key: a.expects!, sentAt: a.sentAt, source: 'action' as const })),
    ];
    const drainDeadline = performance.now() + 15_000;
    for (;;) {
      const check = checkStreams(streams, loadStart, expectations);
      if (check.lostIds === 0 && check.unmatched === 0) break;
      if (performance.now() > drainDeadline) break;
      await sleep(250);
    }
    for (const s of streams) s.close();
    const check = checkStreams(streams, loadStart, expectations);

    // ---- report
    // Rates are over the operators' run; webhooks still queued at its end finish after it.
    const seconds = (operatorsEnd - loadStart) / 1000;
    const timeouts = results.reduce((s, r) => s + r.timeouts, 0);
    const errored = results.reduce((s, r) => s + r.errors, 0);
    console.log('');
    console.log(`Load test: ${setup.description}`);
    console.log(
      `${seconds.toFixed(1)} s (the last webhook answered ${((loadEnd - operatorsEnd) / 1000).toFixed(1)} s after), ` +
        `${OPERATORS} operators (one connection each, ${OPERATOR_RPS > 0 ? `at most ${OPERATOR_RPS} request(s) a second each` : 'back to back'}), ` +
        `${WEBHOOK_RPS} webhooks/s, ${STREAMS} streams; ms, nearest rank`,
    );
    // The generator shares the machine with the servers: its own CPU is part of the picture.
    console.log(
      `load average ${loadAvgBefore.toFixed(1)} → ${loadAvgAfter.toFixed(1)}; this load generator used ` +
        `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s of CPU (${((cpu.user + cpu.system) / 1e4 / seconds).toFixed(0)} % of a core)`,
    );
    console.log('');
    console.log(
      `${'family'.padEnd(30)} ${'count'.padStart(7)} ${'p50'.padStart(7)} ${'p95'.padStart(7)}` +
        ` ${'p99'.padStart(7)} ${'non-2xx'.padStart(8)}   goal`,
    );
    for (const { family, label, goalMs } of FAMILIES) {
      const rows = samples.filter((s) => s.family === family);
      const ms = rows.map((s) => s.ms);
      const p95 = percentile(ms, 95);
      const bad = rows.filter((s) => s.status < 200 || s.status >= 300).length;
      console.log(
        `${label.padEnd(30)} ${String(rows.length).padStart(7)} ${fmt(percentile(ms, 50)).padStart(7)}` +
          ` ${fmt(p95).padStart(7)} ${fmt(percentile(ms, 99)).padStart(7)} ${String(bad).padStart(8)}` +
          `   p95 ≤ ${goalMs}${rows.length > 0 && p95 > goalMs ? ' (over)' : ''}`,
      );
    }
    const allMs = samples.map((s) => s.ms);
    console.log(
      `${'all operator requests'.padEnd(30)} ${String(samples.length).padStart(7)} ${fmt(percentile(allMs, 50)).padStart(7)}` +
        ` ${fmt(percentile(allMs, 95)).padStart(7)} ${fmt(percentile(allMs, 99)).padStart(7)}` +
        ` ${String(samples.filter((s) => s.status < 200 || s.status >= 300).length).padStart(8)}`,
    );
    // Which requests make a family miss its goal: an expensive request alone, or any of them
    // waiting behind the others.
    for (const { family, label, goalMs } of FAMILIES) {
      const rows = samples.filter((s) => s.family === family);
      const ms = rows.map((s) => s.ms);
      if (rows.length === 0 || percentile(ms, 95) <= goalMs) continue;
      console.log(`  ${label}, slowest:`);
      for (const s of [...rows].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN))
        console.log(`    ${fmt(s.ms).padStart(8)}  ${s.path}`);
    }
    console.log('');
    const okWebhooks = sent.filter((w) => w.status === 200);
    const opRps = samples.length / seconds;
    const answeredInTime = sent.filter((w) => w.answeredAt <= operatorsEnd).length;
    console.log(
      `throughput: ${opRps.toFixed(1)} operator req/s + ${(answeredInTime / seconds).toFixed(1)} webhooks/s answered` +
        ` = ${((samples.length + answeredInTime) / seconds).toFixed(1)} req/s overall` +
        (OPERATOR_RPS > 0
          ? `   (paced: the operators' rate is set; compare instances back to back)`
          : `   (goal: two instances above one)`),
    );
    if (targets.length > 1)
      for (const t of targets) {
        const ms = samples.filter((x) => x.target === t).map((x) => x.ms);
        console.log(
          `  ${t}: ${((perTarget.get(t) ?? 0) / seconds).toFixed(1)} operator req/s,` +
            ` p50 ${fmt(percentile(ms, 50))} p95 ${fmt(percentile(ms, 95))}`,
        );
      }
    const ingest = okWebhooks.map((w) => w.answeredAt - w.sentAt);
    console.log(
      `webhook ingest (send → 2xx read): ${okWebhooks.length}/${sent.length} answered 200, ` +
        `p50 ${fmt(percentile(ingest, 50))} p95 ${fmt(percentile(ingest, 95))} p99 ${fmt(percentile(ingest, 99))}`,
    );
    const wd = check.webhookDelivery;
    const ad = check.actionDelivery;
    console.log(
      `delivery webhook → stream: ${wd.length} (event, stream) pairs, p50 ${fmt(percentile(wd, 50))}` +
        ` p95 ${fmt(percentile(wd, 95))} p99 ${fmt(percentile(wd, 99))} max ${fmt(wd.length > 0 ? Math.max(...wd) : NaN)}`,
    );
    console.log(
      `delivery action → stream:  ${ad.length} (event, stream) pairs, p50 ${fmt(percentile(ad, 50))}` +
        ` p95 ${fmt(percentile(ad, 95))} p99 ${fmt(percentile(ad, 99))}`,
    );
    const received = check.perStream.map((p) => p.received);
    const range =
      received.length > 0 ? `${Math.min(...received)}–${Math.max(...received)}` : '- (no stream)';
    console.log(
      `streams: ${check.universe.size} distinct events during the load; each stream received` +
        ` ${range}; lost ${check.lostIds}, duplicated ${check.duplicated},` +
        ` webhook/action events not seen ${check.unmatched} (all must be 0)`,
    );
    for (const p of check.perStream)
      if (p.lost > 0 || p.duplicated > 0 || p.stream.endedEarly)
        console.log(
          `  stream ${p.stream.index} (${p.stream.target}): received ${p.received}, lost ${p.lost},` +
            ` duplicated ${p.duplicated}${p.stream.endedEarly ? `, ${p.stream.endedEarly}` : ''}`,
        );

    const nonOk = samples.filter((s) => s.status < 200 || s.status >= 300).length;
    const webhookFailures = sent.length - okWebhooks.length;
    if (nonOk > 0 || timeouts > 0 || errored > 0 || errors.size > 0) {
      console.log(`\noperator errors: ${nonOk} non-2xx, ${errored} errors, ${timeouts} timeouts`);
      for (const [key, { count, sample }] of failures)
        console.log(`  ${count} × ${key}: ${sample}`);
      for (const [key, count] of errors) console.log(`  ${count} × ${key}`);
    }
    if (webhookFailures > 0) {
      console.log(`\nwebhook failures: ${webhookFailures}`);
      const byStatus = new Map<string, number>();
      for (const w of sent)
        if (w.status !== 200) {
          const key = `${w.status || 'no answer'} ${w.error ?? ''}`.slice(0, 160);
          byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
        }
      for (const [key, count] of byStatus) console.log(`  ${count} × ${key}`);
    }
    const failed =
      nonOk > 0 ||
      timeouts > 0 ||
      errored > 0 ||
      errors.size > 0 ||
      webhookFailures > 0 ||
      check.lostIds > 0 ||
      check.duplicated > 0 ||
      check.unmatched > 0 ||
      streams.some((s) => s.endedEarly);
    console.log(
      failed
        ? '\nFAILED: see above (correctness, not speed)'
        : '\nno errors, no event lost or duplicated',
    );
    return failed ? 1 : 0;
  } finally {
    await Promise.all(setup.servers.map((server) => server.stop()));
    if (setup.outdir) rmSync(setup.outdir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
