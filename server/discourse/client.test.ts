import { afterEach, describe, expect, it } from 'vitest';
import { discourseConfig } from '../testing/app';
import {
  startFakeDiscourse,
  type FakeDiscourse,
  type FakeReply,
  type RecordedRequest,
} from '../testing/fakeDiscourse';
import { DiscourseClient, syncForumAccess } from './client';

let fake: FakeDiscourse | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

/**
 * Routes the fake: the user lookup answers `users`, the pending-invite list answers `invites`;
 * every other call answers `other`.
 */
function forum(
  users: unknown[],
  other: FakeReply,
  invites: unknown[] = [],
): (req: RecordedRequest) => FakeReply {
  return (req) =>
    req.path.startsWith('/admin/users/list/')
      ? { status: 200, body: users }
      : req.path.startsWith('/u/system/invited.json')
        ? { status: 200, body: { invites } }
        : other;
}

function expectApiHeaders(req: RecordedRequest | undefined) {
  expect(req?.headers['api-key']).toBe('test-key');
  expect(req?.headers['api-username']).toBe('system');
}

describe('DiscourseClient.grant', () => {
  it('adds an existing forum account to the group with PUT /groups/{id}/members.json', async () => {
    fake = await startFakeDiscourse(
      forum([{ id: 7, username: 'ada_l', email: 'ada@example.com' }], {
        status: 200,
        body: { success: 'OK', usernames: ['ada_l'] },
      }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).grant('ada@example.com');
    expect(out).toEqual({ ok: true, status: 200 });
    expect(fake.requests).toHaveLength(2);
    const [lookup, put] = fake.requests;
    expect(lookup?.method).toBe('GET');
    expect(lookup?.path).toBe(
      '/admin/users/list/active.json?email=ada%40example.com&show_emails=true',
    );
    expectApiHeaders(lookup);
    expect(put?.method).toBe('PUT');
    expect(put?.path).toBe('/groups/42/members.json');
    expect(put?.headers['content-type']).toBe('application/json');
    expect(put?.body).toEqual({ usernames: 'ada_l' });
    expectApiHeaders(put);
  });

  it('invites an address without a forum account into the group with POST /invites.json', async () => {
    fake = await startFakeDiscourse(
      forum([], { status: 200, body: { id: 1, link: 'https://forum/invites/x' } }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url, { groupId: 9 })).grant(
      'new@example.com',
    );
    expect(out).toEqual({ ok: true, invited: true, groupId: 9, status: 200 });
    const invite = fake.requests[1];
    expect(invite?.method).toBe('POST');
    expect(invite?.path).toBe('/invites.json');
    expect(invite?.body).toEqual({ email: 'new@example.com', group_ids: '9' });
    expectApiHeaders(invite);
  });

  it('ignores lookup rows whose shown email differs (invites instead)', async () => {
    fake = await startFakeDiscourse(
      forum([{ username: 'other', email: 'other@example.com' }], { status: 200, body: {} }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).grant('ada@example.com');
    expect(out).toMatchObject({ ok: true, invited: true });
  });

  it('reports a 422 with the errors joined and the errors array under payload', async () => {
    fake = await startFakeDiscourse(
      forum([{ username: 'ada_l', email: 'ada@example.com' }], {
        status: 422,
        body: {
          errors: ['Usernames or emails must be present', 'second'],
          error_type: 'invalid_parameters',
        },
      }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).grant('ada@example.com');
    expect(out).toEqual({
      ok: false,
      status: 422,
      error: 'Usernames or emails must be present; second',
      payload: { errors: ['Usernames or emails must be present', 'second'] },
    });
  });

  it('counts add_members 422 "already a member of this group" as a grant done', async () => {
    for (const message of [
      "'ada_l' is already a member of this group.",
      'ada_l is already a member of this group.',
      'The following users are already members of this group: ada_l',
    ]) {
      await fake?.close();
      fake = await startFakeDiscourse(
        forum([{ username: 'ada_l', email: 'ada@example.com' }], {
          status: 422,
          body: { errors: [message], error_type: 'invalid_parameters' },
        }),
      );
      const out = await new DiscourseClient(discourseConfig(fake.url)).grant('ada@example.com');
      expect(out, message).toEqual({ ok: true, status: 422 });
    }
  });

  it('counts POST /invites.json 422 for an address that already has an invite as invited', async () => {
    fake = await startFakeDiscourse(
      forum([], {
        status: 422,
        body: {
          errors: ['An invite to new@example.com already exists.'],
          error_type: 'invalid_parameters',
        },
      }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url, { groupId: 9 })).grant(
      'new@example.com',
    );
    expect(out).toEqual({ ok: true, invited: true, groupId: 9, status: 422 });
  });

  it('still reports an invite 422 that is not about an existing invite', async () => {
    fake = await startFakeDiscourse(
      forum([], { status: 422, body: { errors: ['Email is invalid'] } }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).grant('new@example.com');
    expect(out).toMatchObject({ ok: false, status: 422, error: 'Email is invalid' });
  });

  it('reports a 429 with the wait in seconds from extras.wait_seconds', async () => {
    fake = await startFakeDiscourse(() => ({
      status: 429,
      body: {
        errors: ['You’ve performed this action too many times.'],
        error_type: 'rate_limit',
        extras: { wait_seconds: 37 },
      },
    }));
    const out = await new DiscourseClient(discourseConfig(fake.url)).grant('ada@example.com');
    expect(out).toMatchObject({ ok: false, status: 429, wait_seconds: 37 });
    expect(out).toHaveProperty(
      'error',
      'You’ve performed this action too many times. (rate limited; retry after 37 s)',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up after timeoutMs when Discourse never answers', async () => {
    fake = await startFakeDiscourse(() => 'hang');
    const started = Date.now();
    const out = await new DiscourseClient(discourseConfig(fake.url, { timeoutMs: 150 })).grant(
      'ada@example.com',
    );
    expect(out).toEqual({ ok: false, status: null, error: 'Discourse timed out after 150 ms' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a network error (nothing listening) without throwing', async () => {
    fake = await startFakeDiscourse(() => ({ status: 200, body: [] }));
    const url = fake.url;
    await fake.close();
    fake = null;
    const out = await new DiscourseClient(discourseConfig(url)).grant('ada@example.com');
    expect(out).toMatchObject({ ok: false, status: null });
    expect((out as { error: string }).error).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('reports a non-JSON error body by its text or status', async () => {
    fake = await startFakeDiscourse(() => ({ status: 500, body: 'boom' }));
    const out = await new DiscourseClient(discourseConfig(fake.url)).grant('ada@example.com');
    expect(out).toEqual({ ok: false, status: 500, error: '"boom"' });
  });
});

describe('DiscourseClient.revoke', () => {
  it('removes the account from the group with DELETE /groups/{id}/members.json', async () => {
    fake = await startFakeDiscourse(
      forum([{ username: 'ada_l', email: 'ada@example.com' }], {
        status: 200,
        body: { success: 'OK' },
      }),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).revoke('ada@example.com');
    expect(out).toEqual({ ok: true, status: 200 });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /admin/users/list/active.json?email=ada%40example.com&show_emails=true',
      'GET /u/system/invited.json?filter=pending&search=ada%40example.com',
      'DELETE /groups/42/members.json',
    ]);
    const del = fake.requests[2];
    expect(del?.body).toEqual({ usernames: 'ada_l' });
    expectApiHeaders(del);
    expectApiHeaders(fake.requests[1]);
  });

  it('withdraws the pending invites of exactly that address (DELETE /invites.json {id})', async () => {
    fake = await startFakeDiscourse(
      forum([], { status: 200, body: { success: 'OK' } }, [
        { id: 11, email: 'new@example.com' },
        { id: 12, email: 'renew@example.com' },
        { id: 13, email: 'NEW@example.com' },
      ]),
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).revoke('new@example.com');
    expect(out).toEqual({ ok: true, status: 200, invites_removed: 2 });
    const deletes = fake.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => [r.path, r.body])).toEqual([
      ['/invites.json', { id: 11 }],
      ['/invites.json', { id: 13 }],
    ]);
  });

  it('reports which step failed when the invite list is refused', async () => {
    fake = await startFakeDiscourse((req) =>
      req.path.startsWith('/admin/users/list/')
        ? { status: 200, body: [] }
        : {
            status: 403,
            body: { errors: ['You are not permitted to view the requested resource.'] },
          },
    );
    const out = await new DiscourseClient(discourseConfig(fake.url)).revoke('x@example.com');
    expect(out).toMatchObject({
      ok: false,
      status: 403,
      error:
        'Listing pending invites failed: You are not permitted to view the requested resource.',
    });
  });

  it('skips with "No forum account" when the address has no account and no invite', async () => {
    fake = await startFakeDiscourse(forum([], { status: 500, body: {} }));
    const out = await new DiscourseClient(discourseConfig(fake.url)).revoke('ghost@example.com');
    expect(out).toEqual({ skipped: true, reason: 'No forum account' });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('syncForumAccess', () => {
  it('skips without calling anything when Discourse is not configured', async () => {
    expect(await syncForumAccess(null, 'grant', 'ada@example.com')).toEqual({
      skipped: true,
      reason: 'Discourse not configured',
    });
  });
});
