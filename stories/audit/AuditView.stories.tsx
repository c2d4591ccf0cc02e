import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, within } from 'storybook/test';
import { AuditView } from '../../src/components/AuditView';
import type { AuditFilters } from '../../src/domain/audit';
import {
  AUDIT_ENTRIES,
  LONG_AUDIT_ENTRIES,
  MANY_AUDIT_ENTRIES,
  auditPage,
} from '../../tests/msw/view-audit';
import { expectRefreshIgnoredWhileBusy } from '../support/refresh';

const NO_FILTERS: AuditFilters = { operator: '', action: '', target: '', from: '', to: '' };

/** The Audit screen's view: filters, Rows, Export CSV, the table and the pager, in every state. */
const meta = {
  title: 'Audit/AuditView',
  component: AuditView,
  args: {
    list: { status: 'ready', data: auditPage(AUDIT_ENTRIES) },
    query: { page: 1, pageSize: 50, sort: { key: 'at', direction: 'desc' } },
    filters: NO_FILTERS,
    totalPages: 1,
    exportState: { status: 'idle' },
    onFiltersChange: fn(),
    onClearAll: fn(),
    onPageChange: fn(),
    onPageSizeChange: fn(),
    onRefresh: fn(),
    onExportCsv: fn(),
  },
} satisfies Meta<typeof AuditView>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * The newest rows: title and hint, the four filters under the names an operator (and a test)
 * looks for, Rows, Refresh, Export CSV, the 'Audit trail' table and 'Total: 12'. Each control
 * reports its change.
 */
export const Ready: Story = {
  play: async ({ canvas, args }) => {
    await expect(canvas.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
    await expect(canvas.getByText(/Who did what, to whom, from where/)).toBeVisible();
    await expect(canvas.getByRole('table', { name: 'Audit trail' })).toBeVisible();
    await expect(canvas.getByRole('navigation', { name: 'Audit pages' })).toHaveTextContent(
      'Total: 12',
    );
    await userEvent.type(canvas.getByLabelText('Operator'), 'a');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, operator: 'a' });
    await userEvent.type(canvas.getByLabelText('Target'), 'j');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({ ...NO_FILTERS, target: 'j' });
    // Action offers every group before its own actions.
    const action = canvas.getByRole('combobox', { name: 'Action' });
    const options = within(action)
      .getAllByRole('option')
      .map((o) => o.getAttribute('value'));
    await expect(options.slice(0, 3)).toEqual(['', 'auth', 'auth.login']);
    await expect(options).toContain('access');
    await expect(options).toContain('reconcile.apply');
    await expect(within(action).getByRole('option', { name: /^access\.\* / })).toHaveValue(
      'access',
    );
    await userEvent.selectOptions(action, 'access');
    await expect(args.onFiltersChange).toHaveBeenLastCalledWith({
      ...NO_FILTERS,
      action: 'access',
    });
    await expect(canvas.getByLabelText('Time from')).toHaveAttribute('type', 'datetime-local');
    await expect(canvas.getByLabelText('Time to')).toHaveAttribute('type', 'datetime-local');
    await userEvent.selectOptions(canvas.getByLabelText('Rows'), '200');
    await expect(args.onPageSizeChange).toHaveBeenLastCalledWith(200);
    await userEvent.click(canvas.getByRole('button', { name: 'Export CSV' }));
    await expect(args.onExportCsv).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole('button', { name: 'Clear' }));
    await expect(args.onClearAll).toHaveBeenCalledOnce();
  },
};

/** Every filter applied: the inputs show the applied values. */
export const Filtered: Story = {
  args: {
    filters: {
      operator: 'support@example.com',
      action: 'access.grant',
      target: 'johndoe@example.com',
      from: '2026-11-20T00:00',
      to: '2026-11-20T12:00',
    },
    list: { status: 'ready', data: auditPage(AUDIT_ENTRIES.slice(5, 6)) },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Operator')).toHaveValue('support@example.com');
    await expect(canvas.getByRole('combobox', { name: 'Action' })).toHaveValue('access.grant');
    await expect(canvas.getByLabelText('Target')).toHaveValue('johndoe@example.com');
    await expect(canvas.getByLabelText('Time from')).toHaveValue('2026-11-20T00:00');
    await expect(canvas.getByLabelText('Time to')).toHaveValue('2026-11-20T12:00');
    await expect(canvas.getByRole('navigation', { name: 'Audit pages' })).toHaveTextContent(
      'Total: 1',
    );
  },
};

/** A full page of 50 rows of 2,480, page 2 of 50. */
export const ManyRows: Story = {
  args: {
    list: { status: 'ready', data: { ...auditPage(MANY_AUDIT_ENTRIES, 2_480) } },
    query: { page: 2, pageSize: 50, sort: { key: 'at', direction: 'desc' } },
    totalPages: 50,
  },
  play: async ({ canvas, args }) => {
    const table = canvas.getByRole('table', { name: 'Audit trail' });
    await expect(table).toHaveAttribute('aria-rowcount', '2481');
    await expect(within(table).getAllByRole('row')[1]).toHaveAttribute('aria-rowindex', '52');
    const pager = canvas.getByRole('navigation', { name: 'Audit pages' });
    await expect(pager).toHaveTextContent('Page 2 of 50');
    await expect(pager).toHaveTextContent('Total: 2,480');
    await userEvent.click(within(pager).getByRole('button', { name: /next/i }));
    await expect(args.onPageChange).toHaveBeenLastCalledWith(3);
  },
};

