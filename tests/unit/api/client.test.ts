import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ApiError,
  MalformedResponseError,
  apiRequest,
  apiRequestFirstFound,
  apiUrl,
  errorMessageFromResponse,
  isAbortError,
  onUnauthorized,
  toQueryString,
} from '../../../src/api/client';
import { getToken, setToken } from '../../../src/api/token';
import { TOKEN_STORAGE_KEY } from '../../../src/domain/types';
import { api } from '../../msw/handlers';
import { TEST_PREFIX, recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

const okJson = (body: Record<string, unknown> = { ok: true }) =>
  http.all(api('/echo'), () => HttpResponse.json(body));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to reject');
}

describe('URLs and query parameters (§5, §7)', () => {
  it('joins the configured prefix and the path, adding a missing slash', () => {
    expect(apiUrl('/users')).toBe(`${TEST_PREFIX}/users`);
    expect(apiUrl('maintenance/ping')).toBe(`${TEST_PREFIX}/maintenance/ping`);
  });

  it("reads the spec's '/api/admin/x' spelling as prefix + '/x'", () => {
    vi.stubGlobal('__MG_CONFIG__', { apiPrefix: 'https://other.example/backend' });
    expect(apiUrl('/api/admin/clickbank/orders')).toBe(
      'https://other.example/backend/clickbank/orders',
    );
  });

  it('trims strings, drops blank/null/undefined/non-finite values and stringifies numbers', () => {
    expect(
      toQueryString({
        email: '  ada@example.com ',
        blank: '   ',
        empty: '',
        nothing: null,
        missing: undefined,
        page: 2,
        nan: Number.NaN,
        flag: true,
      }),
    ).toBe('email=ada%40example.com&page=2&flag=true');
  });

  it('sends only the non-blank parameters on the wire', async () => {
    server.use(okJson());
    await apiRequest('/echo', { query: { q: ' x ', level: '', page: 1 } });
    expect(seen).toHaveLength(1);
    expect([...seen[0]!.url.searchParams]).toEqual([
      ['q', 'x'],
      ['page', '1'],
    ]);
  });
});

