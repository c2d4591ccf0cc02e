import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor } from 'storybook/test';
import { LogsScreen } from '../../src/screens/LogsScreen';
import { makeLogRows } from '../../tests/msw/fixtures-logs';
import { logsHandlers } from '../../tests/msw/handlers-logs';
import { pause, recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

/** The Logs screen (§2 Logs, §4, §8) against mocked GET /logs, at /logs in the real router. */
const meta = {
  title: 'Screens/Logs',
  component: LogsScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/logs' },
    msw: { handlers: [logsHandlers.list()] },
  },
} satisfies Meta<typeof LogsScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const WAIT = { timeout: 8000 } as const;
const logs = recordRequests('/logs');
const loaded = async (count: number) =>
  waitFor(() => expect(logs.params()).toHaveLength(count), WAIT);

/** The latest entries with Auto-refresh on. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('GET /api/admin/users 200', {}, WAIT)).toBeVisible();
    await expect(canvas.getByLabelText('Auto-refresh')).toBeChecked();
    await expect(canvas.getByRole('navigation', { name: 'Log pages' })).toHaveTextContent(
      'Total: 12',
    );
  },
};

/** While the first page loads. */
export const Loading: Story = {
  parameters: { msw: { handlers: [logsHandlers.loading()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Loading…', {}, WAIT)).toBeVisible();
  },
};

/** A failed load shows 'Failed to load logs' whatever the server said (§8). */
export const Error: Story = {
  parameters: { msw: { handlers: [logsHandlers.error(500, 'relation "logs" does not exist')] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert', {}, WAIT)).toHaveTextContent(
      'Failed to load logs',
    );
  },
};

/** An empty first answer is retried once, 300 ms later (§4), then 'No logs found.'. */
export const EmptyRetriedOnce: Story = {
  parameters: { msw: { handlers: [logs.handler, logsHandlers.empty()] } },
  beforeEach: () => logs.reset(),
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No logs found.', {}, WAIT)).toBeVisible();
    await loaded(2);
    await pause(700);
    await expect(logs.params()).toHaveLength(2);
  },
};

/** Level applies at once, Search after a 300 ms pause; both reload from page 1 (§4). */
export const FilterAndSearch: Story = {
  parameters: {
    screen: { route: '/logs?page=2' },
    msw: { handlers: [logs.handler, logsHandlers.list(makeLogRows(180))] },
  },
  beforeEach: () => logs.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(logs.params()[0]).toEqual({ page: '2', pageSize: '50' });
    await userEvent.selectOptions(canvas.getByLabelText('Level'), 'warn');
    await loaded(2);
    await expect(logs.params()[1]).toEqual({ page: '1', pageSize: '50', level: 'warn' });
    await userEvent.type(canvas.getByLabelText('Search (message, context)'), 'request 1');
    await expect(logs.params()).toHaveLength(2);
    await loaded(3);
    await expect(logs.params()[2]).toEqual({
      page: '1',
      pageSize: '50',
      level: 'warn',
      q: 'request 1',
    });
    await userEvent.selectOptions(canvas.getByLabelText('Rows'), '100');
    await loaded(4);
    await expect(logs.params()[3]).toMatchObject({ page: '1', pageSize: '100' });
    // Back restores the inputs, and the list is asked for again (§4: logs reload on any change).
    await screenRouter().navigate(-1);
    await waitFor(() => expect(canvas.getByLabelText('Rows')).toHaveValue('50'));
    await loaded(5);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A deep link past the last page lands on the last page. */
export const ClampsPage: Story = {
  parameters: {
    screen: { route: '/logs?page=40' },
    msw: { handlers: [logs.handler, logsHandlers.list(makeLogRows(120))] },
  },
  beforeEach: () => logs.reset(),
  play: async ({ canvas }) => {
    await loaded(2);
    await expect(logs.params().map((p) => p.page)).toEqual(['40', '3']);
    await waitFor(() =>
      expect(canvas.getByRole('navigation', { name: 'Log pages' })).toHaveTextContent(
        'Page 3 of 3',
      ),
    );
  },
};
