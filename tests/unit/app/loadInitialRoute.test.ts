/**
 * What the first render waits for (loadInitialRoute in src/app/router.tsx; issue 10 "Delivery",
 * dashboard LCP): the opened screen's code, then its first data for at most FIRST_DATA_WAIT_MS —
 * asserted by what the query cache holds when the wait ends, not by clock times.
 */
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../../src/api/token';
import { queryKeys } from '../../../src/api/queryKeys';
import { createQueryClient } from '../../../src/app/queryClient';
import { FIRST_DATA_WAIT_MS, loadInitialRoute } from '../../../src/app/router';
import { api } from '../../msw/handlers';
import { recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

function openAt(pathname: string) {
  vi.stubGlobal('window', { location: { pathname } });
}
afterEach(() => vi.unstubAllGlobals());

const statsState = (client: ReturnType<typeof createQueryClient>) =>
  client.getQueryState(queryKeys.stats())?.status;

describe('loadInitialRoute', () => {
  // The code is loaded once here, so in the tests it is ready at once and only the data is waited for.
  beforeAll(async () => {
    await Promise.all([
      import('../../../src/app/AppShell'),
      import('../../../src/screens/DashboardScreen'),
      import('../../../src/screens/SettingsScreen'),
      import('../../../src/api/stats'),
    ]);
  });

  it("waits for the dashboard's stats when they come in time, so the first render has them", async () => {
    server.use(
      http.get(api('/stats'), async () => {
        await delay(100); // well inside FIRST_DATA_WAIT_MS
        return HttpResponse.json({ mrr: 12.5, currency: 'USD' });
      }),
    );
    setToken('tok');
    openAt('/admin/');
    const client = createQueryClient({ retry: false });
    await loadInitialRoute(client);
    expect(statsState(client)).toBe('success');
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api/admin/stats']);
  });

  it(`stops waiting after ${FIRST_DATA_WAIT_MS} ms for stats that do not come, leaving the query loading`, async () => {
    server.use(
      http.get(api('/stats'), async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    setToken('tok');
    openAt('/admin');
    const client = createQueryClient({ retry: false });
    await loadInitialRoute(client);
    expect(statsState(client)).toBe('pending');
  });

  it('resolves, never rejects, when the stats fail: the screen shows the error', async () => {
    server.use(
      http.get(api('/stats'), () => HttpResponse.json({ error: 'nope' }, { status: 400 })),
    );
    setToken('tok');
    openAt('/admin/');
    const client = createQueryClient({ retry: false });
    await expect(loadInitialRoute(client)).resolves.toBeUndefined();
    expect(statsState(client)).toBe('error');
  });

  it('asks for nothing without a token, nor for a screen that has no first data', async () => {
    openAt('/admin/');
    const signedOut = createQueryClient({ retry: false });
    await loadInitialRoute(signedOut);
    expect(statsState(signedOut)).toBeUndefined();

    setToken('tok');
    openAt('/admin/settings');
    const settings = createQueryClient({ retry: false });
    await loadInitialRoute(settings);
    expect(statsState(settings)).toBeUndefined();
    expect(seen).toHaveLength(0);
  });
});
