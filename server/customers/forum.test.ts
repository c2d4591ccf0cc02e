/** The forum state rule of server/customers/forum.ts, on hand-made job histories. */
import { describe, expect, it } from 'vitest';
import type { DiscourseOutcome } from '../discourse/client';
import { customerForum, type ForumJobRowView } from './forum';

const T0 = Date.parse('2026-11-20T12:00:00Z');
let nextId = 1;

/** A job (newest-first lists are built by the tests) finished `minutes` after T0. */
function job(
  action: 'grant' | 'revoke',
  state: ForumJobRowView['state'],
  outcome: DiscourseOutcome | null,
  minutes: number,
): ForumJobRowView {
  const at = new Date(T0 + minutes * 60_000);
  return {
    id: nextId++,
    action,
    reason: `access.${action}`,
    state,
    attempts: 1,
    last_error: state === 'failed' ? 'Discourse answered HTTP 422' : null,
    created_at: at,
    next_attempt_at: at,
    last_attempt_at: at,
    finished_at: state === 'pending' ? null : at,
    outcome,
  };
}

const SENT: DiscourseOutcome = { ok: true, status: 200 };
const INVITED: DiscourseOutcome = { ok: true, invited: true, groupId: 42, status: 200 };
const SKIPPED: DiscourseOutcome = { skipped: true, reason: 'Discourse not configured' };
const FAILED: DiscourseOutcome = { ok: false, status: 422, error: 'Discourse answered HTTP 422' };

describe('customerForum', () => {
  it('member: access granted and confirmed, or nothing asked of the forum yet', () => {
    expect(customerForum([], true).state).toBe('member');
    expect(customerForum([job('grant', 'done', SENT, 1)], true).state).toBe('member');
    expect(customerForum([job('grant', 'done', SKIPPED, 1)], true).state).toBe('member');
  });

  it('none: no access and the forum confirmed the latest change', () => {
    expect(customerForum([], false).state).toBe('none');
    expect(
      customerForum([job('revoke', 'done', SENT, 2), job('grant', 'done', SENT, 1)], false).state,
    ).toBe('none');
  });

  it('unknown: the latest job is pending or failed', () => {
    expect(customerForum([job('grant', 'pending', null, 2)], true).state).toBe('unknown');
    expect(
      customerForum([job('grant', 'failed', FAILED, 2), job('grant', 'done', SENT, 1)], true).state,
    ).toBe('unknown');
  });

  it('invited: the latest answered grant invited the address; invitations say what became of them', () => {
    const first = job('grant', 'done', INVITED, 1);
    const again = job('grant', 'done', INVITED, 2);
    const found = job('grant', 'done', SENT, 3);
    const withdrawn = job('revoke', 'done', SENT, 4);
    const pending = job('grant', 'done', INVITED, 5);
    const skipped = job('grant', 'done', SKIPPED, 6);
    const forum = customerForum([skipped, pending, withdrawn, found, again, first], true);
    expect(forum.state).toBe('invited');
    expect(forum.username).toBeNull();
    expect(forum.invites.map((i) => i.status)).toEqual(['pending', 'accepted', 'resent']);
    expect(forum.invites[0]).toEqual({
      created_at: new Date(T0 + 5 * 60_000).toISOString(),
      expires_at: null,
      status: 'pending',
    });
    expect(forum.jobs.map((j) => j.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'sent',
      'sent',
      'sent',
    ]);
  });

  it('a revoke after an invitation withdraws it', () => {
    const forum = customerForum(
      [job('revoke', 'done', SENT, 2), job('grant', 'done', INVITED, 1)],
      false,
    );
    expect(forum.state).toBe('none');
    expect(forum.invites.map((i) => i.status)).toEqual(['withdrawn']);
  });
});
