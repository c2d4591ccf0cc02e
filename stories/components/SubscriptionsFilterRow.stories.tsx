import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, fn, userEvent } from 'storybook/test';
import { SubscriptionsFilterRow } from '../../src/components/SubscriptionsFilterRow';
import { EMPTY_FILTERS, FILLED_FILTERS } from '../fixtures/subscriptions';

/** The date-range inputs of §2, in display order. */
const DATE_LABELS = [
  'Start from',
  'Start to',
  'Renew from',
  'Renew to',
  'Expire from',
  'Expire to',
  'Updated from',
  'Updated to',
];

/** The options of a select as [value, text] pairs. */
function optionsOf(select: HTMLElement) {
  return [...(select as HTMLSelectElement).options].map((option) => [option.value, option.text]);
}

const meta = {
  title: 'Components/SubscriptionsFilterRow',
  component: SubscriptionsFilterRow,
  args: { filters: EMPTY_FILTERS, onFiltersChange: fn(), onClearAll: fn() },
} satisfies Meta<typeof SubscriptionsFilterRow>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * Nothing filtered: every §2 control with its options; each change reports the whole new filter
 * set with just that field changed.
 */
export const Empty: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('search', { name: 'Subscription filters' })).toBeVisible();
    await expect(optionsOf(canvas.getByLabelText('Provider'))).toEqual([
      ['', 'All'],
      ['lemonsqueezy', 'lemonsqueezy'],
      ['clickbank', 'clickbank'],
    ]);
    await expect(optionsOf(canvas.getByLabelText('Status'))).toEqual([
      ['', 'Any'],
      ['active', 'active'],
      ['trialing', 'trialing'],
      ['paused', 'paused'],
      ['past_due', 'past_due'],
      ['cancelled', 'cancelled'],
    ]);
    await expect(optionsOf(canvas.getByLabelText('Cadence'))).toEqual([
      ['', 'Any'],
      ['monthly', 'Monthly'],
      ['yearly', 'Yearly'],
    ]);
    for (const label of DATE_LABELS) {
      await expect(canvas.getByLabelText(label)).toHaveAttribute('type', 'date');
    }

    await userEvent.type(canvas.getByLabelText('ID'), '7');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...EMPTY_FILTERS, rowId: '7' });
    await userEvent.type(canvas.getByLabelText('Email'), 'j');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...EMPTY_FILTERS, email: 'j' });
    await userEvent.type(canvas.getByLabelText('Sub ID'), 'K');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...EMPTY_FILTERS,
      providerId: 'K',
    });
    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'clickbank');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...EMPTY_FILTERS,
      provider: 'clickbank',
    });
    await userEvent.selectOptions(canvas.getByLabelText('Status'), 'past_due');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...EMPTY_FILTERS,
      status: 'past_due',
    });
    await userEvent.selectOptions(canvas.getByLabelText('Cadence'), 'Yearly');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...EMPTY_FILTERS,
      cadence: 'yearly',
    });
    fireEvent.change(canvas.getByLabelText('Renew from'), { target: { value: '2026-12-01' } });
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...EMPTY_FILTERS,
      renewFrom: '2026-12-01',
    });
    fireEvent.change(canvas.getByLabelText('Updated to'), { target: { value: '2026-11-20' } });
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...EMPTY_FILTERS,
      updatedTo: '2026-11-20',
    });
    await expect(args.onFiltersChange).toHaveBeenCalledTimes(8);
    await expect(args.onClearAll).not.toHaveBeenCalled();
  },
};

/** Every filter set: the controls show the values; Clear asks the screen to reset them all. */
export const Filled: Story = {
  args: { ...Empty.args, filters: FILLED_FILTERS },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByLabelText('ID')).toHaveValue('2041');
    await expect(canvas.getByLabelText('Email')).toHaveValue('jordan');
    await expect(canvas.getByLabelText('Provider')).toHaveValue('clickbank');
    await expect(canvas.getByLabelText('Sub ID')).toHaveValue('K7QX2M9P');
    await expect(canvas.getByLabelText('Status')).toHaveValue('active');
    await expect(canvas.getByLabelText('Cadence')).toHaveValue('monthly');
    await expect(canvas.getByLabelText('Start from')).toHaveValue('2026-01-01');
    await expect(canvas.getByLabelText('Expire to')).toHaveValue('2027-12-31');
    await expect(canvas.getByLabelText('Updated to')).toHaveValue('2026-11-20');

    await userEvent.selectOptions(canvas.getByLabelText('Provider'), 'All');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...FILLED_FILTERS,
      provider: '',
    });
    fireEvent.change(canvas.getByLabelText('Start from'), { target: { value: '' } });
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...FILLED_FILTERS,
      startFrom: '',
    });

    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
    await expect(args.onFiltersChange).toHaveBeenCalledTimes(2);
  },
};
