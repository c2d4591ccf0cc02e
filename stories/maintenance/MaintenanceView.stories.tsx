import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { MaintenanceView } from '../../src/components/MaintenanceView';
import { normaliseMaintenanceResult } from '../../src/domain/maintenance';
import { normaliseReconcileResult } from '../../src/domain/reconcile';
import { normaliseAdminStats } from '../../src/domain/stats';
import { ADMIN_STATUS_WIRE } from '../../tests/msw/fixtures';
import {
  DIAG_WIRE,
  DUE_EMAILS,
  PING_WIRE,
  expirationWire,
} from '../../tests/msw/fixtures-maintenance';
import { RECONCILE_DRY_WIRE, RECONCILE_NOT_CONFIGURED } from '../../tests/msw/fixtures-reconcile';

/** The Maintenance view (§2 Maintenance, §4): its cards and states, props in, events out. */
const meta = {
  title: 'Maintenance/View',
  component: MaintenanceView,
  args: {
    busyAction: null,
    isConfirmOpen: false,
    expirationOutcome: null,
    diag: { status: 'idle' },
    adminStats: { status: 'ready', data: normaliseAdminStats(ADMIN_STATUS_WIRE) },
    pingOutcomes: {},
    clickbankChoice: 'default',
    enforceEmail: '',
    enforceOutcome: null,
    onDryRun: fn(),
    onRunNowRequest: fn(),
    onRunNowConfirm: fn(),
    onRunNowCancel: fn(),
    onLoadDiag: fn(),
    onRefreshStats: fn(),
    onPing: fn(),
    onClickbankChoiceChange: fn(),
    onEnforceEmailChange: fn(),
    onEnforce: fn(),
    reconcileOutcomes: {},
    reconcileConfirm: null,
    canApplyReconcile: true,
    onReconcileDryRun: fn(),
    onReconcileApplyRequest: fn(),
    onReconcileApplyConfirm: fn(),
    onReconcileApplyCancel: fn(),
  },
} satisfies Meta<typeof MaintenanceView>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Nothing run yet: the open help box, the admin stats (MRR/ARR whole), every action enabled. */
export const Idle: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Maintenance' })).toBeVisible();
    await expect(canvas.getByText('How these tools work').closest('details')).toHaveAttribute(
      'open',
    );
    await expect(canvas.getByRole('region', { name: 'MRR' })).toHaveTextContent('$12,345');
    await expect(canvas.getByRole('region', { name: 'ARR' })).toHaveTextContent('$148,140');
    await expect(canvas.getByRole('region', { name: 'pending_expire' })).toHaveTextContent('4');
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run' }));
    await expect(args.onDryRun).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'Ping forum' }));
    await expect(args.onPing).toHaveBeenCalledWith('discourse');
    await expect(canvas.getByRole('button', { name: 'Enforce now' })).toBeDisabled();
  },
};

/** A dry run in progress: every action disabled, the running one busy (§4). */
export const Busy: Story = {
  args: { busyAction: 'dry-run' },
  play: async ({ canvas }) => {
    const running = canvas.getByRole('button', { name: 'Dry run…' });
    await expect(running).toHaveAttribute('aria-busy', 'true');
    for (const name of [
      'Run now',
      'Ping forum',
      'Ping LemonSqueezy',
      'Ping ClickBank',
      'Load diagnostics',
    ]) {
      await expect(canvas.getByRole('button', { name })).toBeDisabled();
    }
    await expect(running).toBeDisabled();
  },
};

/** Run now asks first: 'Run expiration now?' with Cancel / Yes, run now. */
export const ConfirmRunNow: Story = {
  args: { isConfirmOpen: true },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Run expiration now?',
    });
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, run now' }));
    await expect(args.onRunNowConfirm).toHaveBeenCalledOnce();
  },
};

