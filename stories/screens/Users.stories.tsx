import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { UsersScreen } from '../../src/screens/UsersScreen';
import { delay, http, HttpResponse } from 'msw';
import { ACTION_RESULTS_WIRE } from '../../tests/msw/fixtures';
import { actionHandlers, api, usersHandlers } from '../../tests/msw/handlers';
import { pause, recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

/** The Users screen wired to the API (MSW per story), inside the real router at /users (§2 Users). */
const meta = {
  title: 'Screens/Users',
  component: UsersScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/users' },
    msw: { handlers: [usersHandlers.list(), actionHandlers.updated()] },
  },
} satisfies Meta<typeof UsersScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const WAIT = { timeout: 8000 } as const;

/** The first page of users with the §2 header text. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const edits = await canvas.findAllByRole('button', { name: /^Edit access for / }, WAIT);
    await expect(edits.length).toBeGreaterThan(0);
    await expect(canvas.getAllByText(/Page 1 of/)[0]).toBeVisible();
  },
};

/** While the list loads (§2 'Loading users'). */
export const Loading: Story = {
  parameters: { msw: { handlers: [usersHandlers.loading()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/Loading users/, {}, WAIT)).toBeVisible();
  },
};

/** A failed load: 'Error: {message}' with Retry, the list emptied (§8). */
export const Error: Story = {
  parameters: { msw: { handlers: [usersHandlers.error(500, 'Users query failed')] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Error: Users query failed', {}, WAIT)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};

/** No users match: 'No users found.' with Refresh (§2). */
export const Empty: Story = {
  parameters: { msw: { handlers: [usersHandlers.empty()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No users found.', {}, WAIT)).toBeVisible();
    await expect(canvas.getAllByRole('button', { name: 'Refresh' }).length).toBeGreaterThan(0);
  },
};

/** Grant now from a row's Edit menu shows the §8 result alert. */
export const ActionResult: Story = {
  play: async ({ canvas }) => {
    const [edit] = await canvas.findAllByRole('button', { name: /^Edit access for / }, WAIT);
    await userEvent.click(edit!);
    await userEvent.click(
      await within(document.body).findByRole('menuitem', { name: /Grant now/ }),
    );
    await expect(await canvas.findByText('OK (Discourse updated)', {}, WAIT)).toBeVisible();
  },
};

/* ------------------------------------------------------------------------------------------ */
/* The screen's own list logic (§4), proven on the requests it sends                           */
/* ------------------------------------------------------------------------------------------ */

const users = recordRequests('/users');
const last = () => users.params().at(-1);
const loaded = async (count: number) =>
  waitFor(() => expect(users.params()).toHaveLength(count), WAIT);

/** Typing in a text filter sends one request, 300 ms after the last keystroke, on page 1. */
export const TypingIsDebounced: Story = {
  parameters: {
    screen: { route: '/users?page=2' },
    msw: { handlers: [users.handler, usersHandlers.many(200)] },
  },
  beforeEach: () => users.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(last()).toMatchObject({ page: '2' });
    await userEvent.type(canvas.getByLabelText('Email'), 'user1');
    // Five keystrokes, no request yet.
    await expect(users.params()).toHaveLength(1);
    await loaded(2);
    await expect(last()).toMatchObject({ page: '1', email: 'user1' });
    await pause(600);
    await expect(users.params()).toHaveLength(2);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A select filter applies at once and a page-size change too; both return to page 1. */
export const FilterAndPageSizeResetPage: Story = {
  parameters: {
    screen: { route: '/users?page=3' },
    msw: { handlers: [users.handler, usersHandlers.many(500)] },
  },
  beforeEach: () => users.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(last()).toMatchObject({ page: '3' });
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'clickbank');
    await loaded(2);
    await expect(last()).toMatchObject({ page: '1', provider: 'clickbank' });
    const pager = canvas.getByRole('navigation', { name: 'Users pages' });
    // Next ignores clicks while the list is busy: wait for the ClickBank answer (166 of the 500).
    await waitFor(() => expect(pager).toHaveTextContent('Page 1 of 4'), WAIT);
    await userEvent.click(within(pager).getByRole('button', { name: 'Next' }));
    await loaded(3);
    await expect(last()).toMatchObject({ page: '2', provider: 'clickbank' });
    await userEvent.selectOptions(
      within(pager).getByRole('combobox', { name: 'Page size' }),
      '100',
    );
    await loaded(4);
    await expect(last()).toMatchObject({ page: '1', pageSize: '100', provider: 'clickbank' });
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A deep link past the last page (?page=99) lands on the last page (§4 clamp). */
export const ClampsPage: Story = {
  parameters: {
    screen: { route: '/users?page=99' },
    msw: { handlers: [users.handler, usersHandlers.many(120)] },
  },
  beforeEach: () => users.reset(),
  play: async ({ canvas }) => {
    await loaded(2);
    await expect(users.params().map((p) => p.page)).toEqual(['99', '3']);
    await expect(await canvas.findAllByText('Page 3 of 3', {}, WAIT)).not.toHaveLength(0);
    await expect(screenRouter().state.location.search).toBe('?page=3');
  },
};

/** Back and Forward restore the filter inputs as well as the list, and reload it (§4). */
export const BackRestoresFilters: Story = {
  parameters: { msw: { handlers: [users.handler, usersHandlers.many(60)] } },
  beforeEach: () => users.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    const email = canvas.getByLabelText('Email');
    await userEvent.type(email, 'user2');
    await loaded(2);
    await userEvent.selectOptions(canvas.getByLabelText('Cadence'), 'yearly');
    await loaded(3);
    await expect(last()).toMatchObject({ email: 'user2', cadence: 'yearly' });

    await screenRouter().navigate(-1);
    await waitFor(() => expect(canvas.getByLabelText('Cadence')).toHaveValue(''));
    await expect(email).toHaveValue('user2');
    await loaded(4);
    await expect(last()).toEqual(users.params()[1]);
    await screenRouter().navigate(-1);
    await waitFor(() => expect(email).toHaveValue(''));
    await loaded(5);
    await expect(last()).toEqual(users.params()[0]);
    await screenRouter().navigate(1);
    await waitFor(() => expect(email).toHaveValue('user2'));
    // Each step changes the filters, so each asks the server again although its page is cached.
    await loaded(6);
    await expect(last()).toEqual(users.params()[1]);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A header click sorts ascending; a second click on it descending (§2). */
export const SortToggles: Story = {
  parameters: { msw: { handlers: [users.handler, usersHandlers.many(60)] } },
  beforeEach: () => users.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(last()).toMatchObject({ sort: '-updated_at' });
    const header = canvas.getByRole('columnheader', { name: /^Email/ });
    await userEvent.click(within(header).getByRole('button'));
    await loaded(2);
    await expect(last()).toMatchObject({ sort: 'email', page: '1' });
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'ascending'));
    await userEvent.click(within(header).getByRole('button'));
    await loaded(3);
    await expect(last()).toMatchObject({ sort: '-email' });
    await waitFor(() => expect(header).toHaveAttribute('aria-sort', 'descending'));
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Two actions on different rows overlap: each gets its own result alert (§8). */
export const OverlappingActions: Story = {
  parameters: {
    msw: {
      handlers: [
        usersHandlers.list(),
        // Slow answers, so the second action starts while the first is still running.
        http.post(api('/users/actions/:action'), async () => {
          await delay(600);
          return HttpResponse.json(ACTION_RESULTS_WIRE.updated);
        }),
      ],
    },
  },
  play: async ({ canvas }) => {
    const edits = await canvas.findAllByRole('button', { name: /^Edit access for / }, WAIT);
    const body = within(document.body);
    for (const edit of edits.slice(0, 2)) {
      await userEvent.click(edit);
      await userEvent.click(await body.findByRole('menuitem', { name: /Grant now/ }));
    }
    await waitFor(
      () => expect(canvas.getAllByText('OK (Discourse updated)')).toHaveLength(2),
      WAIT,
    );
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
