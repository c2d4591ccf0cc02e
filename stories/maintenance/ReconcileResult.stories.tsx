import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { ReconcileResult } from '../../src/components/ReconcileResult';
import { normaliseReconcileResult } from '../../src/domain/reconcile';
import {
  RECONCILE_APPLIED_WIRE,
  RECONCILE_DRY_WIRE,
  RECONCILE_NOT_CONFIGURED,
  RECONCILE_NOTHING_WIRE,
  RECONCILE_PARTIAL_WIRE,
  reconcileManyMissingWire,
  reconcileNotAtProviderWire,
} from '../../tests/msw/fixtures-reconcile';

const result = (wire: unknown) => ({
  kind: 'result' as const,
  result: normaliseReconcileResult(wire, 'lemonsqueezy'),
});

/**
 * The reconciliation result (docs/api.md "Reconciliation"): counts, what is missing here, the
 * mismatched fields (ours against the provider's), the stored subscriptions the provider does not
 * list, failures, "not configured", and a failure.
 */
const meta = {
  title: 'Maintenance/Reconcile result',
  component: ReconcileResult,
  args: { provider: 'lemonsqueezy', outcome: result(RECONCILE_DRY_WIRE) },
} satisfies Meta<typeof ReconcileResult>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A dry run with two missing subscriptions and one mismatched in four fields; nothing changed. */
export const DryRunWithDifferences: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { name: 'Dry run: LemonSqueezy' })).toBeVisible();
    await expect(canvas.getByText('1,250 checked · 2 missing · 1 mismatched')).toBeVisible();
    await expect(
      canvas.getByText('Nothing was changed. Apply fixes what is listed.'),
    ).toBeVisible();
    const missing = canvas.getByRole('region', {
      name: 'Subscriptions missing here (LemonSqueezy)',
    });
    await expect(within(missing).getAllByRole('row')).toHaveLength(1 + 2);
    await expect(within(missing).getByText('trial.start@example.com')).toBeVisible();
    const mismatched = canvas.getByRole('region', { name: 'Mismatched fields (LemonSqueezy)' });
    const rows = within(mismatched).getAllByRole('row');
    await expect(rows).toHaveLength(1 + 4);
    await expect(rows[1]).toHaveTextContent('gone@example.com3202statusactivecancelled');
    await expect(rows[3]).toHaveTextContent('ends_at—2026-11-19 00:00');
    await expect(canvas.getByRole('status')).toHaveAttribute('data-tone', 'info');
  },
};

/** Nothing to fix: the database agrees with the provider. */
export const NothingToFix: Story = {
  args: { outcome: result(RECONCILE_NOTHING_WIRE) },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('1,250 checked · 0 missing · 0 mismatched')).toBeVisible();
    await expect(
      canvas.getByText('Nothing to fix: the database agrees with LemonSqueezy.'),
    ).toBeVisible();
    await expect(canvas.queryByRole('table')).toBeNull();
  },
};

/** Applied: what was fixed, green. */
export const Applied: Story = {
  args: { outcome: result(RECONCILE_APPLIED_WIRE) },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { name: 'Applied: LemonSqueezy' })).toBeVisible();
    await expect(
      canvas.getByText('1,250 checked · 2 missing · 1 mismatched · 3 fixed'),
    ).toBeVisible();
    await expect(canvas.getByRole('status')).toHaveAttribute('data-tone', 'success');
  },
};

/** Applied with one fix that failed: listed with its reason, amber. */
export const AppliedWithFailure: Story = {
  args: { outcome: result(RECONCILE_PARTIAL_WIRE) },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText('1,250 checked · 2 missing · 1 mismatched · 2 fixed · 1 failed'),
    ).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Failed (1)' })).toBeVisible();
    await expect(canvas.getByRole('listitem')).toHaveTextContent(
      'trial.start@example.com: user_email: Enter an email address like name@example.com',
    );
    await expect(canvas.getByRole('status')).toHaveAttribute('data-tone', 'warning');
  },
};

/** More missing subscriptions than the view lists: the first 50 and a note. */
export const ManyMissing: Story = {
  args: { outcome: result(reconcileManyMissingWire(120)) },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Showing the first 50 of 120.')).toBeVisible();
    const region = canvas.getByRole('region', {
      name: 'Subscriptions missing here (LemonSqueezy)',
    });
    await expect(within(region).getAllByRole('row')).toHaveLength(1 + 50);
  },
};

/**
 * Nothing to fix, but the database holds subscriptions of the store that its list lacks: listed
 * with our status, reported and never applied.
 */
export const NotAtProvider: Story = {
  args: { outcome: result(reconcileNotAtProviderWire(3)) },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText('1,250 checked · 0 missing · 0 mismatched · 3 not at the provider'),
    ).toBeVisible();
    await expect(
      canvas.getByText('Nothing to fix: every subscription LemonSqueezy lists agrees.'),
    ).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Not at LemonSqueezy (3)' })).toBeVisible();
    await expect(canvas.getByText(/Reconciliation never changes these/)).toBeVisible();
    const region = canvas.getByRole('region', { name: 'Subscriptions not at LemonSqueezy' });
    const rows = within(region).getAllByRole('row');
    await expect(rows).toHaveLength(1 + 3);
    await expect(rows[0]).toHaveTextContent('EmailSubscriptionStatus here');
    await expect(rows[1]).toHaveTextContent('moved.store@example.com3300active');
    await expect(rows[2]).toHaveTextContent('only-here-2@example.com3301cancelled');
    await expect(canvas.queryByText(/the database agrees/)).toBeNull();
    await expect(canvas.getByRole('status')).toHaveAttribute('data-tone', 'info');
  },
};

/** More stored-only subscriptions than the server lists and the view shows: the first 50 and the total. */
export const ManyNotAtProvider: Story = {
  args: { outcome: result(reconcileNotAtProviderWire(60, 1204)) },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('heading', { name: 'Not at LemonSqueezy (1,204)' }),
    ).toBeVisible();
    await expect(canvas.getByText('Showing the first 50 of 1,204.')).toBeVisible();
    const region = canvas.getByRole('region', { name: 'Subscriptions not at LemonSqueezy' });
    await expect(within(region).getAllByRole('row')).toHaveLength(1 + 50);
  },
};

/** The provider is not configured: what to set. */
export const NotConfigured: Story = {
  args: {
    provider: 'clickbank',
    outcome: { kind: 'not_configured', message: RECONCILE_NOT_CONFIGURED.message },
  },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByRole('heading', { name: 'ClickBank is not configured' }),
    ).toBeVisible();
    await expect(canvas.getByText(/set CLICKBANK_CLERK_KEY/)).toBeVisible();
    await expect(canvas.getByRole('status')).toHaveAttribute('data-tone', 'warning');
  },
};

/** The provider could not be read: an alert with the server's message. */
export const Error: Story = {
  args: {
    outcome: { kind: 'failure', message: 'LemonSqueezy refused the credentials (HTTP 401)' },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'Reconcile LemonSqueezy: LemonSqueezy refused the credentials (HTTP 401)',
    );
  },
};
