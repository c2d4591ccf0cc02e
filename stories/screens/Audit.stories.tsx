import type { Meta, StoryObj } from '@storybook/react-vite';
import { http } from 'msw';
import { expect, spyOn, userEvent, waitFor, within } from 'storybook/test';
import { AuditScreen } from '../../src/screens/AuditScreen';
import { AUDIT_CSV_COLUMNS } from '../../src/domain/audit-csv';
import { AUDIT_ROWS, LONG_AUDIT_ROWS, makeAuditRows } from '../../tests/msw/fixtures-audit';
import { api, jsonError } from '../../tests/msw/handlers';
import { auditHandlers } from '../../tests/msw/handlers-audit';
import { recordRequests } from '../support/requests';
import { screenRouter, withScreen } from '../support/withScreen';

/** The Audit screen (issue 23) against mocked GET /audit, at /audit in the real router. */
const meta = {
  title: 'Screens/Audit',
  component: AuditScreen,
  decorators: [withScreen],
  parameters: {
    layout: 'fullscreen',
    screen: { route: '/audit' },
    msw: { handlers: [auditHandlers.list()] },
  },
} satisfies Meta<typeof AuditScreen>;
export default meta;
type Story = StoryObj<typeof meta>;

const WAIT = { timeout: 8000 } as const;
const audit = recordRequests('/audit');
const loaded = async (count: number) =>
  waitFor(() => expect(audit.params()).toHaveLength(count), WAIT);

/** The newest rows and their total. */
export const Ready: Story = {
  play: async ({ canvas }) => {
    const table = await canvas.findByRole('table', { name: 'Audit trail' }, WAIT);
    await expect(await within(table).findByText('access.revoke_now', {}, WAIT)).toBeVisible();
    await expect(canvas.getByRole('navigation', { name: 'Audit pages' })).toHaveTextContent(
      'Total: 12',
    );
  },
};

