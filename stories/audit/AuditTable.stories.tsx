import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { AuditTable } from '../../src/components/AuditTable';
import { LONG_TARGET } from '../../tests/msw/fixtures-audit';
import { AUDIT_ENTRIES, LONG_AUDIT_ENTRIES } from '../../tests/msw/view-audit';

/** The audit trail table: every column, the outcome badges, the detail disclosure and the states. */
const meta = {
  title: 'Audit/AuditTable',
  component: AuditTable,
  args: {
    rows: { status: 'ready', data: AUDIT_ENTRIES },
    onRetry: fn(),
    onRefresh: fn(),
  },
} satisfies Meta<typeof AuditTable>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The cells of a body row, by its position among the body rows. */
function cellsOf(table: HTMLElement, index: number): HTMLElement[] {
  const row = within(table).getAllByRole('row')[index + 1];
  if (!row) throw new globalThis.Error(`No row ${index}`);
  return within(row).getAllByRole('cell');
}

/** The one-line summary of a Detail cell (its JSON stays in the closed disclosure). */
function summaryOf(cell: HTMLElement): HTMLElement | null {
  return cell.querySelector('summary');
}

/**
 * Rows newest first: time to the second (UTC), operator, action, target, an outcome badge whose
 * text says it, IP, the browser in a few words, and the detail on one line that opens to its JSON
 * (by keyboard too) and closes again.
 */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Audit trail' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time (UTC)', 'Operator', 'Action', 'Target', 'Outcome', 'IP', 'Browser', 'Detail']);
    const first = cellsOf(table, 0);
    await expect(first.slice(0, 7).map((cell) => cell.textContent)).toEqual([
      '2026-11-20 11:58:00',
      'support@example.com',
      'access.revoke_now',
      'johndoe@example.com',
      'OK',
      '203.0.113.24',
      expect.stringMatching(/^Chrome 131 on macOS \(Mozilla\/5\.0/),
    ]);
    await expect(summaryOf(first[7]!)).toHaveTextContent(
      /^mg_status active → cancelled; expires_at none → 2026-11-20T11:58:00\.000Z$/,
    );
    await expect(within(first[4]!).getByText('OK')).toHaveAttribute('data-tone', 'success');
    // The whole user agent is the title and is read out.
    await expect(within(first[6]!).getByText(/^Chrome 131 on macOS/)).toHaveAttribute(
      'title',
      expect.stringContaining('AppleWebKit/537.36'),
    );
    // The detail opens to its pretty-printed JSON with the keyboard, and closes again.
    const summary = within(first[7]!).getByText(/^mg_status active → cancelled/);
    summary.focus();
    await userEvent.keyboard('{Enter}');
    const json = within(first[7]!).getByRole('region', { name: 'Detail' });
    await expect(json.textContent).toBe(JSON.stringify(AUDIT_ENTRIES[0]!.detail, null, 2));
    await userEvent.keyboard('{Enter}');
    await expect(summary.closest('details')).not.toHaveAttribute('open');
    // Other detail shapes: a field's own before/after, plain fields, none.
    await expect(summaryOf(cellsOf(table, 3)[7]!)).toHaveTextContent(/^role viewer → support$/);
    await expect(summaryOf(cellsOf(table, 8)[7]!)).toHaveTextContent(/^require_totp false → true$/);
    await expect(cellsOf(table, 10)[7]).toHaveTextContent(/^—$/);
    // Other browsers and clients; a missing user agent or IP is a dash.
    await expect(cellsOf(table, 5)[6]).toHaveTextContent(/^Safari 17 on iOS/);
    await expect(cellsOf(table, 2)[6]).toHaveTextContent(/^curl 8\.4 \(curl\/8\.4\.0\)$/);
    await expect(cellsOf(table, 10)[6]).toHaveTextContent(/^—$/);
    await expect(cellsOf(table, 11)[5]).toHaveTextContent(/^—$/);
    await expect(cellsOf(table, 11)[6]).toHaveTextContent(/^MG-Internal-Checker\/2\.1/);
  },
};

/** A refusal (403) and failures: the badge's words carry the outcome, colour only reinforces it. */
export const FailedAndRefused: Story = {
  args: {
    rows: {
      status: 'ready',
      data: AUDIT_ENTRIES.filter((e) => e.outcome !== 'ok'),
    },
  },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Audit trail' });
    await expect(within(cellsOf(table, 0)[4]!).getByText('Refused')).toHaveAttribute(
      'data-tone',
      'warning',
    );
    await expect(within(cellsOf(table, 1)[4]!).getByText('Failed')).toHaveAttribute(
      'data-tone',
      'danger',
    );
    // A failed sign-in has no operator.
    await expect(cellsOf(table, 1)[1]).toHaveTextContent(/^—$/);
    await expect(cellsOf(table, 1)[2]).toHaveTextContent('auth.login_failed');
    await expect(cellsOf(table, 2)[2]).toHaveTextContent('maintenance.ping_discourse');
  },
};

/**
 * Long operators and targets end in an ellipsis and are read out whole; a long detail stays on one
 * line until opened; a truncated detail says so.
 */
export const LongText: Story = {
  args: { rows: { status: 'ready', data: LONG_AUDIT_ENTRIES } },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Audit trail' });
    const first = cellsOf(table, 0);
    await expect(within(first[3]!).getByText(LONG_TARGET)).toHaveAttribute('title', LONG_TARGET);
    await expect(summaryOf(first[7]!)).toHaveTextContent(
      /^mg_status active → scheduled; expires_at none → 2026-12-31T23:59:00\.000Z; note /,
    );
    const summary = within(first[7]!).getByText(/^mg_status active → scheduled/);
    await expect(summary.scrollWidth).toBeGreaterThan(summary.clientWidth);
    await expect(cellsOf(table, 1)[3]).toHaveTextContent('=HYPERLINK(');
    await expect(summaryOf(cellsOf(table, 2)[7]!)).toHaveTextContent(
      /^\(truncated\) \{"payload":"xxx/,
    );
    await userEvent.click(summary);
    await expect(within(first[7]!).getByRole('region', { name: 'Detail' })).toHaveTextContent(
      '"note": "Ends at the period end as the customer asked; forum access kept until then."',
    );
  },
};

/** While the first page loads. */
export const Loading: Story = {
  args: { rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Loading…')).toBeVisible();
  },
};

/** No rows match: the empty text and Refresh. */
export const Empty: Story = {
  args: { rows: { status: 'empty' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('No audit rows found.')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Refresh' }));
    await expect(args.onRefresh).toHaveBeenCalledOnce();
  },
};

/** A failed load: the message as given and Retry. */
export const Error: Story = {
  args: { rows: { status: 'error', message: 'Failed to load the audit trail' } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Failed to load the audit trail');
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await expect(args.onRetry).toHaveBeenCalledOnce();
  },
};
