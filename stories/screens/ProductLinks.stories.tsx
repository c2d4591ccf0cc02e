import type { Meta, StoryObj } from '@storybook/react-vite';
import { http, HttpResponse } from 'msw';
import { expect, within } from 'storybook/test';
import { AppLayoutScreen } from '../../src/screens/AppLayoutScreen';
import { TOKEN_STORAGE_KEY } from '../../src/domain/types';
import { api } from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

/** Sets the run-time config (what /admin/config.js does) for one story; returns the cleanup. */
function withRuntimeConfig(config: Record<string, unknown> | undefined) {
  return () => {
    const w = window as { __MG_CONFIG__?: unknown };
    const before = w.__MG_CONFIG__;
    w.__MG_CONFIG__ = config;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'story-token');
    return () => {
      w.__MG_CONFIG__ = before;
    };
  };
}

/**
 * The header's links to the product's own sites (§2 Layout): they come from the run-time config
 * (/admin/config.js, set by the server's SITE_URL and FORUM_URL), and a site that is not
 * configured has no link at all rather than a dead placeholder. The providers' consoles are
 * always linked.
 */
const meta = {
  title: 'Screens/ProductLinks',
  component: AppLayoutScreen,
  decorators: [withScreen],
  args: { children: <h1>Dashboard</h1> },
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/' },
    msw: { handlers: [http.post(api('/auth/logout'), () => HttpResponse.json({ ok: true }))] },
  },
} satisfies Meta<typeof AppLayoutScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Both sites configured: Website and Forum link to them, after the providers' consoles. */
export const Configured: Story = {
  beforeEach: withRuntimeConfig({
    apiPrefix: '/api/admin',
    siteUrl: 'https://mg.example.org/',
    forumUrl: 'https://forum.mg.example.org',
  }),
  play: async ({ canvas }) => {
    const links = within(canvas.getByRole('navigation', { name: 'External links' }));
    await expect(links.getByRole('link', { name: /^Website/ })).toHaveAttribute('href', 'https://mg.example.org/');
    await expect(links.getByRole('link', { name: /^Forum/ })).toHaveAttribute('href', 'https://forum.mg.example.org');
    await expect(
      links.getAllByRole('link').map((link) => link.textContent?.replace(/\s*\(.*\)$/, '')),
    ).toEqual(['LemonSqueezy', 'ClickBank', 'Website', 'Forum']);
  },
};

/** Only FORUM_URL set: the Forum link, and no Website link. */
export const ForumOnly: Story = {
  beforeEach: withRuntimeConfig({ apiPrefix: '/api/admin', forumUrl: 'https://forum.mg.example.org' }),
  play: async ({ canvas }) => {
    const links = within(canvas.getByRole('navigation', { name: 'External links' }));
    await expect(links.getByRole('link', { name: /^Forum/ })).toHaveAttribute('href', 'https://forum.mg.example.org');
    await expect(links.queryByRole('link', { name: /^Website/ })).toBeNull();
  },
};

/** Neither configured (or not an http(s) URL): no site links, only the providers' consoles. */
export const NotConfigured: Story = {
  beforeEach: withRuntimeConfig({ apiPrefix: '/api/admin', siteUrl: 'javascript:alert(1)' }),
  play: async ({ canvas }) => {
    const links = within(canvas.getByRole('navigation', { name: 'External links' }));
    await expect(links.queryByRole('link', { name: /^Website/ })).toBeNull();
    await expect(links.queryByRole('link', { name: /^Forum/ })).toBeNull();
    await expect(links.getAllByRole('link')).toHaveLength(2);
  },
};