/** While the first page loads. */
export const Loading: Story = {
  parameters: { msw: { handlers: [auditHandlers.loading()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Loading…', {}, WAIT)).toBeVisible();
  },
};

/** Nothing recorded yet. */
export const Empty: Story = {
  parameters: { msw: { handlers: [auditHandlers.empty()] } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No audit rows found.', {}, WAIT)).toBeVisible();
  },
};

/** A server failure reads 'Failed to load the audit trail', whatever the server said. */
export const Error: Story = {
  parameters: {
    msw: { handlers: [auditHandlers.error(500, 'relation "audit_log" does not exist')] },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert', {}, WAIT)).toHaveTextContent(
      'Failed to load the audit trail',
    );
  },
};

/** A bad filter (a range that ends before it starts) answers 400: its message is shown. */
export const BadFilter: Story = {
  parameters: {
    screen: { route: '/audit?from=2026-11-20T12%3A00&to=2026-11-01T00%3A00' },
    msw: {
      handlers: [
        auditHandlers.error(400, 'from (2026-11-20 12:00:00) is after to (2026-11-01 00:00:00)'),
      ],
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('alert', {}, WAIT)).toHaveTextContent(
      'from (2026-11-20 12:00:00) is after to (2026-11-01 00:00:00)',
    );
    await expect(canvas.getByLabelText('Time from')).toHaveValue('2026-11-20T12:00');
  },
};

/** Over 10,000 matching rows: the total reads '10,000+'. */
export const CappedTotal: Story = {
  parameters: { msw: { handlers: [auditHandlers.capped(makeAuditRows(250))] } },
  play: async ({ canvas }) => {
    const pager = await canvas.findByRole('navigation', { name: 'Audit pages' }, WAIT);
    await waitFor(() => expect(pager).toHaveTextContent('Total: 10,000+'), WAIT);
    await expect(pager).toHaveTextContent('Page 1 of 200');
    await expect(
      canvas.getByText('Export CSV writes the newest 10,000 rows of these.'),
    ).toBeVisible();
  },
};

/** Long operators, targets and details. */
export const LongText: Story = {
  parameters: { msw: { handlers: [auditHandlers.list(LONG_AUDIT_ROWS)] } },
  play: async ({ canvas }) => {
    const table = await canvas.findByRole('table', { name: 'Audit trail' }, WAIT);
    await expect(await within(table).findByText(/^\(truncated\)/, {}, WAIT)).toBeVisible();
  },
};

/**
 * Each filter applies and travels as its wire parameter, back on page 1: Operator and Target
 * after a 300 ms pause, Action (a group: every 'access.*') and the time range at once. Back
 * restores the inputs.
 */
export const EachFilter: Story = {
  parameters: {
    screen: { route: '/audit?page=2' },
    msw: { handlers: [audit.handler, auditHandlers.list(makeAuditRows(120))] },
  },
  beforeEach: () => audit.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(audit.params()[0]).toEqual({ page: '2', pageSize: '50' });
    await userEvent.type(canvas.getByLabelText('Operator'), 'support@example.com');
    await loaded(2);
    await expect(audit.params()[1]).toEqual({
      page: '1',
      pageSize: '50',
      operator: 'support@example.com',
    });
    await userEvent.selectOptions(canvas.getByRole('combobox', { name: 'Action' }), 'access');
    await loaded(3);
    await expect(audit.params()[2]).toMatchObject({ action: 'access' });
    const table = canvas.getByRole('table', { name: 'Audit trail' });
    await waitFor(
      () =>
        expect(
          within(table)
            .getAllByRole('row')
            .slice(1)
            .every((row) => /access\./.test(row.textContent ?? '')),
        ).toBe(true),
      WAIT,
    );
    await userEvent.type(canvas.getByLabelText('Target'), 'johndoe@example.com');
    await loaded(4);
    await expect(audit.params()[3]).toMatchObject({
      operator: 'support@example.com',
      action: 'access',
      target: 'johndoe@example.com',
    });
    await userEvent.type(canvas.getByLabelText('Time from'), '2026-11-20T10:00');
    await waitFor(
      () => expect(audit.params().at(-1)).toMatchObject({ from: '2026-11-20 10:00:00' }),
      WAIT,
    );
    await userEvent.type(canvas.getByLabelText('Time to'), '2026-11-20T11:00');
    await waitFor(
      () =>
        expect(audit.params().at(-1)).toMatchObject({
          from: '2026-11-20 10:00:00',
          to: '2026-11-20 11:00:00',
        }),
      WAIT,
    );
    await expect(screenRouter().state.location.search).toContain('target=johndoe%40example.com');
    await screenRouter().navigate(-1);
    await waitFor(() => expect(canvas.getByLabelText('Time to')).toHaveValue(''), WAIT);
    (document.activeElement as HTMLElement | null)?.blur();
  },
};

/** A deep link with a target (the drawer's 'All audit rows') fills the input and filters. */
export const DeepLinkTarget: Story = {
  parameters: {
    screen: { route: '/audit?target=johndoe%40example.com' },
    msw: { handlers: [audit.handler, auditHandlers.list()] },
  },
  beforeEach: () => audit.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    await expect(audit.params()[0]).toEqual({
      page: '1',
      pageSize: '50',
      target: 'johndoe@example.com',
    });
    await expect(canvas.getByLabelText('Target')).toHaveValue('johndoe@example.com');
    const pager = canvas.getByRole('navigation', { name: 'Audit pages' });
    await waitFor(() => expect(pager).toHaveTextContent('Total: 3'), WAIT);
  },
};

/** Rows 200 and the pager's Next ask for the matching pages. */
export const Paging: Story = {
  parameters: { msw: { handlers: [audit.handler, auditHandlers.list(makeAuditRows(450))] } },
  beforeEach: () => audit.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    const pager = canvas.getByRole('navigation', { name: 'Audit pages' });
    await waitFor(() => expect(pager).toHaveTextContent('Page 1 of 9'), WAIT);
    await userEvent.click(within(pager).getByRole('button', { name: /next/i }));
    await loaded(2);
    await expect(audit.params()[1]).toEqual({ page: '2', pageSize: '50' });
    await userEvent.selectOptions(canvas.getByLabelText('Rows'), '200');
    await loaded(3);
    await expect(audit.params()[2]).toEqual({ page: '1', pageSize: '200' });
    await waitFor(() => expect(pager).toHaveTextContent('Page 1 of 3'), WAIT);
  },
};

