import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { UsersScreen } from '../../src/screens/UsersScreen';
import { actionHandlers, usersHandlers } from '../../tests/msw/handlers';
import { withScreen } from '../support/withScreen';

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
