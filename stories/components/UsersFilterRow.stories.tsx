import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, userEvent } from 'storybook/test';
import { UsersFilterRow, type UsersFilterRowProps } from '../../src/components/UsersFilterRow';
import { NO_FILTERS, SOME_FILTERS } from '../fixtures/users';

const meta = {
  title: 'Components/UsersFilterRow',
  component: UsersFilterRow,
  args: { filters: NO_FILTERS, onFiltersChange: fn(), onClearAll: fn() },
  decorators: [
    (Story) => (
      <div style={{ padding: 'var(--space-4)' }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof UsersFilterRow>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Every filter at "any": the §4 options are offered, with All / Any first. */
export const Empty: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('search', { name: 'Filters' })).toBeVisible();
    const options = (name: string) =>
      [...(canvas.getByRole('combobox', { name }) as HTMLSelectElement).options].map(
        (o) => o.textContent,
      );
    await expect(options('Provider')).toEqual(['All', 'lemonsqueezy', 'clickbank']);
    await expect(options('Provider Status')).toEqual([
      'Any',
      'active',
      'trialing',
      'paused',
      'past_due',
      'cancelled',
    ]);
    await expect(options('MG Status')).toEqual(['Any', 'active', 'scheduled', 'cancelled']);
    await expect(options('Cadence')).toEqual(['Any', 'monthly', 'yearly']);
    for (const name of ['ID', 'Email', 'Provider ID'])
      await expect(canvas.getByRole('textbox', { name })).toHaveValue('');
    for (const label of ['Start from', 'Start to', 'Expiry from', 'Expiry to']) {
      await expect(canvas.getByLabelText(label)).toHaveAttribute('type', 'date');
    }
  },
};

/** Every filter set; Clear asks the screen to reset them all. */
export const Filled: Story = {
  args: { ...Empty.args, filters: SOME_FILTERS },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('textbox', { name: 'Email' })).toHaveValue('example.com');
    await expect(canvas.getByRole('combobox', { name: 'Provider Status' })).toHaveValue('past_due');
    await expect(canvas.getByLabelText('Expiry to')).toHaveValue('2026-12-31');
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
    await expect(args.onFiltersChange).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** The row driven as the screen drives it: state held outside, every change reported. */
function Controlled(args: UsersFilterRowProps) {
  const [filters, setFilters] = useState(args.filters);
  return (
    <UsersFilterRow
      {...args}
      filters={filters}
      onFiltersChange={(next) => {
        args.onFiltersChange(next);
        setFilters(next);
      }}
    />
  );
}

/** Typing and choosing report the whole next filter object, raw (untrimmed), one change at a time. */
export const Editing: Story = {
  args: { ...Empty.args },
  render: (args) => <Controlled {...args} />,
  play: async ({ canvas, args }) => {
    await userEvent.type(canvas.getByRole('textbox', { name: 'Email' }), ' ada@');
    await expect(args.onFiltersChange).toHaveBeenCalledTimes(5);
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, email: ' ada@' });

    await userEvent.selectOptions(canvas.getByRole('combobox', { name: 'Provider' }), 'clickbank');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...NO_FILTERS,
      email: ' ada@',
      provider: 'clickbank',
    });

    await userEvent.selectOptions(canvas.getByRole('combobox', { name: 'MG Status' }), 'scheduled');
    await userEvent.selectOptions(canvas.getByRole('combobox', { name: 'Cadence' }), 'yearly');
    await userEvent.type(canvas.getByRole('textbox', { name: 'ID' }), '42');
    await userEvent.type(canvas.getByLabelText('Expiry from'), '2026-12-01');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...NO_FILTERS,
      email: ' ada@',
      provider: 'clickbank',
      mgStatus: 'scheduled',
      cadence: 'yearly',
      rowId: '42',
      expFrom: '2026-12-01',
    });

    // Enter in a field must not submit (reload) anything.
    await userEvent.type(canvas.getByRole('textbox', { name: 'Provider ID' }), 'K7{Enter}');
    await expect(canvas.getByRole('textbox', { name: 'Provider ID' })).toHaveValue('K7');

    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
