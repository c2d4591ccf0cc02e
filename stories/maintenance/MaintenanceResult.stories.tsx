import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { MaintenanceResult } from '../../src/components/MaintenanceResult';
import { normaliseMaintenanceResult } from '../../src/domain/maintenance';
import { MESSAGES } from '../../src/domain/messages';
import { DUE_EMAILS, expirationWire, makeDueEmails } from '../../tests/msw/fixtures-maintenance';
import { expirationForumWire } from '../../tests/msw/fixtures-outbox';

/**
 * The maintenance result view (§2 Maintenance, §9): at most 50 detail rows and 5 example emails;
 * ping one-liners; 'ping failed: reason'; the §8 all-404 and network messages.
 */
const meta = {
  title: 'Maintenance/Result',
  component: MaintenanceResult,
  args: {
    outcome: {
      kind: 'expiration',
      result: normaliseMaintenanceResult(expirationWire(DUE_EMAILS, true)),
    },
  },
} satisfies Meta<typeof MaintenanceResult>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A dry run: the count, 5 examples, every row (7 ≤ 50), the raw JSON. */
export const Preview: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { name: 'Dry run preview' })).toBeVisible();
    await expect(canvas.getByText('7 users would lose access.')).toBeVisible();
    await expect(canvas.getByText(`Examples: ${DUE_EMAILS.slice(0, 5).join(', ')}`)).toBeVisible();
    await expect(canvas.getAllByRole('row')).toHaveLength(1 + 7);
    await expect(canvas.getByRole('region', { name: 'Raw result' })).toBeVisible();
  },
};

/** An applied run: processed and affected, the forum outcome per row. */
export const Applied: Story = {
  args: {
    outcome: {
      kind: 'expiration',
      result: normaliseMaintenanceResult(expirationWire(DUE_EMAILS, false)),
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('heading', { name: 'Expiration applied' })).toBeVisible();
    await expect(canvas.getByText('7 processed · 7 affected.')).toBeVisible();
    await expect(canvas.getByRole('columnheader', { name: 'Forum' })).toBeVisible();
    await expect(canvas.getAllByText('skipped: Discourse not configured')).toHaveLength(7);
  },
};

/** An applied run with the forum configured: each row's revoke done, queued on the server, or failed. */
export const AppliedForumQueued: Story = {
  args: {
    outcome: {
      kind: 'expiration',
      result: normaliseMaintenanceResult(expirationForumWire(DUE_EMAILS.slice(0, 4))),
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('4 processed · 4 affected.')).toBeVisible();
    await expect(canvas.getByText('ok (200)')).toBeVisible();
    await expect(canvas.getAllByText('queued (the server retries)')).toHaveLength(2);
    await expect(canvas.getByText('error 422: Invalid group')).toBeVisible();
  },
};

/** Nothing due. */
export const ZeroAffected: Story = {
  args: {
    outcome: { kind: 'expiration', result: normaliseMaintenanceResult(expirationWire([], true)) },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('0 users would lose access.')).toBeVisible();
    await expect(canvas.getByText('No cancelled access is due to expire.')).toBeVisible();
    await expect(canvas.queryByRole('table')).toBeNull();
  },
};

/** 500 affected: the table is cut to the first 50 rows, examples to 5 (§9). */
export const FiveHundredAffected: Story = {
  args: {
    outcome: {
      kind: 'expiration',
      result: normaliseMaintenanceResult(expirationWire(makeDueEmails(500), true)),
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('500 users would lose access.')).toBeVisible();
    await expect(canvas.getByText('Showing the first 50 of 500 rows.')).toBeVisible();
    const table = canvas.getByRole('table');
    await expect(within(table).getAllByRole('row')).toHaveLength(1 + 50);
    await expect(within(table).getByText('user050@example.com')).toBeVisible();
    await expect(within(table).queryByText('user051@example.com')).toBeNull();
    await expect(canvas.getByText(/^Examples: /)).toHaveTextContent(
      'Examples: user001@example.com, user002@example.com, user003@example.com, user004@example.com, user005@example.com',
    );
  },
};

/** A ping answered ok: its one-line summary. */
export const PingOk: Story = {
  args: {
    outcome: {
      kind: 'ping',
      target: 'discourse',
      summary: { ok: true, status: 200, version: '3.4.0' },
    },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent(
      'Forum (Discourse): ok: true · status: 200 · version: 3.4.0',
    );
  },
};

/** A ping that failed: 'ping failed: reason' (§2, §8). */
export const PingFailed: Story = {
  args: { outcome: { kind: 'failure', action: 'ping-lemonsqueezy', message: 'HTTP 502' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'LemonSqueezy: ping failed: HTTP 502',
    );
  },
};

/** Every candidate path answered 404: the §8 message. */
export const AllNotFound: Story = {
  args: { outcome: { kind: 'failure', action: 'dry-run', message: MESSAGES.candidatesNotFound } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'Not Found – none of the candidate paths responded. Please confirm the backend route.',
    );
  },
};

/** No answer at all: 'Network error' (§8). */
export const NetworkError: Story = {
  args: { outcome: { kind: 'failure', action: 'run-now', message: 'Network error' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Network error');
  },
};
