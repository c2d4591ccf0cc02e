import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { useLocation } from 'react-router-dom';
import { expect, spyOn, userEvent, waitFor, within } from 'storybook/test';
import { AppLayoutScreen } from '../../src/screens/AppLayoutScreen';
import { MOBILE_MEDIA_QUERY } from '../../src/screens/useMediaQuery';
import { SOUND_STORAGE_KEY, TOKEN_STORAGE_KEY } from '../../src/domain/types';
import { api, jsonError, whoamiHandlers } from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

/** The routed page inside the shell: a heading naming the current location. */
function CurrentPage() {
  const { pathname } = useLocation();
  return <h1>Page at {pathname}</h1>;
}

/** Every API call the story made, as 'METHOD /path', in order (reset before each story). */
const seen: string[] = [];
const recordCalls: HttpHandler = http.all(api('/*'), ({ request }) => {
  seen.push(`${request.method} ${new URL(request.url).pathname}`);
  return undefined;
});

/** The audio elements asked to play in this story, by source URL and muted state. */
const plays: { src: string; muted: boolean }[] = [];

/** Stubs HTMLMediaElement playback, so priming is observable and no sound leaves the test. */
function stubAudio() {
  plays.length = 0;
  const play = spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (
    this: HTMLMediaElement,
  ) {
    plays.push({ src: this.src, muted: this.muted });
    return Promise.resolve();
  });
  const load = spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
  return () => {
    play.mockRestore();
    load.mockRestore();
  };
}

/**
 * The signed-in shell's container (§2 Layout, §4 Session, §4 Sound alerts): what it persists
 * (sidebar state, sound setting), how it logs out, and where focus goes after navigation.
 */
const meta = {
  title: 'Screens/AppLayout',
  component: AppLayoutScreen,
  decorators: [withScreen],
  args: { children: <CurrentPage /> },
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/' },
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        http.post(api('/auth/logout'), () => HttpResponse.json({ ok: true })),
      ],
    },
  },
  beforeEach() {
    seen.length = 0;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'story-token');
  },
} satisfies Meta<typeof AppLayoutScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Desktop, sidebar expanded by default: operator 'Admin', the nine entries (no product sites configured).
 * Collapse and Expand persist '1' and '0' under mg_sidebar_collapsed.
 */
export const Expanded: Story = {
  play: async ({ canvas }) => {
    const banner = canvas.getByRole('banner');
    await expect(within(banner).getByText('Admin')).toBeVisible();
    // No SITE_URL / FORUM_URL configured: no dead placeholder links (Screens/ProductLinks has them set).
    await expect(canvas.queryByRole('link', { name: /^Website/ })).toBeNull();
    await expect(canvas.queryByRole('link', { name: /^Forum/ })).toBeNull();
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    await expect(within(nav).getAllByRole('link')).toHaveLength(11);
    await expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(canvas.getByRole('heading', { level: 1, name: 'Page at /' })).toBeVisible();

    const collapse = canvas.getByRole('button', { name: 'Collapse' });
    await expect(collapse).toHaveAttribute('aria-expanded', 'true');
    await expect(localStorage.getItem('mg_sidebar_collapsed')).toBeNull();
    await userEvent.click(collapse);
    await expect(localStorage.getItem('mg_sidebar_collapsed')).toBe('1');
    const expand = canvas.getByRole('button', { name: 'Expand' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(expand);
    await expect(localStorage.getItem('mg_sidebar_collapsed')).toBe('0');
    await expect(canvas.getByRole('button', { name: 'Collapse' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  },
};

/** mg_sidebar_collapsed is '1' from an earlier visit: the sidebar opens collapsed. */
export const Collapsed: Story = {
  beforeEach() {
    localStorage.setItem('mg_sidebar_collapsed', '1');
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Expand' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    // Labels are hidden visually, names stay for assistive technology.
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    await expect(within(nav).getByRole('link', { name: 'Integrated Tracking' })).toBeVisible();
  },
};

/** Choosing a sidebar entry navigates and moves focus to the main region (keyboard users). */
export const NavigationMovesFocus: Story = {
  play: async ({ canvas }) => {
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Users' }));
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Page at /users' }),
    ).toBeVisible();
    await waitFor(() => expect(canvas.getByRole('main')).toHaveFocus());
    await expect(within(nav).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  },
};

/** Sound is off by default; switching it on stores '1' and primes both sounds, muted, in the click. */
export const SoundOn: Story = {
  beforeEach: stubAudio,
  play: async ({ canvas }) => {
    const toggle = canvas.getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(localStorage.getItem(SOUND_STORAGE_KEY)).toBeNull();
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(localStorage.getItem(SOUND_STORAGE_KEY)).toBe('1');
    await waitFor(() => expect(plays).toHaveLength(2));
    await expect(
      plays.map((p) => new URL(p.src).pathname.replace(/^.*\/sounds\//, 'sounds/')),
    ).toEqual(['sounds/new-sub.mp3', 'sounds/renew.mp3']);
    await expect(plays.every((p) => p.muted)).toBe(true);
  },
};

/** Sound was on ('1'); switching it off stores '0' and primes nothing. */
export const SoundOff: Story = {
  beforeEach() {
    localStorage.setItem(SOUND_STORAGE_KEY, '1');
    return stubAudio();
  },
  play: async ({ canvas }) => {
    const toggle = canvas.getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(localStorage.getItem(SOUND_STORAGE_KEY)).toBe('0');
    await expect(plays).toHaveLength(0);
  },
};

/** Log out: POST /auth/logout answers; the token is gone and the operator is at /login. */
export const LogOut: Story = {
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Log out' }));
    await expect(await canvas.findByText('Login page')).toBeVisible();
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    // (The shell also reads who is signed in: GET /auth/whoami.)
    await expect(seen.filter((call) => !call.startsWith('GET '))).toEqual([
      'POST /api/admin/auth/logout',
    ]);
  },
};

/** /auth/logout is missing (404) and the /logout fallback fails (500): still signed out, at /login (§4). */
export const LogoutFallback: Story = {
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        http.post(api('/auth/logout'), () => jsonError(404, 'Not found')),
        http.post(api('/logout'), () => jsonError(500, 'Logout exploded')),
      ],
    },
  },
  play: async ({ canvas }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Log out' }));
    await expect(await canvas.findByText('Login page')).toBeVisible();
    await expect(localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await expect(seen.filter((call) => !call.startsWith('GET '))).toEqual([
      'POST /api/admin/auth/logout',
      'POST /api/admin/logout',
    ]);
    await expect(canvas.queryByRole('alert')).toBeNull();
  },
};

/**
 * A phone-sized screen (the (max-width: 767px) query matches): the overlay menu, which closes
 * when the location changes.
 */
export const MobileOverlayClosesOnNavigation: Story = {
  beforeEach() {
    const original = window.matchMedia;
    window.matchMedia = (query: string) => {
      if (query !== MOBILE_MEDIA_QUERY) return original.call(window, query);
      const phone: MediaQueryList = {
        matches: true,
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      };
      return phone;
    };
    return () => {
      window.matchMedia = original;
    };
  },
  play: async ({ canvas, canvasElement }) => {
    await expect(canvas.queryByRole('navigation', { name: 'Main' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Open menu' }));
    // The overlay is a dialog portalled to the body.
    const body = within(canvasElement.ownerDocument.body);
    const dialog = await body.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('link', { name: 'Subscriptions' }));
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Page at /subscriptions' }),
    ).toBeVisible();
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    // Focus lands on the new screen's content, not back on the menu button.
    await waitFor(() => expect(canvas.getByRole('main')).toHaveFocus());
  },
};
