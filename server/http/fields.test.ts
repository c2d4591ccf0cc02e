import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors';
import { parseJsonBody, validate } from './body';
import {
  checkDateRanges,
  dateRangeParams,
  dateTimeField,
  emailField,
  emailParam,
  enumParam,
  pageParams,
  plainText,
  providerStatusParam,
  rangeOf,
  rowIdParam,
  signedSortParam,
  textParam,
  utcDateParam,
} from './fields';

/** The ApiError `fn` throws (fails the test when it does not throw one). */
function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('query fields', () => {
  const list = z
    .object({
      ...pageParams(200, 50),
      sort: signedSortParam('sort', ['email', 'updated_at'] as const, {
        key: 'updated_at',
        dir: 'desc',
      }),
      row_id: rowIdParam(),
      email: textParam('email', 10),
      provider: enumParam('provider', ['lemonsqueezy', 'clickbank'] as const),
      provider_status: providerStatusParam('provider_status'),
      ...dateRangeParams('start'),
    })
    .superRefine(checkDateRanges(['start']));

  it('applies defaults; blank values count as absent', () => {
    const v = validate(list, { page: ' ', email: '', provider: '  ' });
    expect(v).toMatchObject({
      page: 1,
      pageSize: 50,
      sort: { key: 'updated_at', dir: 'desc' },
      email: undefined,
      provider: undefined,
    });
    expect(rangeOf(v, 'start')).toEqual({ from: null, toExclusive: null });
  });

  it('parses every field', () => {
    const v = validate(list, {
      page: '3',
      pageSize: '200',
      sort: '-email',
      row_id: '17',
      email: ' Ada ',
      provider: 'ClickBank',
      provider_status: 'Trialing',
      start_from: '2026-11-01',
      start_to: '2026-11-02 10:00:00',
      unknown: 'ignored',
    });
    expect(v).toMatchObject({
      page: 3,
      pageSize: 200,
      sort: { key: 'email', dir: 'desc' },
      row_id: 17,
      email: 'Ada',
      provider: 'clickbank',
    });
    expect(v.provider_status).toEqual(['trialing', 'on_trial']);
    expect(rangeOf(v, 'start')).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      toExclusive: new Date('2026-11-02T10:00:00.001Z'),
    });
    expect(validate(list, { sort: 'email' }).sort).toEqual({ key: 'email', dir: 'asc' });
    expect(rangeOf(validate(list, { start_to: '2026-11-02' }), 'start').toExclusive).toEqual(
      new Date('2026-11-03T00:00:00Z'),
    );
  });

  it.each([
    [{ page: '0' }, 'page', "page must be a whole number from 1 to 1000000 (got '0')"],
    [{ pageSize: '201' }, 'pageSize', "pageSize must be a whole number from 1 to 200 (got '201')"],
    [{ pageSize: '1e3' }, 'pageSize', "pageSize must be a whole number from 1 to 200 (got '1e3')"],
    [
      { sort: 'name' },
      'sort',
      "sort must be one of email, updated_at, optionally prefixed with '-' for descending (got 'name')",
    ],
    [{ row_id: '0' }, 'row_id', "row_id must be a positive whole number (got '0')"],
    [{ email: 'x'.repeat(11) }, 'email', 'email must be at most 10 characters'],
    [
      { provider: 'paddle' },
      'provider',
      "provider must be one of lemonsqueezy, clickbank (got 'paddle')",
    ],
    [
      { provider_status: 'act ive' },
      'provider_status',
      "provider_status must be a status word such as active, trialing, paused, past_due or cancelled (got 'act ive')",
    ],
    [
      { start_from: '2026-02-30' },
      'start_from',
      "start_from must be a UTC date 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (got '2026-02-30')",
    ],
    [
      { start_from: '2026-11-03', start_to: '2026-11-02' },
      'start_from',
      'start_from (2026-11-03) is after start_to (2026-11-02)',
    ],
  ])('%j → 400 naming %s', (input, path, message) => {
    const err = apiError(() => validate(list, input));
    expect(err.status).toBe(400);
    expect(err.code).toBe('bad_request');
    expect(err.message).toBe(message);
    expect(err.extra).toEqual({ issues: [{ path, message }] });
  });

  it('lists every problem at once, joined in the message', () => {
    const err = apiError(() => validate(list, { page: 'x', provider: 'paddle' }));
    expect((err.extra.issues as { path: string }[]).map((i) => i.path)).toEqual([
      'page',
      'provider',
    ]);
    expect(err.message).toBe(
      "page must be a whole number from 1 to 1000000 (got 'x'); provider must be one of lemonsqueezy, clickbank (got 'paddle')",
    );
  });

  it('emailParam normalises an address and names a bad one', () => {
    const s = z.object({ email: emailParam() });
    expect(validate(s, { email: ' Ada@Example.COM ' }).email).toBe('ada@example.com');
    expect(apiError(() => validate(s, { email: 'bob' })).message).toBe(
      "email must be an email address (got 'bob')",
    );
  });
});

