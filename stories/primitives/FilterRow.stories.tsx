import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { FilterRow, optionsWithAny, type FilterField } from '../../src/components/FilterRow';

interface DemoFilters {
  q: string;
  level: string;
  from: string;
  to: string;
}
const FIELDS: readonly FilterField<DemoFilters>[] = [
  { kind: 'text', key: 'q', label: 'Search', type: 'search' },
  {
    kind: 'select',
    key: 'level',
    label: 'Level',
    options: optionsWithAny('Any', ['info', 'warn', 'error']),
  },
  { kind: 'range', label: 'When', from: 'from', to: 'to', input: 'datetime-local' },
];
const EMPTY: DemoFilters = { q: '', level: '', from: '', to: '' };

const meta = {
  title: 'Primitives/FilterRow',
  component: FilterRow<DemoFilters>,
  args: {
    label: 'Demo filters',
    fields: FIELDS,
    values: EMPTY,
    onValuesChange: fn(),
    onClearAll: fn(),
  },
} satisfies Meta<typeof FilterRow<DemoFilters>>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Filters that apply as they change: each edit reports the whole set; Clear asks for a reset. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('search', { name: 'Demo filters' })).toBeVisible();
    await userEvent.type(canvas.getByLabelText('Search'), 'x');
    await expect(args.onValuesChange).toHaveBeenLastCalledWith({ ...EMPTY, q: 'x' });
    await userEvent.selectOptions(canvas.getByLabelText('Level'), 'warn');
    await expect(args.onValuesChange).toHaveBeenLastCalledWith({ ...EMPTY, level: 'warn' });
    await expect(canvas.getByLabelText('When from')).toHaveAttribute('type', 'datetime-local');
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
    // Enter in a field never reloads the page.
    await userEvent.type(canvas.getByLabelText('Search'), '{Enter}');
    await expect(canvas.getByRole('search')).toBeVisible();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** Values set: every field shows its value. */
export const Filled: Story = {
  args: {
    values: { q: 'timeout', level: 'error', from: '2026-11-19T00:00', to: '2026-11-20T12:00' },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Search')).toHaveValue('timeout');
    await expect(canvas.getByLabelText('Level')).toHaveValue('error');
    await expect(canvas.getByLabelText('When to')).toHaveValue('2026-11-20T12:00');
  },
};

/** A search form (ISR): Enter or Search applies; extra actions follow. */
export const SearchForm: Story = {
  args: {
    onSubmit: fn(),
    onClearAll: undefined,
    actions: <button type="button">Export CSV</button>,
  },
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Search' }));
    await expect(args.onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.type(canvas.getByLabelText('Search'), '{Enter}');
    await expect(args.onSubmit).toHaveBeenCalledTimes(2);
    await expect(canvas.queryByRole('button', { name: 'Clear' })).toBeNull();
    await expect(canvas.getByRole('button', { name: 'Export CSV' })).toBeVisible();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