describe('headers, credentials and body (§7 common rules)', () => {
  it('asks for JSON and sends no Authorization header without a token', async () => {
    server.use(okJson());
    await apiRequest('/echo');
    expect(seen[0]!.headers.get('accept')).toBe('application/json');
    expect(seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('sends the bearer token when one is stored', async () => {
    server.use(okJson());
    setToken('tok-123');
    await apiRequest('/echo');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-123');
  });

  it('includes credentials on every call', async () => {
    server.use(okJson());
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await apiRequest('/echo', { method: 'POST', body: { a: 1 } });
    expect(fetchSpy.mock.calls[0]?.[1]?.credentials).toBe('include');
  });

  it('sends a JSON body and Content-Type only when there is a payload', async () => {
    server.use(okJson());
    await apiRequest('/echo', { method: 'POST', body: { email: 'ada@example.com' } });
    await apiRequest('/echo', { method: 'POST' });
    await apiRequest('/echo', { method: 'POST', body: null });
    expect(seen[0]!.headers.get('content-type')).toBe('application/json');
    expect(await seen[0]!.body).toBe('{"email":"ada@example.com"}');
    for (const request of seen.slice(1)) {
      expect(request.headers.has('content-type')).toBe(false);
      expect(await request.body).toBe('');
    }
  });

  it('returns the parsed JSON, through the schema when given', async () => {
    server.use(okJson({ n: '5', extra: true }));
    const schema = z.object({ n: z.coerce.number() });
    await expect(apiRequest('/echo', { schema })).resolves.toEqual({ n: 5 });
    await expect(apiRequest('/echo')).resolves.toEqual({ n: '5', extra: true });
  });
});

describe('errors (§8)', () => {
  const answer = (body: unknown, init: { status: number; statusText?: string }) =>
    server.use(
      http.get(api('/echo'), () =>
        body === undefined ? new HttpResponse(null, init) : HttpResponse.json(body as object, init),
      ),
    );

  it('takes the message from payload.message first', async () => {
    answer({ message: 'Email is required', error: 'bad_request' }, { status: 400 });
    const error = await rejection(apiRequest('/echo'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Email is required',
      payload: { message: 'Email is required', error: 'bad_request' },
    });
  });

  it('then payload.error, then the status text, then "Request failed"', async () => {
    answer({ error: 'db_unavailable' }, { status: 503, statusText: 'Service Unavailable' });
    expect(await rejection(apiRequest('/echo'))).toMatchObject({ message: 'db_unavailable' });
    answer({ message: '  ', other: 1 }, { status: 502, statusText: 'Bad Gateway' });
    expect(await rejection(apiRequest('/echo'))).toMatchObject({
      status: 502,
      message: 'Bad Gateway',
    });
    // An HTTP/2 answer has no reason phrase: statusText is ''. (MSW always fills one in, so the
    // answer is made by hand.)
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(new Response(null, { status: 500 }));
    expect(await rejection(apiRequest('/echo'))).toMatchObject({
      status: 500,
      message: 'Request failed',
      payload: null,
    });
  });

  it('keeps a non-JSON error body as the payload text', async () => {
    server.use(
      http.get(
        api('/echo'),
        () => new HttpResponse('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway' }),
      ),
    );
    expect(await rejection(apiRequest('/echo'))).toMatchObject({
      status: 502,
      message: 'Bad Gateway',
      payload: '<h1>Bad gateway</h1>',
    });
  });

  it('errorMessageFromResponse follows the same precedence', () => {
    expect(errorMessageFromResponse({ message: 'm', error: 'e' }, 'S')).toBe('m');
    expect(errorMessageFromResponse({ error: 'e' }, 'S')).toBe('e');
    expect(errorMessageFromResponse({ error: { nested: true } }, 'S')).toBe('S');
    expect(errorMessageFromResponse('text', '')).toBe('Request failed');
    expect(errorMessageFromResponse(null, undefined)).toBe('Request failed');
  });

  it('turns a network failure into ApiError status 0 "Network error"', async () => {
    server.use(http.get(api('/echo'), () => HttpResponse.error()));
    expect(await rejection(apiRequest('/echo'))).toMatchObject({
      status: 0,
      message: 'Network error',
    });
  });

  it('times out with ApiError status 0 "Request timed out"', async () => {
    server.use(
      http.get(api('/echo'), async () => {
        await delay(2_000);
        return HttpResponse.json({ late: true });
      }),
    );
    const error = await rejection(apiRequest('/echo', { timeoutMs: 30 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, message: 'Request timed out' });
  });

  it('uses the 30 s default time-out (REQUEST_TIMEOUT_MS)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      server.use(
        http.get(api('/echo'), async () => {
          await new Promise(() => {});
          return HttpResponse.json({});
        }),
      );
      const pending = rejection(apiRequest('/echo'));
      await vi.advanceTimersByTimeAsync(29_999);
      let settled = false;
      void pending.then(() => (settled = true));
      await Promise.resolve();
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ status: 0, message: 'Request timed out' });
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with the caller's AbortError (not an ApiError) when the caller aborts", async () => {
    server.use(
      http.get(api('/echo'), async () => {
        await delay(2_000);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();
    const pending = rejection(apiRequest('/echo', { signal: controller.signal }));
    setTimeout(() => controller.abort(), 10);
    const error = await pending;
    expect(isAbortError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
  });

  it('does not even send a request when the signal is already aborted', async () => {
    server.use(okJson());
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(await rejection(apiRequest('/echo', { signal: controller.signal })))).toBe(
      true,
    );
    expect(seen).toHaveLength(0);
  });

  it('throws MalformedResponseError (message "") when the JSON does not match the schema', async () => {
    server.use(okJson({ rows: 'nope' }));
    const error = await rejection(
      apiRequest('/echo', { schema: z.object({ rows: z.array(z.unknown()) }) }),
    );
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, message: '', payload: { rows: 'nope' } });
    expect((error as MalformedResponseError).issues[0]).toMatch(/^rows: /);
  });

  it('throws MalformedResponseError when an OK answer is not JSON but a schema expects it', async () => {
    server.use(http.get(api('/echo'), () => HttpResponse.text('<!doctype html><html></html>')));
    const error = await rejection(apiRequest('/echo', { schema: z.object({}) }));
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect(error).toMatchObject({ status: 200, message: '' });
  });
});

