import type { Meta, StoryObj } from '@storybook/react-vite';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { expect, userEvent, within } from 'storybook/test';
import { CustomerAudit } from '../../src/components/CustomerAudit';
import { auditPathForTarget } from '../../src/domain/audit';
import {
  JOHNDOE_AUDIT_ENTRIES,
  LONG_AUDIT_ENTRIES,
  MANY_AUDIT_ENTRIES,
  auditPage,
} from '../../tests/msw/view-audit';

/** Where the link led: the address the router is at, shown on the page the link opens. */
function Destination() {
  const location = useLocation();
  return <p>Opened {`${location.pathname}${location.search}`}</p>;
}

/**
 * A customer's audit rows as the Subscriptions drawer shows them (its 'Audit' section), inside a
 * router so 'All audit rows' can be followed.
 */
const meta = {
  title: 'Audit/CustomerAudit',
  component: CustomerAudit,
  decorators: [
    (Story) => (
      <MemoryRouter initialEntries={['/subscriptions']}>
        <Routes>
          <Route path="/subscriptions" element={<Story />} />
          <Route path="/audit" element={<Destination />} />
        </Routes>
      </MemoryRouter>
    ),
  ],
  args: {
    rows: { status: 'ready', data: auditPage(JOHNDOE_AUDIT_ENTRIES) },
    allRowsPath: auditPathForTarget('johndoe@example.com'),
  },
} satisfies Meta<typeof CustomerAudit>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The customer's three rows: time, operator, action, outcome and detail; 'All audit rows' opens
 * the Audit screen filtered by the customer.
 */
export const Ready: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('3 rows.')).toBeVisible();
    const table = canvas.getByRole('table', { name: 'Audit rows of this customer' });
    await expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Time (UTC)', 'Operator', 'Action', 'Outcome', 'Detail']);
    const first = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    await expect(first.slice(0, 4).map((cell) => cell.textContent)).toEqual([
      '2026-11-20 11:58:00',
      'support@example.com',
      'access.revoke_now',
      'OK',
    ]);
    await expect(first[4]!.querySelector('summary')).toHaveTextContent(
      /^mg_status active → cancelled; expires_at none → 2026-11-20T11:58:00\.000Z$/,
    );
    // The link is the Audit screen filtered by the customer (the Subscriptions screen's story
    // follows it).
    await expect(canvas.getByRole('link', { name: 'All audit rows' })).toHaveAttribute(
      'href',
      '/audit?target=johndoe%40example.com',
    );
  },
};

/** The newest 20 of more rows: the count says it is a part. */
export const PartOfMany: Story = {
  args: { rows: { status: 'ready', data: auditPage(MANY_AUDIT_ENTRIES.slice(0, 20), 57) } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('The newest 20 of 57 rows.')).toBeVisible();
    const table = canvas.getByRole('table', { name: 'Audit rows of this customer' });
    await expect(within(table).getAllByRole('row')).toHaveLength(21);
  },
};

/** Failed and refused outcomes and long details: words on the badges, details on one line. */
export const LongDetailsAndFailures: Story = {
  args: { rows: { status: 'ready', data: auditPage(LONG_AUDIT_ENTRIES) } },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Audit rows of this customer' });
    await expect(within(table).getByText('Failed')).toHaveAttribute('data-tone', 'danger');
    const summary = within(table).getByText(/^mg_status active → scheduled/);
    await expect(summary.scrollWidth).toBeGreaterThan(summary.clientWidth);
    await userEvent.click(summary);
    const opened = summary.closest('details') as HTMLElement;
    await expect(opened).toHaveAttribute('open');
    await expect(within(opened).getByRole('region', { name: 'Detail' })).toHaveTextContent(
      '"mg_status": "scheduled"',
    );
  },
};

/** While the rows load. */
export const Loading: Story = {
  args: { rows: { status: 'loading' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status')).toHaveTextContent('Loading audit rows…');
  },
};

/** Nobody has acted on this customer. */
export const Empty: Story = {
  args: { rows: { status: 'empty' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No audit rows for this customer.')).toBeVisible();
    await expect(canvas.queryByRole('table')).toBeNull();
  },
};

/** The rows could not be loaded: why, and the link to try the Audit screen. */
export const Error: Story = {
  args: { rows: { status: 'error', message: 'Failed to load the audit trail' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Failed to load the audit trail')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'All audit rows' })).toHaveAttribute(
      'href',
      '/audit?target=johndoe%40example.com',
    );
  },
};
