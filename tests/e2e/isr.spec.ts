/**
 * End to end: the Integrated Tracking screen (§2) on the reference server's seeded ISR
 * events. Searching for a seeded affiliate shows its rows and 'Total: N events' equal to
 * GET /isr-events' total; Export CSV downloads the current page, which the test reads back:
 * the §9 file name and 13 columns in order, one line per row of the page, amount in currency
 * units with two decimals (CONTRACT.md), every cell equal to the API's row, and no cell a
 * spreadsheet would run as a formula.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, type Request } from '@playwright/test';
import Papa from 'papaparse';
import { formatCount } from '../../src/domain/format';
import { addUtcDays } from '../../src/domain/metrics';
import { apiGet, isApiRequest, requestParams, test } from './harness';
import { signIn } from './support';

/** §9 CSV columns, in order (written out here, not imported, so the test checks the console). */
const CSV_COLUMNS = [
  'id',
  'created_at',
  'source',
  'order_id',
  'receipt',
  'product_id',
  'amount',
  'currency',
  'affiliate',
  'subid',
  'campaign',
  'customer_email',
  'referrer',
];

/** A wire event row of GET /isr-events (docs/api.md). */
interface WireEvent {
  id: number | string;
  created_at: string;
  source: string | null;
  order_id: string | null;
  receipt: string | null;
  product_id: string | null;
  amount_cents: number | null;
  currency: string | null;
  affiliate: string | null;
  subid: string | null;
  campaign: string | null;
  customer_email: string | null;
  referrer: string | null;
}

/** A cell a spreadsheet would run as a formula (OWASP CSV injection): =, +, -, @, tab, CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as the export must write it: blank for null, an apostrophe before a formula. */
function textCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The CSV line the export must write for a wire row (amount = amount_cents / 100, 2 decimals). */
function expectedLine(e: WireEvent): string[] {
  return [
    textCell(e.id),
    textCell(e.created_at),
    textCell(e.source),
    textCell(e.order_id),
    textCell(e.receipt),
    textCell(e.product_id),
    e.amount_cents === null ? '' : (e.amount_cents / 100).toFixed(2),
    textCell(e.currency),
    textCell(e.affiliate),
    textCell(e.subid),
    textCell(e.campaign),
    textCell(e.customer_email),
    textCell(e.referrer),
  ];
}

/** Signs in and opens Integrated Tracking from the sidebar; answers its first events request. */
async function openIsr(page: Page): Promise<Request> {
  await page.goto('login');
  await signIn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const eventsRequest = page.waitForRequest(isApiRequest('isr-events'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Integrated Tracking', exact: true })
    .click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Integrated Tracking (First-Party)' }),
  ).toBeVisible();
  return eventsRequest;
}

test('searches a seeded affiliate, shows its events and total, and exports the page as CSV', async ({
  page,
}) => {
  const first = requestParams(await openIsr(page));
  // §4 default range: 14 days = from the start of the UTC day 13 days ago through now;
  // §2 source defaults to clickbank; page 1 of 50.
  expect(first.time_from).toBe(`${addUtcDays(new Date(), -13)} 00:00:00`);
  expect(first.time_to).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(first).toMatchObject({ source: 'clickbank', page: '1', pageSize: '50' });
  const range = { time_from: first.time_from, time_to: first.time_to };

  // A seeded affiliate of the range with a page's worth of events that the table renders whole
  // (2–30 rows; longer pages are virtualised), falling back to the top one.
  const affiliates = (await apiGet(page, 'isr-metrics/affiliates', {
    from: range.time_from,
    to: range.time_to,
    limit: 100,
  })) as { rows: { affiliate: string; events: number }[] };
  expect(affiliates.rows.length, 'seeded affiliates in the last 14 days').toBeGreaterThan(0);
  const affiliate = (
    affiliates.rows.find((row) => row.events >= 2 && row.events <= 30) ?? affiliates.rows[0]!
  ).affiliate;

  // Search: the form applies on Search, back on page 1, with the range and default source.
  const form = page.getByRole('search', { name: 'Search events' });
  await form.getByLabel('Affiliate', { exact: true }).fill(affiliate);
  const searchRequest = page.waitForRequest(
    (request) =>
      isApiRequest('isr-events')(request) && requestParams(request).affiliate === affiliate,
  );
  await form.getByRole('button', { name: 'Search', exact: true }).click();
  const searched = requestParams(await searchRequest);
  expect(searched).toMatchObject({ ...range, affiliate, source: 'clickbank', page: '1' });

  const answer = (await apiGet(page, 'isr-events', searched)) as {
    rows: WireEvent[];
    total: number;
  };
  expect(answer.total).toBeGreaterThan(0);
  expect(answer.rows.length).toBe(Math.min(answer.total, 50));
  for (const row of answer.rows) expect(row.affiliate).toBe(affiliate);

  const pager = page.getByRole('navigation', { name: 'ISR events pages' });
  await expect(pager.getByText(/^Total: /)).toHaveText(
    `Total: ${formatCount(answer.total)} events`,
  );
  await expect(pager.getByText(/^Page /)).toHaveText(
    `Page 1 / ${formatCount(Math.max(1, Math.ceil(answer.total / 50)))}`,
  );
  const table = page.getByRole('table', { name: 'ISR events' });
  const bodyRows = table.locator('tbody tr:not([aria-hidden])');
  if (answer.rows.length <= 30) {
    await expect(bodyRows).toHaveCount(answer.rows.length);
    for (const [i, row] of answer.rows.entries()) {
      const cells = bodyRows.nth(i);
      await expect(cells).toContainText(affiliate);
      if (row.receipt) await expect(cells).toContainText(row.receipt);
    }
  } else {
    await expect(bodyRows.first()).toContainText(affiliate);
  }

  // Export CSV: the current page, read back from the downloaded file.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('isr-events_page1.csv');
  const file = await download.path();
  const text = readFileSync(file, 'utf8');
  const parsed = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: false });
  expect(parsed.errors).toEqual([]);
  const [header, ...lines] = parsed.data;
  expect(header).toEqual(CSV_COLUMNS);
  expect(lines).toHaveLength(answer.rows.length);
  lines.forEach((line, i) => {
    const row = answer.rows[i]!;
    expect(line, `CSV line ${i + 1}`).toEqual(expectedLine(row));
    expect(line[6]).toMatch(/^-?\d+\.\d{2}$/);
    // Nothing a spreadsheet would run: text cells never start like a formula (a neutralised one
    // starts with an apostrophe); the amount is a plain number, a refund's negative.
    line.forEach((cell, col) => {
      if (col !== 6)
        expect(cell, `${CSV_COLUMNS[col]} of line ${i + 1}`).not.toMatch(FORMULA_START);
    });
  });
});
