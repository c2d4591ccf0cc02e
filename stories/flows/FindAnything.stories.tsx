import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { TOKEN_STORAGE_KEY } from '../../src/domain/types';
import { defaultHandlers } from '../../tests/msw/defaultHandlers';
import { FlowApp, flowLocation } from './FlowApp';
import { LAZY, recordCalls, seen } from './handlers';

/**
 * Find anything from any screen (docs/api.md "Search"): Ctrl/Cmd+K or '/' opens the palette,
 * the text is searched once the typing pauses, and Enter opens the chosen customer or screen.
 */
const meta = {
  title: 'Flows/FindAnything',
  component: FlowApp,
  args: { initialEntry: '/users' },
  parameters: { layout: 'fullscreen', msw: { handlers: [recordCalls, ...defaultHandlers()] } },
  beforeEach() {
    seen.length = 0;
    localStorage.setItem(TOKEN_STORAGE_KEY, 'flow-token');
  },
} satisfies Meta<typeof FlowApp>;
export default meta;
type Story = StoryObj<typeof meta>;

const searches = () => seen.filter((call) => call === 'GET /api/admin/search');

/**
 * Ctrl+K on Users, a pasted receipt, Enter: the customer's page opens, focus on its content,
 * and the pasted text was searched once.
 */
export const PasteAReceipt: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('heading', { level: 1, name: 'Users' }, LAZY);
    await userEvent.keyboard('{Control>}k{/Control}');
    const palette = await within(document.body).findByRole('dialog', { name: 'Find anything' });
    const input = within(palette).getByRole('combobox');
    await expect(input).toHaveFocus();
    await userEvent.paste('JD7Q2M9P');
    const first = await within(palette).findByRole('option', { name: /JD7Q2M9P/ }, LAZY);
    await expect(first).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'johndoe@example.com' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/customers/johndoe%40example.com');
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
    await expect(searches()).toHaveLength(1);
    await waitFor(() => expect(canvas.getByRole('main')).toHaveFocus());
    // A still state for the screenshot: the page at its top.
    window.scrollTo(0, 0);
  },
};

/**
 * '/' outside a text field opens it; typing 'logs' quickly asks once after the pause, and Enter
 * goes to Logs. Escape on a second opening returns focus where it was.
 */
export const SlashToAScreen: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('heading', { level: 1, name: 'Users' }, LAZY);
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    within(nav).getByRole('link', { name: 'Metrics' }).focus();
    await userEvent.keyboard('/');
    const palette = await within(document.body).findByRole('dialog', { name: 'Find anything' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Metrics' })).toHaveFocus());
    await expect(palette).not.toBeInTheDocument();

    await userEvent.keyboard('/');
    const again = await within(document.body).findByRole('dialog', { name: 'Find anything' });
    await userEvent.type(within(again).getByRole('combobox'), 'logs', { delay: 10 });
    const logs = await within(again).findByRole('option', { name: 'Logs' }, LAZY);
    await waitFor(() => expect(logs).toHaveAttribute('aria-selected', 'true'));
    await expect(searches()).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Logs' }, LAZY),
    ).toBeVisible();
    await expect(flowLocation()).toBe('/logs');
  },
};

/** '/' typed into a filter field types a slash there and opens nothing. */
export const SlashInAField: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('heading', { level: 1, name: 'Users' }, LAZY);
    const email = within(canvas.getByRole('search', { name: 'Users filters' })).getByLabelText(
      'Email',
    );
    await userEvent.type(email, 'a/b');
    await expect(email).toHaveValue('a/b');
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
    // The slash reaches the filter too; the screenshot waits for its answer to settle.
    await waitFor(() => expect(flowLocation()).toContain('email=a%2Fb'), LAZY);
    await expect(await canvas.findByText('No users found.', {}, LAZY)).toBeVisible();
    await waitFor(() => expect(canvas.getByRole('table')).not.toHaveAttribute('aria-busy'));
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
    window.scrollTo(0, 0);
  },
};
