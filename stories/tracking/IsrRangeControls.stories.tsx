import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fireEvent, fn, userEvent } from 'storybook/test';
import { IsrRangeControls } from '../../src/components/IsrRangeControls';
import { isrPresetRange } from '../../src/domain/isr';

const NOW = new Date('2026-11-20T12:00:00Z');

/** The Integrated Tracking range controls (§2): 7D/14D/30D, two UTC datetime-local inputs, Refresh. */
const meta = {
  title: 'Tracking/IsrRangeControls',
  component: IsrRangeControls,
  args: {
    range: isrPresetRange(14, NOW),
    activeDays: 14,
    isRefreshing: false,
    onPresetChange: fn(),
    onRangeChange: fn(),
    onRefresh: fn(),
  },
} satisfies Meta<typeof IsrRangeControls>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The default 14 days: 14D pressed, from the start of 2026-11-07 through now. */
export const Default: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('button', { name: '14D' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(canvas.getByRole('button', { name: '7D' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    // The browser shows whole minutes without ':00' seconds.
    await expect(canvas.getByLabelText('From (UTC)')).toHaveValue('2026-11-07T00:00');
    await expect(canvas.getByLabelText('To (UTC)')).toHaveValue('2026-11-20T12:00');
    await userEvent.click(canvas.getByRole('button', { name: '30D' }));
    await expect(args.onPresetChange).toHaveBeenCalledWith(30);
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
  },
};

/** A hand-made range: no button pressed; editing an input reports the new range. */
export const CustomRange: Story = {
  args: { range: { from: '2026-11-01T08:30:00', to: '2026-11-02T17:00:00' }, activeDays: null },
  play: async ({ canvas, args }) => {
    for (const name of ['7D', '14D', '30D'])
      await expect(canvas.getByRole('button', { name })).toHaveAttribute('aria-pressed', 'false');
    await expect(canvas.getByLabelText('From (UTC)')).toHaveValue('2026-11-01T08:30');
    fireEvent.change(canvas.getByLabelText('From (UTC)'), {
      target: { value: '2026-10-30T06:00' },
    });
    await expect(args.onRangeChange).toHaveBeenLastCalledWith({
      from: '2026-10-30T06:00',
      to: '2026-11-02T17:00:00',
    });
  },
};

/** While loading: 'Refreshing…', disabled. */
export const Refreshing: Story = {
  args: { isRefreshing: true },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Refreshing…' })).toBeDisabled();
  },
};
