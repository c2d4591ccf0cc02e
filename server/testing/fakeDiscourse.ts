/**
 * A fake Discourse HTTP server on 127.0.0.1 (random port) for tests: records every request
 * (method, path with query, headers, parsed JSON body) and answers with what the test's `reply`
 * function returns — or never answers ('hang'), to exercise time-outs. Loopback only.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received. `body` is the parsed JSON body, or null when empty. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the fake answers: a status and a JSON body, or 'hang' (never answer). */
export type FakeReply = { status: number; body: unknown } | 'hang';

/** A running fake: its base URL, the recorded requests, and close(). */
export interface FakeDiscourse {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts the fake with `reply(request)` deciding each answer. */
export async function startFakeDiscourse(
  reply: (req: RecordedRequest) => FakeReply,
): Promise<FakeDiscourse> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const answer = reply(recorded);
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One pending invite of the fake forum (what `GET /u/{user}/invited.json` lists). */
export interface FakeInvite {
  id: number;
  email: string;
  group_ids: number[];
}

/**
 * A stateful forum behind the fake: accounts by email, the members of the
 * access group and the pending invites, answering the calls of server/discourse/client.ts like
 * Discourse does. `faults` are answered first, one per request, in order (e.g. a 429 with
 * `extras.wait_seconds`, a 503), so a test can make the forum fail and then recover. `effects`
 * lists every change the forum applied, e.g. 'grant ada@example.com', 'invite new@example.com',
 * 'revoke ada@example.com', 'uninvite new@example.com' — the order a test checks.
 */
export interface FakeForum {
  reply: (req: RecordedRequest) => FakeReply;
  /** Accounts: email (lower-case) → username. */
  accounts: Map<string, string>;
  /** Usernames in the access group. */
  members: Set<string>;
  invites: FakeInvite[];
  faults: FakeReply[];
  effects: string[];
}

/** Builds a FakeForum for group `groupId` with `accounts` (email → username) and no members. */
export function fakeForum(accounts: Record<string, string> = {}, groupId = 42): FakeForum {
  const forum: FakeForum = {
    reply: () => ({ status: 500, body: {} }),
    accounts: new Map(Object.entries(accounts).map(([e, u]) => [e.toLowerCase(), u])),
    members: new Set<string>(),
    invites: [],
    faults: [],
    effects: [],
  };
  let nextInvite = 1;
  const emailOf = (username: string) =>
    [...forum.accounts].find(([, u]) => u === username)?.[0] ?? username;
  forum.reply = (req) => {
    const fault = forum.faults.shift();
    if (fault) return fault;
    const url = new URL(req.path, 'http://fake');
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (req.method === 'GET' && url.pathname === '/admin/users/list/active.json') {
      const email = (url.searchParams.get('email') ?? '').toLowerCase();
      const username = forum.accounts.get(email);
      return { status: 200, body: username ? [{ id: 1, username, email }] : [] };
    }
    if (req.method === 'GET' && /^\/u\/[^/]+\/invited\.json$/.test(url.pathname)) {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const invites = forum.invites.filter((i) => i.email.toLowerCase().includes(search));
      return { status: 200, body: { invites, can_see_invite_details: true } };
    }
    if (req.method === 'DELETE' && url.pathname === '/invites.json') {
      const at = forum.invites.findIndex((i) => i.id === Number(body.id));
      if (at < 0)
        return { status: 400, body: { errors: ['invalid id'], error_type: 'invalid_parameters' } };
      const [gone] = forum.invites.splice(at, 1);
      forum.effects.push(`uninvite ${gone?.email ?? ''}`);
      return { status: 200, body: { success: 'OK' } };
    }
    if (req.method === 'POST' && url.pathname === '/invites.json') {
      const email = String(body.email ?? '').toLowerCase();
      if (forum.invites.some((i) => i.email === email))
        return { status: 422, body: { failed: 'FAILED' } };
      forum.invites.push({ id: nextInvite++, email, group_ids: [groupId] });
      forum.effects.push(`invite ${email}`);
      return { status: 200, body: { id: nextInvite - 1, email } };
    }
    if (url.pathname === `/groups/${groupId}/members.json`) {
      const username = String(body.usernames ?? '');
      if (req.method === 'PUT') {
        forum.members.add(username);
        forum.effects.push(`grant ${emailOf(username)}`);
        return { status: 200, body: { success: 'OK', usernames: [username] } };
      }
      if (req.method === 'DELETE') {
        forum.members.delete(username);
        forum.effects.push(`revoke ${emailOf(username)}`);
        return { status: 200, body: { success: 'OK', usernames: [username] } };
      }
    }
    return { status: 404, body: { errors: ['not found'], error_type: 'not_found' } };
  };
  return forum;
}
