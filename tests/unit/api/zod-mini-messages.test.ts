/**
 * The console validates answers with `zod/mini` (src/api/zod.ts), which has no messages of its
 * own: the English locale configured there keeps MalformedResponseError's issues
 * ('<path>: <message>') word for word what the full zod build writes. This file imports no
 * full `zod` (whose import would configure the same locale and hide a regression).
 */
import { describe, expect, it } from 'vitest';
import { subscriptionsPageSchema } from '../../../src/api/subscriptions';
import { usersPageSchema } from '../../../src/api/users';

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);

describe('zod/mini at the boundary', () => {
  it("reports malformed answers with zod's English messages", () => {
    expect(issues(usersPageSchema.safeParse(null))).toEqual([
      '(root): Invalid input: expected object, received null',
    ]);
    expect(issues(usersPageSchema.safeParse({ rows: 3 }))).toEqual([
      'rows: Invalid input: expected array, received number',
    ]);
    expect(
      issues(usersPageSchema.safeParse({ rows: [{ row_id: 'x', email: 5 }, { row_id: 2 }] })),
    ).toEqual([
      'rows.0.row_id: Invalid input: expected number, received NaN',
      'rows.0.email: Invalid input: expected string, received number',
      'rows.1.email: Invalid input: expected string, received undefined',
    ]);
    expect(issues(subscriptionsPageSchema.safeParse({ rows: [null] }))).toEqual([
      'rows.0: Invalid input: expected object, received null',
    ]);
  });

  it('stays lenient where the wire is lenient (numeric strings, wrong kinds read as null)', () => {
    const page = subscriptionsPageSchema.parse({
      rows: [{ row_id: '17', email: 'a@example.com', amount: '12.5', provider: 5 }],
    });
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ rowId: 17, amountCents: 13, provider: '5', name: null });
  });
});