/** Results everywhere: a preview, diagnostics as pairs + raw JSON, three ping lines, enforce. */
export const WithResults: Story = {
  args: {
    expirationOutcome: {
      kind: 'expiration',
      result: normaliseMaintenanceResult(expirationWire(DUE_EMAILS, true)),
    },
    diag: { status: 'ready', data: DIAG_WIRE },
    pingOutcomes: {
      discourse: { kind: 'ping', target: 'discourse', summary: PING_WIRE.discourseNotConfigured },
      lemonsqueezy: { kind: 'failure', action: 'ping-lemonsqueezy', message: 'Network error' },
      clickbank: { kind: 'ping', target: 'clickbank', summary: PING_WIRE.clickbankSecretOk },
    },
    clickbankChoice: 'secret',
    enforceEmail: 'dave_x@example.com',
    enforceOutcome: {
      kind: 'enforce',
      email: 'dave_x@example.com',
      answer: {
        ok: true,
        mg_status: 'cancelled',
        action: 'expired',
        discourse: { skipped: true, reason: 'Discourse not configured' },
      },
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('7 users would lose access.')).toBeVisible();
    await expect(canvas.getByText('counts.members.active')).toBeVisible();
    await expect(canvas.getByText('integrations.discourse')).toBeVisible();
    // The last reconciliation's time and outcome, per provider.
    await expect(
      canvas.getByText('reconcile.lemonsqueezy.last_run.finished_at').nextElementSibling,
    ).toHaveTextContent('2026-11-20T11:00:04.000Z');
    await expect(
      canvas.getByText('reconcile.lemonsqueezy.last_run.applied').nextElementSibling,
    ).toHaveTextContent('3');
    await expect(canvas.getByRole('region', { name: 'Raw diagnostics' })).toBeVisible();
    await expect(canvas.getByText('Forum (Discourse):').parentElement).toHaveTextContent(
      'ok: false · reason: Discourse not configured',
    );
    await expect(canvas.getByText('ping failed: Network error')).toBeVisible();
    await expect(canvas.getByText(/access expired now/)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Refresh diagnostics' })).toBeEnabled();
  },
};

/** The admin stats failed to load; diagnostics failed. */
export const Errors: Story = {
  args: {
    adminStats: { status: 'error', message: 'Status query failed' },
    diag: { status: 'error', message: 'HTTP 500' },
  },
  play: async ({ canvas }) => {
    const alerts = canvas.getAllByRole('alert');
    await expect(alerts.map((a) => a.textContent)).toEqual([
      'Error: Status query failed',
      'HTTP 500',
    ]);
  },
};

/** The reconcile cards: a LemonSqueezy dry run's differences, ClickBank not configured. */
export const ReconcileResults: Story = {
  args: {
    reconcileOutcomes: {
      lemonsqueezy: {
        kind: 'result',
        result: normaliseReconcileResult(RECONCILE_DRY_WIRE, 'lemonsqueezy'),
      },
      clickbank: { kind: 'not_configured', message: RECONCILE_NOT_CONFIGURED.message },
    },
  },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { name: 'Reconcile LemonSqueezy' })).toBeVisible();
    await expect(canvas.getByRole('heading', { name: 'Dry run: LemonSqueezy' })).toBeVisible();
    await expect(
      canvas.getByRole('heading', { name: 'ClickBank is not configured' }),
    ).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Dry run ClickBank' }));
    await expect(args.onReconcileDryRun).toHaveBeenCalledWith('clickbank');
    await userEvent.click(canvas.getByRole('button', { name: 'Apply LemonSqueezy' }));
    await expect(args.onReconcileApplyRequest).toHaveBeenCalledWith('lemonsqueezy');
  },
};

/** Apply asks first: 'Apply the LemonSqueezy reconciliation?' with Cancel / Yes, apply. */
export const ConfirmReconcileApply: Story = {
  args: { reconcileConfirm: 'lemonsqueezy' },
  play: async ({ args }) => {
    const dialog = await within(document.body).findByRole('alertdialog', {
      name: 'Apply the LemonSqueezy reconciliation?',
    });
    await expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, apply' }));
    await expect(args.onReconcileApplyConfirm).toHaveBeenCalledOnce();
  },
};

const SUPPORT_NOTE =
  'Your role (Support) cannot run maintenance, pings and diagnostics: ask an owner for Admin.';
const VIEWER_NOTE =
  'Your role (Viewer) cannot run access actions and enforce-now: ask an owner for Support.';

/** A support operator: Enforce now works; the expiration, pings and diagnostics say why they do not. */
export const SupportRole: Story = {
  args: {
    canApplyReconcile: false,
    adminBlockedReason: SUPPORT_NOTE,
    supportBlockedReason: null,
    enforceEmail: 'ada@example.com',
  },
  play: async ({ canvas, args }) => {
    const notes = canvas.getByRole('list', { name: 'What your role cannot do' });
    await expect(within(notes).getByRole('listitem')).toHaveTextContent(SUPPORT_NOTE);
    for (const name of [
      'Dry run',
      'Run now',
      'Ping forum',
      'Ping LemonSqueezy',
      'Ping ClickBank',
      'Load diagnostics',
    ]) {
      const button = canvas.getByRole('button', { name });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute('title', SUPPORT_NOTE);
    }
    await userEvent.click(canvas.getByRole('button', { name: 'Enforce now' }));
    await expect(args.onEnforce).toHaveBeenCalledOnce();
    await expect(args.onDryRun).not.toHaveBeenCalled();
  },
};

/** A viewer reads everything and runs nothing; both notes say why. */
export const ViewerRole: Story = {
  args: {
    canApplyReconcile: false,
    adminBlockedReason:
      'Your role (Viewer) cannot run maintenance, pings and diagnostics: ask an owner for Admin.',
    supportBlockedReason: VIEWER_NOTE,
    enforceEmail: 'ada@example.com',
  },
  play: async ({ canvas, args }) => {
    const notes = canvas.getByRole('list', { name: 'What your role cannot do' });
    await expect(within(notes).getAllByRole('listitem')).toHaveLength(2);
    const enforce = canvas.getByRole('button', { name: 'Enforce now' });
    await expect(enforce).toBeDisabled();
    await expect(enforce).toHaveAttribute('title', VIEWER_NOTE);
    await userEvent.type(canvas.getByLabelText('Email'), '{Enter}');
    await expect(args.onEnforce).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement | null)?.blur();
  },
};