describe('body fields', () => {
  const body = z.object({ email: emailField(), until: dateTimeField('until') });

  it('parses a valid body', () => {
    expect(validate(body, { email: ' A@B.co ', until: '2027-01-02 03:04:05', extra: 1 })).toEqual({
      email: 'a@b.co',
      until: new Date('2027-01-02T03:04:05Z'),
    });
  });

  it.each([
    [{ until: '2027-01-01' }, [{ path: 'email', message: 'email is required' }]],
    [{ email: null, until: '2027-01-01' }, [{ path: 'email', message: 'email is required' }]],
    [{ email: 42, until: '2027-01-01' }, [{ path: 'email', message: 'email must be a string' }]],
    [
      { email: 'a@b.co' },
      [{ path: 'until', message: "until is required (UTC 'YYYY-MM-DD HH:MM:SS')" }],
    ],
    [
      { email: 'a@b.co', until: 5 },
      [{ path: 'until', message: "until must be a string (UTC 'YYYY-MM-DD HH:MM:SS')" }],
    ],
    [
      { email: 'nope', until: 'soon' },
      [
        { path: 'email', message: "'nope' is not an email address" },
        {
          path: 'until',
          message: "until must be a UTC date-time 'YYYY-MM-DD HH:MM:SS' (got 'soon')",
        },
      ],
    ],
  ])('%j → 400 with issues %j', (input, issues) => {
    const err = apiError(() => validate(body, input));
    expect(err.status).toBe(400);
    expect(err.extra).toEqual({ issues });
  });

  it('prefixes a sentence that does not name its field with the path', () => {
    const err = apiError(() => validate(z.object({ password: z.string() }), {}));
    expect(err.message).toMatch(/^password: /);
  });
});

describe('parseJsonBody', () => {
  const app = (required: boolean) => {
    const a = new Hono();
    a.post('/', async (c) =>
      c.json(await parseJsonBody(c, z.object({ n: z.number().optional() }), { required })),
    );
    a.onError((err, c) => c.json({ status: (err as ApiError).status, message: err.message }));
    return a;
  };
  const post = async (required: boolean, body: string) =>
    (await app(required).request('/', { method: 'POST', body })).json();

  it('reads an object, an empty body as {} unless required', async () => {
    expect(await post(false, '{"n":1}')).toEqual({ n: 1 });
    expect(await post(false, '')).toEqual({});
    expect(await post(true, ' ')).toEqual({
      status: 400,
      message: 'A JSON object body is required',
    });
  });

  it.each([
    ['{', 'The body is not valid JSON'],
    ['[1]', 'The body must be a JSON object'],
    ['null', 'The body must be a JSON object'],
    ['{"n":"1"}', 'n: Invalid input: expected number, received string'],
  ])('%s → 400 %s', async (body, message) => {
    expect(await post(false, body)).toEqual({ status: 400, message });
  });
});

describe('the boundary rule (plainText) and the date years', () => {
  const messages = (schema: z.ZodType, input: unknown) => {
    const r = schema.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it.each(['a\u0000b', '\u0001', 'x\u001b[2J', 'tab\there', 'line\nbreak', 'cr\r', 'del\u007f'])(
    'refuses %j in a field that allows no line space',
    (text) => {
      expect(messages(plainText('name'), text)).toEqual([
        'name must not contain control characters',
      ]);
    },
  );

  it('lets tab, newline and CR through only where the field allows line space', () => {
    const multi = plainText('q', { allowLineSpace: true });
    expect(multi.parse('a\tb\r\nc')).toBe('a\tb\r\nc');
    expect(messages(multi, 'a\u0000b')).toEqual(['q must not contain control characters']);
  });

  it('refuses unpaired surrogates, keeps pairs and other text', () => {
    expect(messages(plainText('name'), 'x\ud800y')).toEqual([
      'name must be well-formed Unicode text',
    ]);
    expect(messages(plainText('name'), '\udc00')).toEqual([
      'name must be well-formed Unicode text',
    ]);
    expect(plainText('name').parse('😀 é \u2028 __proto__')).toBe('😀 é \u2028 __proto__');
    expect(messages(plainText('name'), 42)).toEqual(['name must be a string']);
  });

  it('applies to every query builder before its own checks', () => {
    const q = z.object({
      page: pageParams(50, 10).page,
      email: textParam('email'),
      start: utcDateParam('start'),
      status: providerStatusParam('status'),
    });
    for (const field of ['page', 'email', 'start', 'status']) {
      const err = apiError(() => validate(q, { [field]: '1\u0000' }));
      expect(err.extra.issues).toEqual([
        { path: field, message: `${field} must not contain control characters` },
      ]);
    }
  });

  it('holds dates to 1970-01-01 … 2100-12-31 UTC', () => {
    const start = z.object({ start: utcDateParam('start') });
    expect(validate(start, { start: '1970-01-01' }).start?.at.toISOString()).toBe(
      '1970-01-01T00:00:00.000Z',
    );
    expect(validate(start, { start: '2100-12-31 23:59:59' }).start?.hasTime).toBe(true);
    // Years below 100 are not even read as dates (Date.UTC would move them to the 1900s).
    expect(apiError(() => validate(start, { start: '0000-01-01' })).status).toBe(400);
    for (const text of ['1969-12-31 23:59:59', '2101-01-01', '9999-12-31 23:59:59', '0100-01-01']) {
      expect(apiError(() => validate(start, { start: text })).message).toBe(
        `start must be a date from 1970-01-01 to 2100-12-31 UTC (got '${text}')`,
      );
    }
    const body = z.object({ until: dateTimeField('until') });
    expect(apiError(() => validate(body, { until: '9999-12-31 23:59:59' })).message).toContain(
      'until must be a date from 1970-01-01 to 2100-12-31 UTC',
    );
  });

  it('an email field refuses a NUL rather than passing it to the database', () => {
    const body = z.object({ email: emailField() });
    expect(apiError(() => validate(body, { email: 'a\u0000b@example.com' })).message).toBe(
      'email must not contain control characters',
    );
  });
});
