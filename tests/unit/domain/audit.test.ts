import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { toAuditEntry } from '../../../src/api/audit';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTION_FILTERS,
  AUDIT_LIST,
  auditPathForTarget,
  summariseAuditDetail,
  summariseUserAgent,
  type AuditEntry,
} from '../../../src/domain/audit';
import { AUDIT_CSV_COLUMNS, auditCsv, auditCsvFileName } from '../../../src/domain/audit-csv';
import { listQueryFromSearch, listRequestParams } from '../../../src/domain/list';

const ENTRY: AuditEntry = {
  id: '7',
  at: '2026-11-20T10:00:00.000Z',
  operatorEmail: 'support@example.com',
  action: 'access.revoke_now',
  target: 'ada@example.com',
  outcome: 'ok',
  ip: '203.0.113.7',
  userAgent: 'curl/8.4.0',
  detail: { before: { mg_status: 'active' }, after: { mg_status: 'cancelled' } },
};

describe('summariseAuditDetail', () => {
  it('shows the changed fields of a before/after pair only', () => {
    expect(
      summariseAuditDetail({
        before: { mg_status: 'active', expires_at: null, cadence: 'monthly' },
        after: { mg_status: 'cancelled', expires_at: '2026-12-01', cadence: 'monthly' },
      }),
    ).toBe('mg_status active → cancelled; expires_at none → 2026-12-01');
  });

  it("reads a field's own before/after, plain fields and a truncation note", () => {
    expect(summariseAuditDetail({ role: { before: 'viewer', after: 'admin' } })).toBe(
      'role viewer → admin',
    );
    expect(summariseAuditDetail({ code: 'FORBIDDEN', n: 2, list: [1] })).toBe(
      'code: FORBIDDEN; n: 2; list: [1]',
    );
    expect(summariseAuditDetail({ truncated: true, excerpt: '{"a":' })).toBe('(truncated) {"a":');
    expect(summariseAuditDetail({ before: { a: 1 }, after: { a: 1 } })).toBe('no change');
  });

  it('is null for nothing to show, and never throws on arbitrary JSON', () => {
    expect(summariseAuditDetail(null)).toBeNull();
    expect(summariseAuditDetail({})).toBeNull();
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const summary = summariseAuditDetail(value);
        expect(summary === null || typeof summary === 'string').toBe(true);
      }),
      { seed: 23 },
    );
  });
});

describe('summariseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome 131 on macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      'Edge 131 on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
      'Safari 17 on iOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Firefox 133 on Linux',
    ],
    ['curl/8.4.0', 'curl 8.4'],
    ['SomeBot/1.0 (+https://example.com)', 'SomeBot/1.0'],
  ])('%s → %s', (ua, expected) => {
    expect(summariseUserAgent(ua)).toBe(expected);
  });

  it('is null without a user agent', () => {
    expect(summariseUserAgent(null)).toBeNull();
    expect(summariseUserAgent('  ')).toBeNull();
  });
});

describe('the Audit list', () => {
  it('offers each group before its own actions, and every known action', () => {
    expect(AUDIT_ACTION_FILTERS.slice(0, 2)).toEqual(['auth', 'auth.login']);
    for (const action of AUDIT_ACTIONS) expect(AUDIT_ACTION_FILTERS).toContain(action);
    expect(AUDIT_ACTION_FILTERS.filter((a) => !a.includes('.'))).toEqual([
      'auth',
      'operator',
      'access',
      'maintenance',
      'subscriptions',
      'webhook',
      'reconcile',
      'forum',
    ]);
  });

  it('sends the filters under their wire names, the range as UTC date-times', () => {
    const q = listQueryFromSearch(
      AUDIT_LIST,
      new URLSearchParams(
        'operator=%20a%40example.com%20&action=access&target=b%40example.com&from=2026-11-01T00%3A00&to=2026-11-20T12%3A30&pageSize=200',
      ),
    );
    expect(listRequestParams(AUDIT_LIST, q)).toEqual({
      page: '1',
      pageSize: '200',
      operator: 'a@example.com',
      action: 'access',
      target: 'b@example.com',
      from: '2026-11-01 00:00:00',
      to: '2026-11-20 12:30:00',
    });
  });

  it('links to the Audit screen filtered by a target', () => {
    expect(auditPathForTarget('ada+x@example.com')).toBe('/audit?target=ada%2Bx%40example.com');
  });
});

describe('toAuditEntry', () => {
  it('normalises a wire row; an unknown outcome reads as failed', () => {
    expect(
      toAuditEntry(
        {
          id: 9,
          at: '2026-11-20T10:00:00.000Z',
          operator_email: null,
          action: 'auth.login_failed',
          target: 'a@example.com',
          outcome: 'weird',
          ip: '192.0.2.1',
          user_agent: null,
        },
        0,
      ),
    ).toEqual({
      id: '9',
      at: '2026-11-20T10:00:00.000Z',
      operatorEmail: null,
      action: 'auth.login_failed',
      target: 'a@example.com',
      outcome: 'failed',
      ip: '192.0.2.1',
      userAgent: null,
      detail: null,
    });
  });
});

describe('the audit CSV', () => {
  it('names the file after the range, without colons', () => {
    expect(auditCsvFileName('2026-11-01T00:00', '2026-11-20T12:30')).toBe(
      'audit-2026-11-01T0000-2026-11-20T1230.csv',
    );
    expect(auditCsvFileName('', '')).toBe('audit-start-now.csv');
    expect(auditCsvFileName('../etc', '')).toBe('audit-start-now.csv');
  });

  it('writes the wire columns, the detail as JSON, and neutralises formula-like text', () => {
    const csv = auditCsv([{ ...ENTRY, target: '=cmd|calc', userAgent: '@evil' }]);
    const [header, row] = csv.split('\r\n');
    expect(header).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(Papa.parse<string[]>(row!).data[0]).toEqual([
      '7',
      '2026-11-20T10:00:00.000Z',
      'support@example.com',
      'access.revoke_now',
      "'=cmd|calc",
      'ok',
      '203.0.113.7',
      "'@evil",
      '{"before":{"mg_status":"active"},"after":{"mg_status":"cancelled"}}',
    ]);
    expect(auditCsv([])).toBe(AUDIT_CSV_COLUMNS.join(','));
  });

  it('never lets a cell start a formula, whatever the text (fast-check)', () => {
    const text = fc.option(fc.string({ maxLength: 12 }), { nil: null });
    fc.assert(
      fc.property(text, text, text, (target, operator, userAgent) => {
        const csv = auditCsv([{ ...ENTRY, target, operatorEmail: operator, userAgent }]);
        const rows = Papa.parse<string[]>(csv, { newline: '\r\n' }).data.slice(1);
        for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
      { seed: 23 },
    );
  });
});
