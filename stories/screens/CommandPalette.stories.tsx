import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { CommandPaletteScreen } from '../../src/screens/CommandPaletteScreen';
import { searchHandlers } from '../../tests/msw/handlers-customers';
import { recordCalls, seen } from '../flows/handlers';
import { screenRouter, withScreen } from '../support/withScreen';

/**
 * The header's find-anything box wired to GET /search (MSW per story) inside a real router
 * (docs/api.md "Search"): the shortcut opens it, typing is searched after the pause, Enter goes
 * to the result's page.
 */
const meta = {
  title: 'Screens/CommandPalette',
  component: CommandPaletteScreen,
  decorators: [withScreen],
  parameters: {
    screen: { route: '/users' },
    msw: { handlers: [recordCalls, searchHandlers.ok()] },
  },
  beforeEach() {
    seen.length = 0;
  },
} satisfies Meta<typeof CommandPaletteScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const WAIT = { timeout: 8000 } as const;
const searches = () => seen.filter((call) => call === 'GET /api/admin/search');

/** Ctrl+K, 'john' typed quickly: one search, results best first, Enter opens the customer. */
export const SearchAndOpen: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole('button', { name: /Search… customers/ });
    await userEvent.keyboard('{Control>}k{/Control}');
    const palette = await within(document.body).findByRole('dialog', { name: 'Find anything' });
    await userEvent.keyboard('john');
    // Best first: John's receipt (an exact-looking id), then his email and name.
    await within(palette).findByRole('option', { name: /^johndoe@example.com$/ }, WAIT);
    const options = within(palette).getAllByRole('option');
    await expect(options[0]).toHaveTextContent('JD7Q2M9P');
    await waitFor(() => expect(options[0]).toHaveAttribute('aria-selected', 'true'));
    await expect(searches()).toHaveLength(1);
    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(screenRouter().state.location.pathname).toBe('/customers/johndoe%40example.com'),
    );
    await expect(within(document.body).queryByRole('dialog')).toBeNull();
  },
};

/** The search fails: the server's message in the palette, announced. */
export const SearchFails: Story = {
  parameters: { msw: { handlers: [searchHandlers.error(500, 'Search failed (500)')] } },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: /Search… customers/ }));
    const palette = await within(document.body).findByRole('dialog', { name: 'Find anything' });
    await userEvent.keyboard('zz');
    await expect(await within(palette).findByRole('alert', {}, WAIT)).toHaveTextContent(
      'Search failed (500)',
    );
  },
};

/** While the answer is on its way: 'Searching…'. */
export const Searching: Story = {
  parameters: { msw: { handlers: [searchHandlers.loading()] } },
  play: async ({ canvas }) => {
    await userEvent.click(await canvas.findByRole('button', { name: /Search… customers/ }));
    const palette = await within(document.body).findByRole('dialog', { name: 'Find anything' });
    await userEvent.keyboard('jd7');
    await expect(await within(palette).findByText('Searching…', {}, WAIT)).toBeVisible();
  },
};
