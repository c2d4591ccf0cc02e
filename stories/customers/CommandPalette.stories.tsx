import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { normaliseSearch } from '../../src/api/customers';
import { CommandPalette, type CommandPaletteProps } from '../../src/components/CommandPalette';
import { SEARCH_RESULTS_WIRE } from '../../tests/msw/fixtures-customers';

const RESULTS = normaliseSearch({ results: SEARCH_RESULTS_WIRE });

/** The palette with its open state and text held locally, as the screen holds them. */
function Harness(props: CommandPaletteProps) {
  const [isOpen, setOpen] = useState(props.isOpen);
  const [query, setQuery] = useState(props.query);
  return (
    <div style={{ display: 'flex', gap: 'var(--space-3)', alignItems: 'center' }}>
      <button type="button">Before</button>
      <CommandPalette
        {...props}
        isOpen={isOpen}
        query={query}
        onOpenChange={(next) => {
          setOpen(next);
          props.onOpenChange(next);
        }}
        onQueryChange={(next) => {
          setQuery(next);
          props.onQueryChange(next);
        }}
      />
    </div>
  );
}

const meta = {
  title: 'Customers/CommandPalette',
  component: CommandPalette,
  render: (args) => <Harness {...args} />,
  args: {
    isOpen: true,
    onOpenChange: fn(),
    query: 'jd7',
    onQueryChange: fn(),
    results: { status: 'ready', data: RESULTS },
    onSelect: fn(),
  },
} satisfies Meta<typeof CommandPalette>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The open palette (a portal, so plays look in document.body). */
async function findPalette() {
  return within(document.body).findByRole('dialog', { name: 'Find anything' });
}

/**
 * Results grouped by kind in rank order (an exact receipt first, then customers by email and
 * name, a subscription, a screen); the first is selected; arrows move, Enter opens.
 */
export const Results: Story = {
  play: async ({ args }) => {
    const palette = await findPalette();
    const input = within(palette).getByRole('combobox', {
      name: 'Search customers, ids, receipts and screens',
    });
    await expect(input).toHaveFocus();
    const options = within(palette).getAllByRole('option');
    await expect(options.map((o) => o.textContent)).toEqual([
      'JD7Q2M9Pjohndoe@example.com',
      'johndoe@example.com',
      'John Doejohndoe@example.com',
      'LemonSqueezy subscription 1johndoe@example.com · matched 1',
      'Logs',
    ]);
    await expect(within(palette).getByText('Receipts')).toBeVisible();
    await expect(within(palette).getByText('Screens')).toBeVisible();
    await expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    await expect(options[2]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    await expect(args.onSelect).toHaveBeenCalledWith(RESULTS[2]);
    await expect(within(palette).getByRole('status')).toHaveTextContent('5 results');
  },
};

/** Opened from the header's search box; Escape closes it and focus returns to the box. */
export const OpenAndEscape: Story = {
  args: { isOpen: false, query: '' },
  play: async ({ canvas, args }) => {
    const trigger = canvas.getByRole('button', { name: /Search… customers, ids/ });
    await expect(trigger).toHaveTextContent('Ctrl K');
    await userEvent.click(trigger);
    const palette = await findPalette();
    await expect(
      within(palette).getByText(/Type an email, a name, a subscription or order id/),
    ).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(trigger).toHaveFocus());
  },
};

/** Typing goes to the screen, which debounces the search. */
export const Typing: Story = {
  args: { query: '', results: { status: 'loading' } },
  play: async ({ args }) => {
    const palette = await findPalette();
    await userEvent.type(within(palette).getByRole('combobox'), 'logs');
    await expect(args.onQueryChange).toHaveBeenLastCalledWith('logs');
    await expect(within(palette).getByText('Searching…')).toBeVisible();
  },
};

/** Nothing matches. */
export const NoMatches: Story = {
  args: { query: 'zzz-no-such', results: { status: 'empty' } },
  play: async () => {
    const palette = await findPalette();
    await expect(within(palette).getByText('No matches for “zzz-no-such”.')).toBeVisible();
    await expect(within(palette).getByRole('status')).toHaveTextContent('No matches');
  },
};

/** The search failed: its message is announced. */
export const SearchFailed: Story = {
  args: { results: { status: 'error', message: 'Search failed (500)' } },
  play: async () => {
    const palette = await findPalette();
    await expect(within(palette).getByRole('alert')).toHaveTextContent('Search failed (500)');
  },
};

/** The mobile header's compact box: the icon only, its name kept. */
export const CompactTrigger: Story = {
  args: { isOpen: false, query: '', isTriggerCompact: true, shortcutLabel: '⌘ K' },
  play: async ({ canvas }) => {
    const trigger = canvas.getByRole('button', { name: /Search… customers, ids/ });
    await expect(trigger).not.toHaveTextContent('⌘ K');
    await expect(trigger).toHaveAttribute('aria-keyshortcuts', 'Control+K Meta+K /');
  },
};