/**
 * More than 10,000 rows match: the server stopped counting, so the total reads '10,000+', and the
 * export line says the file holds the newest 10,000.
 */
export const CappedTotal: Story = {
  args: {
    list: { status: 'ready', data: auditPage(AUDIT_ENTRIES, 10_000, true) },
    totalPages: 200,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('navigation', { name: 'Audit pages' })).toHaveTextContent(
      'Total: 10,000+',
    );
    await expect(
      canvas.getByText('Export CSV writes the newest 10,000 rows of these.'),
    ).toBeVisible();
  },
};

/** Long operators, targets and details keep the table's columns. */
export const LongText: Story = {
  args: { list: { status: 'ready', data: auditPage(LONG_AUDIT_ENTRIES) } },
  play: async ({ canvas }) => {
    const table = canvas.getByRole('table', { name: 'Audit trail' });
    await expect(within(table).getAllByRole('row')).toHaveLength(4);
    await expect(table).toHaveTextContent('(truncated)');
  },
};

/** While the first page loads: no export yet, and Refresh (focusable, aria-disabled) does nothing. */
export const Loading: Story = {
  args: { list: { status: 'loading' }, totalPages: null },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Loading…')).toBeVisible();
    const exportButton = canvas.getByRole('button', { name: 'Export CSV' });
    await expect(exportButton).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(exportButton);
    await expect(args.onExportCsv).not.toHaveBeenCalled();
    await expectRefreshIgnoredWhileBusy(canvas, args.onRefresh);
  },
};

/** Nothing matches the filters. */
export const Empty: Story = {
  args: { list: { status: 'empty' }, totalPages: 1 },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('No audit rows found.')).toBeVisible();
    await expect(canvas.getByRole('navigation', { name: 'Audit pages' })).toHaveTextContent(
      'Total: 0',
    );
    await expect(canvas.getByRole('button', { name: 'Export CSV' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  },
};

/** A failed load: the fixed text, Retry, and no pager. */
export const Error: Story = {
  args: { list: { status: 'error', message: 'Failed to load the audit trail' }, totalPages: null },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent('Failed to load the audit trail');
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(canvas.queryByRole('navigation', { name: 'Audit pages' })).toBeNull();
  },
};

/** A filter the server refused (400): its message says what to fix. */
export const BadFilter: Story = {
  args: {
    filters: { ...NO_FILTERS, from: '2026-11-20T12:00', to: '2026-11-01T00:00' },
    list: {
      status: 'error',
      message: 'from (2026-11-20 12:00:00) is after to (2026-11-01 00:00:00)',
    },
    totalPages: null,
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'from (2026-11-20 12:00:00) is after to (2026-11-01 00:00:00)',
    );
  },
};

/** The export is gathering pages: its progress is announced and a second press does nothing. */
export const Exporting: Story = {
  args: { exportState: { status: 'running', rows: 1_400 } },
  play: async ({ canvas, args }) => {
    await expect(canvas.getByText('Exporting… 1,400 rows so far.')).toHaveAttribute(
      'role',
      'status',
    );
    const exportButton = canvas.getByRole('button', { name: 'Export CSV' });
    await expect(exportButton).toHaveAttribute('aria-disabled', 'true');
    await userEvent.click(exportButton);
    await expect(args.onExportCsv).not.toHaveBeenCalled();
  },
};

/** The file was written. */
export const Exported: Story = {
  args: {
    exportState: { status: 'done', rows: 12, fileName: 'audit-start-now.csv', isCapped: false },
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Exported 12 rows to audit-start-now.csv.')).toBeVisible();
  },
};

/** The export stopped at its cap: the line says so and how to get the rest. */
export const ExportCapped: Story = {
  args: {
    list: { status: 'ready', data: auditPage(AUDIT_ENTRIES, 10_000, true) },
    totalPages: 200,
    exportState: {
      status: 'done',
      rows: 10_000,
      fileName: 'audit-2026-01-01T0000-now.csv',
      isCapped: true,
    },
  },
  play: async ({ canvas }) => {
    await expect(
      canvas.getByText(
        'Exported the newest 10,000 rows to audit-2026-01-01T0000-now.csv: the export stops at 10,000 rows. Narrow the filters or the time range for the rest.',
      ),
    ).toBeVisible();
  },
};

/** The export failed: why, in the danger colour and in words. */
export const ExportFailed: Story = {
  args: { exportState: { status: 'error', message: 'Failed to load the audit trail' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Export failed: Failed to load the audit trail')).toHaveAttribute(
      'data-tone',
      'danger',
    );
  },
};