/** Records the download Export CSV starts (the click is recorded, not performed), waiting `wait` for it. */
async function recordDownload(run: () => Promise<void>, wait: { timeout: number } = WAIT) {
  const created = spyOn(URL, 'createObjectURL');
  const click = spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  try {
    await run();
    await waitFor(() => expect(click).toHaveBeenCalledOnce(), wait);
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    const blob = created.mock.calls[0]![0] as Blob;
    return { fileName: anchor.download, lines: (await blob.text()).split('\r\n') };
  } finally {
    click.mockRestore();
    created.mockRestore();
  }
}

/**
 * Export CSV writes every filtered row, asked for in pages of 200, as audit-<from>-<to>.csv with
 * the wire columns; a formula-like target is neutralised.
 */
export const ExportCsv: Story = {
  parameters: {
    screenshot: false,
    screen: { route: '/audit?from=2026-11-19T00%3A00' },
    msw: {
      handlers: [audit.handler, auditHandlers.list([...LONG_AUDIT_ROWS, ...makeAuditRows(430)])],
    },
  },
  beforeEach: () => audit.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    const pager = canvas.getByRole('navigation', { name: 'Audit pages' });
    await waitFor(() => expect(pager).toHaveTextContent('Total: 433'), WAIT);
    const { fileName, lines } = await recordDownload(() =>
      userEvent.click(canvas.getByRole('button', { name: 'Export CSV' })),
    );
    await expect(fileName).toBe('audit-2026-11-19T0000-now.csv');
    await expect(audit.params().slice(1)).toEqual(
      [1, 2, 3].map((page) => ({
        page: String(page),
        pageSize: '200',
        from: '2026-11-19 00:00:00',
      })),
    );
    await expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    await expect(lines).toHaveLength(434);
    await expect(lines[2]).toContain(
      `,reconcile.apply,"'=HYPERLINK(""https://example.com"",""click"")",ok,`,
    );
    await expect(
      await canvas.findByText('Exported 433 rows to audit-2026-11-19T0000-now.csv.', {}, WAIT),
    ).toBeVisible();
  },
};

/** Past 10,000 rows the export stops and says so. */
export const ExportCapped: Story = {
  parameters: {
    screenshot: false,
    msw: { handlers: [audit.handler, auditHandlers.capped(makeAuditRows(10_050))] },
  },
  beforeEach: () => audit.reset(),
  play: async ({ canvas }) => {
    await loaded(1);
    // Export CSV does nothing until the list is ready: a request seen is not yet an answer shown.
    const pager = canvas.getByRole('navigation', { name: 'Audit pages' });
    await waitFor(() => expect(pager).toHaveTextContent('Total: 10,000+'), WAIT);
    // 51 pages through the mocked service worker: about a second alone, several on a busy CI
    // machine, so this download alone waits up to 25 s (the story's limit is 30 s).
    const { fileName, lines } = await recordDownload(
      () => userEvent.click(canvas.getByRole('button', { name: 'Export CSV' })),
      { timeout: 25_000 },
    );
    await expect(fileName).toBe('audit-start-now.csv');
    await expect(lines).toHaveLength(10_001);
    await expect(audit.params()).toHaveLength(51);
    await expect(
      await canvas.findByText(
        /^Exported the newest 10,000 rows to audit-start-now\.csv: the export stops at 10,000 rows\./,
        {},
        WAIT,
      ),
    ).toBeVisible();
  },
};

/** Pages of 200: the export's requests (the screen's own pages are 50). */
const exportPagesFail = http.get(api('/audit'), ({ request }) =>
  new URL(request.url).searchParams.get('pageSize') === '200'
    ? jsonError(500, 'Audit query failed')
    : undefined,
);

/** An export whose page fails says so, and the list stays as it was. */
export const ExportFails: Story = {
  parameters: { msw: { handlers: [exportPagesFail, auditHandlers.list(AUDIT_ROWS)] } },
  play: async ({ canvas }) => {
    const table = await canvas.findByRole('table', { name: 'Audit trail' }, WAIT);
    await within(table).findByText('access.revoke_now', {}, WAIT);
    await userEvent.click(canvas.getByRole('button', { name: 'Export CSV' }));
    await expect(
      await canvas.findByText('Export failed: Failed to load the audit trail', {}, WAIT),
    ).toBeVisible();
    await expect(within(table).getByText('access.revoke_now')).toBeVisible();
  },
};
