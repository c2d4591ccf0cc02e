import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, userEvent, waitFor } from 'storybook/test';
import { loginRedirectState } from '../../src/screens/useLoginRedirect';
import { TOKEN_STORAGE_KEY } from '../../src/domain/types';
import { STATS_WIRE } from '../../tests/msw/fixtures';
import {
  api,
  healthDbHandlers,
  healthHandlers,
  loginHandlers,
  statsHandlers,
  whoamiHandlers,
} from '../../tests/msw/handlers';
import { FlowApp, flowLocation, flowRouter } from './FlowApp';
import { LAZY, quietStream, recordCalls, seen } from './handlers';

/**
 * Signing in through the app's real routes (§2 Routing, §4 Session, §6; CONTRACT.md): the guard
 * remembers a deep link, sign-in returns to it, a live session skips the form, and a 401 sends
 * the operator back to sign in and then back to where they were.
 */
const meta = {
  title: 'Flows/SignIn',
  component: FlowApp,
  args: { initialEntry: '/' },
  parameters: {
    layout: 'fullscreen',
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedOut(),
        healthHandlers.ok(),
        healthDbHandlers.ok(),
        loginHandlers.ok('flow-token'),
        statsHandlers.ok(),
        quietStream(),
      ],
    },
  },
  beforeEach() {
    seen.length = 0;
  },
} satisfies Meta<typeof FlowApp>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * No token, a guarded deep link: redirected to /login (the address remembered with its query
 * and hash); signing in stores the token and lands back on the deep link, focus on its content.
 */
export const FromDeepLink: Story = {
  args: { initialEntry: '/settings?tab=general#top' },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Admin Login' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/login');
    await waitFor(() => expect(document.title).toBe('Admin Login · MG Admin Console'));

    await userEvent.type(canvas.getByLabelText('Password'), 'correct horse');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));

    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Settings' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/settings?tab=general#top');
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('flow-token');
    await waitFor(() => expect(canvas.getByRole('main')).toHaveFocus());
    await waitFor(() => expect(document.title).toBe('Settings · MG Admin Console'));
  },
};

/** No token and nothing remembered: sign-in leads to the dashboard. */
export const ToDashboard: Story = {
  args: { initialEntry: '/login' },
  play: async ({ canvas }) => {
    await userEvent.type(
      await canvas.findByLabelText('Password', undefined, LAZY),
      'correct horse',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(await canvas.findByRole('region', { name: 'MRR' }, LAZY)).toHaveTextContent(
      '$12,345.00',
    );
    await expect(flowLocation()).toBe('/');
  },
};

/**
 * Already signed in (a token and who-am-I ok) on /login with a remembered /settings: the form
 * is skipped, the remembered route renders, and no health pings are sent (§2).
 */
export const AlreadySignedIn: Story = {
  args: {
    initialEntry: {
      pathname: '/login',
      state: loginRedirectState({ pathname: '/settings', search: '', hash: '' }, 'signed_out'),
    },
  },
  parameters: {
    msw: { handlers: [recordCalls, whoamiHandlers.signedIn(), quietStream()] },
  },
  beforeEach() {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'still-valid');
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Settings' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/settings');
    await expect(seen).toContain('GET /api/admin/auth/whoami');
    await expect(seen.filter((call) => call.includes('/health'))).toEqual([]);
  },
};

/**
 * A session cookie alive but no stored token (who-am-I ok): the console cannot call the API
 * without the token (§6), so the form stays instead of looping between /login and the guard.
 */
export const CookieWithoutToken: Story = {
  args: { initialEntry: '/users' },
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        healthHandlers.ok(),
        healthDbHandlers.ok(),
        quietStream(),
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Admin Login' }, LAZY),
    ).toBeVisible();
    await waitFor(() => expect(seen).toContain('GET /api/admin/health/db'));
    await expect(flowLocation()).toBe('/login');
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  },
};

let statsCalls = 0;

/**
 * The token expires while on the dashboard: the 401 clears it and sends the operator to /login,
 * which says the session expired; signing in again returns to the dashboard (CONTRACT.md).
 */
export const SessionExpired: Story = {
  args: { initialEntry: '/?view=compact' },
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        http.get(api('/stats'), () => {
          statsCalls += 1;
          return statsCalls === 1
            ? HttpResponse.json(
                { error: 'unauthorized', code: 'INVALID_JWT', message: 'Token expired' },
                { status: 401 },
              )
            : HttpResponse.json(STATS_WIRE);
        }),
        whoamiHandlers.signedOut('INVALID_JWT'),
        healthHandlers.ok(),
        healthDbHandlers.ok(),
        loginHandlers.ok('fresh-token'),
        quietStream(),
      ],
    },
  },
  beforeEach() {
    statsCalls = 0;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'expired-token');
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Admin Login' }, LAZY),
    ).toBeVisible();
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'Your session has expired. Please sign in again.',
    );
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await expect(flowLocation()).toBe('/login');

    await userEvent.type(canvas.getByLabelText('Password'), 'correct horse');
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(await canvas.findByRole('region', { name: 'MRR' }, LAZY)).toHaveTextContent(
      '$12,345.00',
    );
    await expect(flowLocation()).toBe('/?view=compact');
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('fresh-token');
  },
};

/** Log out from the shell, then open a guarded page: back to /login, which remembers it. */
export const LogOutThenDeepLink: Story = {
  args: { initialEntry: '/' },
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        http.post(api('/auth/logout'), () => HttpResponse.json({ ok: true })),
        whoamiHandlers.signedOut(),
        healthHandlers.ok(),
        healthDbHandlers.ok(),
        loginHandlers.ok('second-token'),
        statsHandlers.ok(),
        quietStream(),
      ],
    },
  },
  beforeEach() {
    localStorage.setItem(TOKEN_STORAGE_KEY, 'first-token');
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    await userEvent.click(canvas.getByRole('button', { name: 'Log out' }));
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Admin Login' }, LAZY),
    ).toBeVisible();
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    // Signed out by choice: no "session expired" error.
    await expect(canvas.queryByRole('alert')).toBeNull();

    // The operator opens a guarded page: the guard sends them to sign in, then there.
    await flowRouter().navigate('/settings');
    await waitFor(() => expect(flowLocation()).toBe('/login'));
    await userEvent.type(
      await canvas.findByLabelText('Password', undefined, LAZY),
      'correct horse',
    );
    await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Settings' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/settings');
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBe('second-token');
  },
};