describe('401 handling (CONTRACT.md)', () => {
  const unauthorized = () =>
    server.use(
      http.all(api('/echo'), () =>
        HttpResponse.json(
          { error: 'unauthorized', code: 'INVALID_JWT', message: 'Session expired' },
          { status: 401 },
        ),
      ),
    );

  it('clears the token and calls every registered handler, then rejects with the 401', async () => {
    unauthorized();
    setToken('stale');
    const first = vi.fn();
    const second = vi.fn();
    const offFirst = onUnauthorized(first);
    const offSecond = onUnauthorized(second);
    try {
      const error = await rejection(apiRequest('/echo'));
      expect(error).toMatchObject({ status: 401, message: 'Session expired' });
      expect(getToken()).toBeNull();
      expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
      expect(first).toHaveBeenCalledTimes(1);
      expect(second).toHaveBeenCalledTimes(1);
    } finally {
      offFirst();
      offSecond();
    }
  });

  it('stops calling a handler once it is unregistered', async () => {
    unauthorized();
    const handler = vi.fn();
    onUnauthorized(handler)();
    await rejection(apiRequest('/echo'));
    expect(handler).not.toHaveBeenCalled();
  });

  it('keeps the token and calls no handler for an authentication probe', async () => {
    unauthorized();
    setToken('kept');
    const handler = vi.fn();
    const off = onUnauthorized(handler);
    try {
      expect(await rejection(apiRequest('/echo', { authProbe: true }))).toMatchObject({
        status: 401,
      });
      expect(getToken()).toBe('kept');
      expect(handler).not.toHaveBeenCalled();
    } finally {
      off();
    }
  });

  it('a throwing handler does not stop the others', async () => {
    unauthorized();
    const bad = vi.fn(() => {
      throw new Error('boom');
    });
    const good = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const offs = [onUnauthorized(bad), onUnauthorized(good)];
    try {
      await rejection(apiRequest('/echo'));
      expect(good).toHaveBeenCalledTimes(1);
    } finally {
      offs.forEach((off) => off());
    }
  });

  it('does nothing special for a 403', async () => {
    server.use(
      http.get(api('/echo'), () => HttpResponse.json({ message: 'Forbidden' }, { status: 403 })),
    );
    setToken('kept');
    const handler = vi.fn();
    const off = onUnauthorized(handler);
    try {
      await rejection(apiRequest('/echo'));
      expect(getToken()).toBe('kept');
      expect(handler).not.toHaveBeenCalled();
    } finally {
      off();
    }
  });
});

describe('candidate paths (§7 notes, §8)', () => {
  it('moves on after a 404 and returns the first answer', async () => {
    server.use(
      http.get(api('/a'), () => HttpResponse.json({ error: 'not_found' }, { status: 404 })),
      http.get(api('/b'), () => HttpResponse.json({ from: 'b' })),
      http.get(api('/c'), () => HttpResponse.json({ from: 'c' })),
    );
    await expect(apiRequestFirstFound(['a', 'b', 'c'])).resolves.toEqual({ from: 'b' });
    expect(seen.map((r) => r.url.pathname)).toEqual(['/api/admin/a', '/api/admin/b']);
  });

  it('stops at the first error that is not a 404', async () => {
    server.use(
      http.get(api('/a'), () => HttpResponse.json({ message: 'Boom' }, { status: 500 })),
      http.get(api('/b'), () => HttpResponse.json({ from: 'b' })),
    );
    expect(await rejection(apiRequestFirstFound(['a', 'b']))).toMatchObject({
      status: 500,
      message: 'Boom',
    });
    expect(seen).toHaveLength(1);
  });

  it('answers 404 with the §8 text when every candidate is not found', async () => {
    server.use(
      http.get(api('/:any'), () => HttpResponse.json({ error: 'not_found' }, { status: 404 })),
    );
    const error = await rejection(apiRequestFirstFound(['a', 'b', 'c']));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      message:
        'Not Found – none of the candidate paths responded. Please confirm the backend route.',
    });
    expect(seen).toHaveLength(3);
  });
});
