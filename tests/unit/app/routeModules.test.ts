/**
 * The route table of start-up modules (src/app/routeModules.ts) and the first data the dashboard
 * requests at the very start of a page (src/app/firstData.ts): issue 10 "Delivery", dashboard LCP.
 */
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiRequest } from '../../../src/api/client';
import { setToken } from '../../../src/api/token';
import { startFirstData } from '../../../src/app/firstData';
import { SCREEN_SEGMENTS } from '../../../src/app/router';
import { ROUTE_MODULES, routeSegmentOf, routeTitleOf } from '../../../src/app/routeModules';
import { api } from '../../msw/handlers';
import { recordRequests, setupApiTestEnvironment } from '../support';

const server = setupApiTestEnvironment();
const seen = recordRequests(server);

describe('routeSegmentOf', () => {
  it('reads the first segment under /admin/, the dashboard with or without the slash', () => {
    expect(routeSegmentOf('/admin/')).toBe('');
    expect(routeSegmentOf('/admin')).toBe('');
    expect(routeSegmentOf('/admin/users')).toBe('users');
    expect(routeSegmentOf('/admin/users/42')).toBe('users');
    expect(routeSegmentOf('/admin/login')).toBe('login');
    expect(routeSegmentOf('/admin/isr')).toBe('isr');
  });

  it('is null outside the console and for segments that name no route', () => {
    expect(routeSegmentOf('/')).toBeNull();
    expect(routeSegmentOf('/administrator')).toBeNull();
    expect(routeSegmentOf('/api/admin/stats')).toBeNull();
    expect(routeSegmentOf('/admin/no-such-screen')).toBeNull();
    expect(routeSegmentOf('/admin/constructor')).toBeNull();
    expect(routeSegmentOf('/admin/__proto__')).toBeNull();
  });
});

describe('routeTitleOf', () => {
  it("gives the screen title of a router location's pathname (relative to the basename)", () => {
    expect(routeTitleOf('/')).toBe('Dashboard');
    expect(routeTitleOf('/users/42')).toBe('Users');
    expect(routeTitleOf('/isr')).toBe('Integrated Tracking (First-Party)');
    expect(routeTitleOf('/login')).toBe('Admin Login');
    expect(routeTitleOf('/no-such-screen')).toBeUndefined();
    expect(routeTitleOf('/constructor')).toBeUndefined();
  });
});

describe('ROUTE_MODULES', () => {
  it('names the sign-in screen alone for /login, and the shell with one screen for every other route', () => {
    expect(ROUTE_MODULES.login).toEqual(['src/screens/LoginScreen.tsx']);
    for (const [segment, modules] of Object.entries(ROUTE_MODULES)) {
      if (segment === 'login') continue;
      expect(modules, segment).toHaveLength(2);
      expect(modules[0], segment).toBe('src/app/AppShell.tsx');
      expect(modules[1], segment).toMatch(/^src\/screens\/\w+Screen\.tsx$/);
    }
  });

  it('has an entry for every guarded screen of the router, and none the router lacks', () => {
    const guarded = Object.keys(ROUTE_MODULES).filter((segment) => segment !== 'login');
    expect([...SCREEN_SEGMENTS].sort()).toEqual(guarded.sort());
  });
});

describe('startFirstData', () => {
  const stats = () => {
    let answers = 0;
    server.use(http.get(api('/stats'), () => HttpResponse.json({ mrr: 1, answer: ++answers })));
  };

  it("starts the dashboard's GET /stats when a token is stored, and the screen's query takes it", async () => {
    stats();
    setToken('tok');
    expect(startFirstData('/admin/')).toBe('/stats');
    expect(await apiRequest('/stats')).toEqual({ mrr: 1, answer: 1 });
    expect(seen.map((r) => new URL(r.url).pathname)).toEqual(['/api/admin/stats']);
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer tok');
  });

  it('starts nothing without a token, on a screen without first data, or outside the console', () => {
    stats();
    expect(startFirstData('/admin/')).toBeNull();
    setToken('tok');
    expect(startFirstData('/admin/users')).toBeNull();
    expect(startFirstData('/admin/login')).toBeNull();
    expect(startFirstData('/elsewhere')).toBeNull();
    expect(seen).toHaveLength(0);
  });
});
