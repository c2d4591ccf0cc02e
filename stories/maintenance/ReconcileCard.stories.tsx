import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent } from 'storybook/test';
import { ReconcileCard } from '../../src/components/ReconcileCard';
import { normaliseReconcileResult } from '../../src/domain/reconcile';
import { RECONCILE_DRY_WIRE } from '../../tests/msw/fixtures-reconcile';

/** One provider's Reconcile card body: Dry run, Apply (admins and up), the last outcome. */
const meta = {
  title: 'Maintenance/Reconcile card',
  component: ReconcileCard,
  args: {
    provider: 'lemonsqueezy',
    outcome: null,
    running: null,
    isDisabled: false,
    canApply: true,
    onDryRun: fn(),
    onApplyRequest: fn(),
  },
} satisfies Meta<typeof ReconcileCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Nothing run yet: both buttons enabled; each names its provider. */
export const Idle: Story = {
  play: async ({ canvas, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run LemonSqueezy' }));
    await expect(args.onDryRun).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'Apply LemonSqueezy' }));
    await expect(args.onApplyRequest).toHaveBeenCalledOnce();
    await expect(canvas.queryByRole('status')).toBeNull();
  },
};

/** A dry run in progress: busy, both buttons disabled. */
export const Running: Story = {
  args: { running: 'dry-run' },
  play: async ({ canvas }) => {
    const running = canvas.getByRole('button', { name: 'Dry run… LemonSqueezy' });
    await expect(running).toHaveAttribute('aria-busy', 'true');
    await expect(running).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Apply LemonSqueezy' })).toBeDisabled();
  },
};

/** Below the admin role: Apply disabled with the reason; a dry run still works. */
export const CannotApply: Story = {
  args: { canApply: false, provider: 'clickbank' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'Apply ClickBank' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Dry run ClickBank' })).toBeEnabled();
    await expect(
      canvas.getByText('Applying needs the admin role; a dry run changes nothing.'),
    ).toBeVisible();
  },
};

/** After a dry run: the result below the buttons. */
export const WithDryRunResult: Story = {
  args: {
    outcome: {
      kind: 'result',
      result: normaliseReconcileResult(RECONCILE_DRY_WIRE, 'lemonsqueezy'),
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { name: 'Dry run: LemonSqueezy' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Apply LemonSqueezy' })).toBeEnabled();
  },
};
