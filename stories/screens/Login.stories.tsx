import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { expect, userEvent, waitFor, type within } from 'storybook/test';
import { LoginScreen } from '../../src/screens/LoginScreen';
import { LOGIN_MESSAGES } from '../../src/domain/auth';
import type { LoginCode } from '../../src/domain/types';
import { TOKEN_STORAGE_KEY } from '../../src/domain/types';
import {
  api,
  healthDbHandlers,
  healthHandlers,
  loginHandlers,
  whoamiHandlers,
} from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

/** Every API call the story made, as 'METHOD /path', in order (reset before each story). */
const seen: string[] = [];
/** The bodies POSTed to /auth/login. */
const loginBodies: unknown[] = [];

/** Records each API call, then lets the story's own handlers answer it. */
const recordCalls: HttpHandler = http.all(api('/*'), async ({ request }) => {
  const { pathname } = new URL(request.url);
  seen.push(`${request.method} ${pathname}`);
  if (request.method === 'POST' && pathname.endsWith('/auth/login')) {
    loginBodies.push(await request.clone().json());
  }
  return undefined;
});

/** A signed-out operator and a healthy backend, plus the story's own handlers first. */
function signedOut(...overrides: HttpHandler[]): HttpHandler[] {
  return [
    recordCalls,
    ...overrides,
    whoamiHandlers.signedOut(),
    healthHandlers.ok(),
    healthDbHandlers.ok(),
  ];
}

type Canvas = ReturnType<typeof within>;

/** Waits until the screen has asked who-am-I and pinged both health checks. */
async function checksDone() {
  await waitFor(() => {
    expect(seen).toContain('GET /api/admin/health');
    expect(seen).toContain('GET /api/admin/health/db');
  });
  // who-am-I comes first; the pings only when not signed in (§2).
  await expect(seen.indexOf('GET /api/admin/auth/whoami')).toBe(0);
}

/** Types a password and presses 'Sign in'. */
async function signIn(canvas: Canvas, password = 'hunter2') {
  await userEvent.type(canvas.getByLabelText('Password'), password);
  await userEvent.click(canvas.getByRole('button', { name: 'Sign in' }));
}

/** A refused login (§8 code table): the red error, focus back in Password, no token, no notice. */
function refusedWith(code: Exclude<LoginCode, 'DB_UNAVAILABLE'>): Story {
  return {
    parameters: { msw: { handlers: signedOut(loginHandlers.code(code)) } },
    play: async ({ canvas }) => {
      await checksDone();
      await signIn(canvas);
      await expect(await canvas.findByRole('alert')).toHaveTextContent(LOGIN_MESSAGES[code]);
      await expect(canvas.getByLabelText('Password')).toHaveFocus();
      await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
      await expect(canvas.queryByRole('status')).toBeNull();
      await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    },
  };
}

/**
 * The Admin Login screen (§2 Login screen, §4 Session, §8) with a mocked backend: its checks on
 * load, the notices, the busy state and every login code. Success and "already signed in" need
 * somewhere to go, so they are in Flows/SignIn with the app's real routes.
 */
const meta = {
  title: 'Screens/Login',
  component: LoginScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/login', path: '/login' },
    msw: { handlers: signedOut() },
  },
  beforeEach() {
    seen.length = 0;
    loginBodies.length = 0;
  },
} satisfies Meta<typeof LoginScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Signed out, backend healthy: the pre-filled email, focus in Password, no banners. */
export const Idle: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Admin Login' })).toBeVisible();
    await expect(canvas.getByLabelText('Email')).toHaveValue('admin@example.com');
    await expect(canvas.getByLabelText('Password')).toHaveValue('');
    await expect(canvas.getByLabelText('Password')).toHaveFocus();
    await checksDone();
    await expect(canvas.queryByRole('status')).toBeNull();
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  },
};

/** The login call is in flight: 'Signing in…', disabled; the form sent exactly what was typed. */
export const SigningIn: Story = {
  parameters: { msw: { handlers: signedOut(loginHandlers.loading()) } },
  play: async ({ canvas }) => {
    await checksDone();
    await userEvent.clear(canvas.getByLabelText('Email'));
    await userEvent.type(canvas.getByLabelText('Email'), 'ops@example.com');
    await signIn(canvas, 's3cret pass');
    const button = await canvas.findByRole('button', { name: 'Signing in…' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await waitFor(() =>
      expect(loginBodies).toEqual([{ email: 'ops@example.com', password: 's3cret pass' }]),
    );
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/** INCORRECT_USER → 'Incorrect user'. */
export const IncorrectUser: Story = refusedWith('INCORRECT_USER');
/** INCORRECT_PASSWORD → 'Incorrect password'. */
export const IncorrectPassword: Story = refusedWith('INCORRECT_PASSWORD');
/** INVALID_JWT → 'Your session has expired. Please sign in again.' */
export const InvalidJwt: Story = refusedWith('INVALID_JWT');
/** NO_TOKEN → 'Please sign in.' */
export const NoToken: Story = refusedWith('NO_TOKEN');
/** EMPTY_DATABASE → 'The database is empty or not initialized.' */
export const EmptyDatabase: Story = refusedWith('EMPTY_DATABASE');

/** A refusal with an unknown code and no message: the fallback 'Login failed' (§8). */
export const LoginFailed: Story = {
  parameters: {
    msw: {
      handlers: signedOut(
        http.post(api('/auth/login'), () =>
          HttpResponse.json({ ok: false, code: 'ACCOUNT_LOCKED' }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await checksDone();
    await signIn(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent(/^Login failed$/);
    await expect(canvas.getByLabelText('Password')).toHaveFocus();
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  },
};

/** A second try after an error: the old error goes while signing in, and the new one is shown. */
export const RetryAfterError: Story = {
  parameters: { msw: { handlers: signedOut(loginHandlers.code('INCORRECT_PASSWORD')) } },
  play: async ({ canvas }) => {
    await checksDone();
    await signIn(canvas);
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Incorrect password');
    // Focus is in Password with its text selected: typing replaces it.
    await userEvent.keyboard('another-try{Enter}');
    await waitFor(() => expect(loginBodies).toHaveLength(2));
    await expect(loginBodies[1]).toEqual({ email: 'admin@example.com', password: 'another-try' });
    await expect(await canvas.findByRole('alert')).toHaveTextContent('Incorrect password');
  },
};

/** /health/db answers not ok: the amber database notice; signing in stays possible. */
export const DatabaseNotice: Story = {
  parameters: { msw: { handlers: signedOut(healthDbHandlers.down()) } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'Backend database is currently unavailable. You can still log in; some features may be limited.',
    );
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  },
};

/** /health gets no answer: the amber reachability notice. */
export const ReachabilityNotice: Story = {
  parameters: { msw: { handlers: signedOut(healthHandlers.unreachable()) } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      'Backend reachability check failed. You can try logging in anyway.',
    );
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  },
};

/** The login answers DB_UNAVAILABLE: the amber notice, no red error, the form still usable (§8). */
export const DbUnavailableOnLogin: Story = {
  parameters: { msw: { handlers: signedOut(loginHandlers.code('DB_UNAVAILABLE')) } },
  play: async ({ canvas }) => {
    await checksDone();
    await expect(canvas.queryByRole('status')).toBeNull();
    await signIn(canvas);
    await expect(await canvas.findByRole('status')).toHaveTextContent(
      /^Backend database is currently unavailable\.$/,
    );
    await expect(canvas.queryByRole('alert')).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await expect(canvas.getByLabelText('Password')).toBeEnabled();
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  },
};
