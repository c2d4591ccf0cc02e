import type { Meta, StoryObj } from '@storybook/react-vite';
import { delay, http } from 'msw';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { TOKEN_STORAGE_KEY } from '../../src/domain/types';
import {
  api,
  healthDbHandlers,
  healthHandlers,
  statsHandlers,
  statusHandlers,
  subscriptionsHandlers,
  usersHandlers,
  whoamiHandlers,
} from '../../tests/msw/handlers';
import { logsHandlers } from '../../tests/msw/handlers-logs';
import { auditHandlers } from '../../tests/msw/handlers-audit';
import { webhooksHandlers } from '../../tests/msw/handlers-webhooks';
import { revenueDefaultHandlers } from '../../tests/msw/handlers-revenue';
import {
  isrAffiliatesHandlers,
  isrDailyHandlers,
  isrEventsHandlers,
  isrSummaryHandlers,
  metricsHandlers,
} from '../../tests/msw/handlers-metrics';
import { FlowApp, flowLocation } from './FlowApp';
import { LAZY, quietStream, recordCalls, seen } from './handlers';

/**
 * Moving around the signed-in console with the app's real routes (§2 Routing, §2 Layout):
 * unknown paths, and the screens that are routed now with content in a later release.
 */
const meta = {
  title: 'Flows/Navigation',
  component: FlowApp,
  args: { initialEntry: '/' },
  parameters: {
    layout: 'fullscreen',
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedIn(),
        statsHandlers.ok(),
        statusHandlers.ok(),
        usersHandlers.list(),
        subscriptionsHandlers.list(),
        metricsHandlers.byRange(),
        isrSummaryHandlers.ok(),
        isrDailyHandlers.ok(),
        isrAffiliatesHandlers.ok(),
        isrEventsHandlers.list(),
        logsHandlers.list(),
        ...webhooksHandlers.all(),
        auditHandlers.list(),
        ...revenueDefaultHandlers(),
        quietStream(),
      ],
    },
  },
  beforeEach() {
    seen.length = 0;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'flow-token');
  },
} satisfies Meta<typeof FlowApp>;
export default meta;
type Story = StoryObj<typeof meta>;

/** An unknown path redirects to the dashboard, replacing the history entry (§2 Routing). */
export const UnknownPath: Story = {
  args: { initialEntry: '/nope/deeper?x=1' },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('region', { name: 'MRR' }, LAZY)).toBeVisible();
    await expect(flowLocation()).toBe('/');
    await expect(canvas.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  },
};

/** An unknown path without a token ends at sign-in (the guard runs after the redirect). */
export const UnknownPathSignedOut: Story = {
  args: { initialEntry: '/nope' },
  parameters: {
    msw: {
      handlers: [
        recordCalls,
        whoamiHandlers.signedOut(),
        healthHandlers.ok(),
        healthDbHandlers.ok(),
      ],
    },
  },
  beforeEach() {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Admin Login' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/login');
    await expect(seen).not.toContain('GET /api/admin/stats');
  },
};

/**
 * An operator types an email filter on Users and leaves for Subscriptions before the filter's
 * 300 ms debounce (§9) has run, while the Subscriptions page is still loading: they land on
 * Subscriptions and stay there; the abandoned filter does not pull them back to Users.
 */
export const LeavingBeforeAFilterApplies: Story = {
  args: { initialEntry: '/users' },
  parameters: {
    msw: {
      handlers: [
        // Subscriptions answers slowly: its page is still loading when the debounce would run.
        http.get(api('/subscriptions'), async () => {
          await delay(900);
        }),
        ...meta.parameters.msw.handlers,
      ],
    },
  },
  play: async ({ canvas }) => {
    await canvas.findByRole('heading', { level: 1, name: 'Users' }, LAZY);
    await userEvent.type(
      within(canvas.getByRole('search', { name: 'Users filters' })).getByLabelText('Email'),
      'paula',
    );
    await userEvent.click(
      within(canvas.getByRole('navigation', { name: 'Main' })).getByRole('link', {
        name: 'Subscriptions',
      }),
    );
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Subscriptions' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/subscriptions');
    // Past the debounce and the slow page: still on Subscriptions.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(flowLocation()).toBe('/subscriptions');
    await expect(canvas.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
    // A still state for the screenshot: the page at its top.
    window.scrollTo(0, 0);
  },
};

/** Each entry of the sidebar opens its screen: its title, the document title and focus on the content. */
export const EverySidebarEntry: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('region', { name: 'MRR' }, LAZY);
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    const screens: [label: string, path: string, title: string][] = [
      ['Metrics', '/metrics', 'Metrics'],
      ['Revenue', '/revenue', 'Revenue'],
      ['Users', '/users', 'Users'],
      ['Subscriptions', '/subscriptions', 'Subscriptions'],
      ['Integrated Tracking', '/isr', 'Integrated Tracking (First-Party)'],
      ['Webhooks', '/webhooks', 'Webhooks'],
      ['Logs', '/logs', 'Logs'],
      ['Audit', '/audit', 'Audit'],
      ['Settings', '/settings', 'Settings'],
      ['Maintenance', '/maintenance', 'Maintenance'],
      ['Dashboard', '/', 'Dashboard'],
    ];
    for (const [label, path, title] of screens) {
      await userEvent.click(within(nav).getByRole('link', { name: label }));
      await expect(
        await canvas.findByRole('heading', { level: 1, name: title }, LAZY),
      ).toBeVisible();
      await expect(flowLocation()).toBe(path);
      await waitFor(() => expect(document.title).toBe(`${title} · MG Admin Console`));
      await waitFor(() => expect(canvas.getByRole('main')).toHaveFocus());
    }
    await canvas.findByRole('region', { name: 'MRR' });
  },
};
