import type { Meta, StoryObj } from '@storybook/react-vite';
import { MemoryRouter } from 'react-router-dom';
import { expect, fn, userEvent, within } from 'storybook/test';
import { SubscriptionDrawer } from '../../src/components/SubscriptionDrawer';
import { auditPathForTarget } from '../../src/domain/audit';
import { JOHNDOE_AUDIT_ENTRIES, auditPage } from '../../tests/msw/view-audit';
import {
  CLICKBANK_DETAIL,
  CLICKBANK_ORDERS,
  EMPTY_DETAIL,
  LEMONSQUEEZY_DETAIL,
  LONG_EMAIL,
  LONG_NAME,
  LONG_TEXT_DETAIL,
  UNSAFE_LINKS_DETAIL,
  detailValue,
  sectionHeadings,
} from '../../tests/msw/view-subscriptions';
import lemonSqueezyFixture from '../../tests/msw/provider/lemonsqueezy-subscription-response.json';

/** The sections of §2 in order, for a LemonSqueezy (non-marketplace) detail. */
const SECTIONS = [
  'Core',
  'Customer / Marketing',
  'Payment',
  'Trial & Billing',
  'Pause',
  'Useful Links',
  'Metadata',
  'Provider payload',
  'Audit',
];
/** The same for the marketplace: Order details comes just before Provider payload. */
const CLICKBANK_SECTIONS = [...SECTIONS.slice(0, -2), 'Order details', 'Provider payload', 'Audit'];

/** The drawer's Audit section for johndoe@example.com: three rows and the link to all of them. */
const JOHNDOE_AUDIT = {
  rows: { status: 'ready', data: auditPage(JOHNDOE_AUDIT_ENTRIES) },
  allRowsPath: auditPathForTarget('johndoe@example.com'),
} as const;

/** The open drawer (it lives in a portal, so plays look in document.body). */
async function findDrawer() {
  return within(document.body).findByRole('dialog', { name: 'Subscription details' });
}

/** A section of the drawer, by its heading. */
function section(drawer: HTMLElement, name: string): HTMLElement {
  const heading = within(drawer).getByRole('heading', { level: 3, name });
  const found = heading.closest('section');
  if (!found) throw new Error(`No section headed '${name}'`);
  return found;
}

/**
 * Scrolls the drawer body so a section sits just under the sticky header, so the screenshot shows
 * the part of the drawer the story is about.
 */
function scrollToSection(drawer: HTMLElement, name: string) {
  const header = drawer.querySelector('header');
  drawer.scrollTop = section(drawer, name).offsetTop - (header?.offsetHeight ?? 0);
}

const meta = {
  title: 'Subscriptions/SubscriptionDrawer',
  component: SubscriptionDrawer,
  // The Audit section links to the Audit screen, so the drawer renders inside a router.
  decorators: [
    (Story) => (
      <MemoryRouter initialEntries={['/subscriptions']}>
        <Story />
      </MemoryRouter>
    ),
  ],
  args: {
    isOpen: true,
    onOpenChange: fn(),
    detail: { status: 'ready', data: LEMONSQUEEZY_DETAIL },
    orders: { status: 'empty' },
    audit: JOHNDOE_AUDIT,
  },
} satisfies Meta<typeof SubscriptionDrawer>;
export default meta;
type Story = StoryObj<typeof meta>;

/**
 * A LemonSqueezy subscription built from the provider's own API example: every section in order,
 * values formatted (UTC dates, amounts with their code), links opening in a new tab; Close, Escape
 * and the backdrop each ask to close.
 */
export const LemonSqueezy: Story = {
  play: async ({ args }) => {
    const drawer = await findDrawer();
    await expect(sectionHeadings(drawer)).toEqual(SECTIONS);
    await expect(drawer).toHaveTextContent('johndoe@example.com · lemonsqueezy');
    await expect(drawer).toHaveTextContent('Times in UTC');

    const core = section(drawer, 'Core');
    await expect(detailValue(core, 'Email')).toHaveTextContent('johndoe@example.com');
    await expect(detailValue(core, 'Name')).toHaveTextContent('John Doe');
    await expect(detailValue(core, 'Address/Region')).toHaveTextContent(/^US$/);
    await expect(detailValue(core, 'Provider')).toHaveTextContent('lemonsqueezy');
    await expect(detailValue(core, 'Subscription ID')).toHaveTextContent(/^1$/);
    await expect(within(detailValue(core, 'Status')).getByText('active')).toHaveAttribute(
      'data-tone',
      'success',
    );
    await expect(detailValue(core, 'Status (Formatted)')).toHaveTextContent('Active');
    await expect(detailValue(core, 'Cadence')).toHaveTextContent('Monthly');
    await expect(detailValue(core, 'Start')).toHaveTextContent('2021-08-11 13:47');
    await expect(detailValue(core, 'Renews')).toHaveTextContent('2022-11-12 00:00');
    await expect(detailValue(core, 'Expires')).toHaveTextContent(/^—$/);
    await expect(detailValue(core, 'Amount')).toHaveTextContent('19.99 USD');

    const customer = section(drawer, 'Customer / Marketing');
    await expect(detailValue(customer, 'Store ID')).toHaveTextContent(/^1$/);
    await expect(detailValue(customer, 'Email Marketing Status')).toHaveTextContent('subscribed');
    await expect(detailValue(customer, 'Location')).toHaveTextContent(/^US$/);
    await expect(detailValue(customer, 'Total Revenue')).toHaveTextContent('843.32 USD');

    const payment = section(drawer, 'Payment');
    await expect(detailValue(payment, 'Processor')).toHaveTextContent('stripe');
    await expect(detailValue(payment, 'Card Brand')).toHaveTextContent('visa');
    await expect(detailValue(payment, 'Card Last 4')).toHaveTextContent('4242');
    await expect(detailValue(payment, 'Cancelled')).toHaveTextContent(/^no$/);

    const trial = section(drawer, 'Trial & Billing');
    await expect(detailValue(trial, 'Trial Ends')).toHaveTextContent(/^—$/);
    await expect(detailValue(trial, 'Billing Anchor (day)')).toHaveTextContent(/^12$/);
    await expect(
      within(trial).getByRole('region', { name: 'First subscription item' }).textContent,
    ).toBe(JSON.stringify(lemonSqueezyFixture.data.attributes.first_subscription_item, null, 2));
    await expect(section(drawer, 'Pause')).toHaveTextContent(/^Pause\s*Pause\s*—$/);

    const links = within(section(drawer, 'Useful Links')).getAllByRole('link');
    await expect(links.map((link) => link.textContent)).toEqual([
      'Update payment method (opens in a new tab)↗',
      'Customer portal (opens in a new tab)↗',
      'Customer portal update subscription (opens in a new tab)↗',
    ]);
    for (const link of links) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    await expect(links[1]).toHaveAttribute(
      'href',
      lemonSqueezyFixture.data.attributes.urls.customer_portal,
    );

    const metadata = section(drawer, 'Metadata');
    await expect(detailValue(metadata, 'Created At')).toHaveTextContent('2021-08-11 13:47');
    await expect(detailValue(metadata, 'Updated At')).toHaveTextContent('2021-08-11 13:54');
    await expect(detailValue(metadata, 'Test Mode')).toHaveTextContent(/^no$/);
    await expect(
      within(section(drawer, 'Provider payload')).getByRole('region', { name: 'Provider payload' }),
    ).toHaveTextContent('"variant_name": "Citrus Blast"');

    // Focus moved into the drawer (the first control) and Close / Escape / backdrop all close it.
    const close = within(drawer).getByRole('button', { name: 'Close' });
    await expect(close).toHaveFocus();
    await userEvent.click(close);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    await expect(args.onOpenChange).toHaveBeenCalledTimes(1);
    await userEvent.keyboard('{Escape}');
    await expect(args.onOpenChange).toHaveBeenCalledTimes(2);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
    const backdrop = drawer.previousElementSibling as HTMLElement;
    await userEvent.click(backdrop);
    await expect(args.onOpenChange).toHaveBeenCalledTimes(3);
    await expect(args.onOpenChange).toHaveBeenLastCalledWith(false);
  },
};

/** Tab and Shift+Tab stay inside the open drawer (focus trap). */
export const FocusTrapped: Story = {
  args: { ...LemonSqueezy.args },
  play: async () => {
    const drawer = await findDrawer();
    const close = within(drawer).getByRole('button', { name: 'Close' });
    await expect(close).toHaveFocus();
    await userEvent.tab({ shift: true });
    await expect(drawer.contains(document.activeElement)).toBe(true);
    for (let i = 0; i < 12; i += 1) {
      await userEvent.tab();
      await expect(drawer.contains(document.activeElement)).toBe(true);
    }
    close.focus();
  },
};

/**
 * A ClickBank subscription with three local order records: Name and Location come from the latest
 * order (§2), which is shown in full with its raw INS payload; the two older ones are listed.
 */
export const ClickBankWithOrders: Story = {
  args: {
    ...LemonSqueezy.args,
    detail: { status: 'ready', data: CLICKBANK_DETAIL },
    orders: { status: 'ready', data: CLICKBANK_ORDERS },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(sectionHeadings(drawer)).toEqual(CLICKBANK_SECTIONS);
    const core = section(drawer, 'Core');
    await expect(detailValue(core, 'Name')).toHaveTextContent('Jordan Reyes');
    await expect(detailValue(core, 'Renews')).toHaveTextContent('2026-12-02 16:40');
    await expect(
      detailValue(section(drawer, 'Customer / Marketing'), 'Location'),
    ).toHaveTextContent('CA, US, 94107');
    await expect(detailValue(section(drawer, 'Payment'), 'Card Last 4')).toHaveTextContent(/^—$/);

    const orders = section(drawer, 'Order details');
    await expect(
      within(orders).getByRole('heading', { level: 4, name: 'Latest order' }),
    ).toBeVisible();
    const expected: [string, string][] = [
      ['Receipt', 'K7QX2M9P-R2'],
      ['SKU/Item', 'mg-monthly'],
      ['Status', 'BILL'],
      ['Title', 'Members Guild — Monthly'],
      ['Site', 'mgvendor'],
      ['Affiliate', 'toppicks'],
      ['Country', 'US'],
      ['State', 'CA'],
      ['Postal Code', '94107'],
      ['First Name', 'JORDAN'],
      ['Last Name', 'REYES'],
      ['Display Name', 'Jordan Reyes'],
      ['Refundable State', 'REFUNDABLE'],
      ['Currency', 'USD'],
      ['Amount', '29.70 USD'],
      ['Rebill Amount', '29.70 USD'],
      ['Account Amount', '26.73 USD'],
      ['Next Payment', '2026-12-02 16:40'],
      ['Order Date', '2026-11-02 16:40'],
    ];
    for (const [label, value] of expected) {
      await expect(detailValue(orders, label)).toHaveTextContent(value);
    }
    await expect(
      within(orders).getByRole('region', { name: 'Raw provider payload' }),
    ).toHaveTextContent('"transactionType": "BILL"');

    await expect(
      within(orders).getByRole('heading', { level: 4, name: 'Previous orders' }),
    ).toBeVisible();
    const table = within(orders).getByRole('table', { name: 'Previous orders' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    await expect(headers).toEqual(['Date', 'Receipt', 'SKU', 'Status', 'Amount']);
    const rows = within(table).getAllByRole('row').slice(1);
    await expect(rows).toHaveLength(2);
    await expect(rows[0]).toHaveTextContent('2026-10-02 16:40K7QX2M9P-R1mg-monthlyBILL29.70 USD');
    await expect(rows[1]).toHaveTextContent('2026-05-02 16:40K7QX2M9Pmg-monthlySALE29.70 USD');
    scrollToSection(drawer, 'Order details');
  },
};

/** The end of the ClickBank drawer: the raw INS payload of the latest order and the previous orders. */
export const ClickBankPreviousOrders: Story = {
  args: { ...ClickBankWithOrders.args },
  play: async () => {
    const drawer = await findDrawer();
    const previous = within(drawer).getByRole('heading', { level: 4, name: 'Previous orders' });
    const raw = within(drawer).getByRole('region', { name: 'Raw provider payload' });
    await expect(raw).toHaveTextContent('"itemNo": "mg-monthly"');
    await expect(
      raw.compareDocumentPosition(previous) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    const header = drawer.querySelector('header');
    drawer.scrollTop = raw.offsetTop - (header?.offsetHeight ?? 0);
    await expect(within(drawer).getByRole('table', { name: 'Previous orders' })).toBeVisible();
  },
};

/** ClickBank without local order records: the §2 message; Name and Location fall back to dashes. */
export const ClickBankNoOrders: Story = {
  args: {
    ...LemonSqueezy.args,
    detail: { status: 'ready', data: CLICKBANK_DETAIL },
    orders: { status: 'ready', data: [] },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(sectionHeadings(drawer)).toEqual(CLICKBANK_SECTIONS);
    const orders = section(drawer, 'Order details');
    await expect(orders).toHaveTextContent(
      'No local ClickBank order records found for this customer.',
    );
    await expect(within(orders).queryByRole('table')).toBeNull();
    await expect(detailValue(section(drawer, 'Core'), 'Name')).toHaveTextContent(/^—$/);
    await expect(
      detailValue(section(drawer, 'Customer / Marketing'), 'Location'),
    ).toHaveTextContent(/^—$/);
    scrollToSection(drawer, 'Metadata');
  },
};

/** The orders call failed: the §8 message, with the fetch failure detail as given. */
export const ClickBankOrdersFailed: Story = {
  args: {
    ...LemonSqueezy.args,
    detail: { status: 'ready', data: CLICKBANK_DETAIL },
    orders: { status: 'error', message: 'ClickBank orders fetch failed (502)' },
  },
  play: async () => {
    const drawer = await findDrawer();
    const alert = within(section(drawer, 'Order details')).getByRole('alert');
    await expect(alert).toHaveTextContent('Failed to load ClickBank order details');
    await expect(alert).toHaveTextContent('ClickBank orders fetch failed (502)');
    // The rest of the detail is still shown.
    await expect(detailValue(section(drawer, 'Core'), 'Email')).toHaveTextContent(
      'jordan.reyes@example.net',
    );
    scrollToSection(drawer, 'Metadata');
  },
};

/** The orders are still loading: a polite loading line inside Order details. */
export const ClickBankOrdersLoading: Story = {
  args: {
    ...LemonSqueezy.args,
    detail: { status: 'ready', data: CLICKBANK_DETAIL },
    orders: { status: 'loading' },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(section(drawer, 'Order details')).getByRole('status')).toHaveTextContent(
      'Loading ClickBank orders…',
    );
    scrollToSection(drawer, 'Metadata');
  },
};

/** The detail is loading: 'Loading details…' and no sections yet. */
export const DetailLoading: Story = {
  args: { ...LemonSqueezy.args, detail: { status: 'loading' } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByRole('status')).toHaveTextContent('Loading details…');
    await expect(sectionHeadings(drawer)).toEqual([]);
    await expect(within(drawer).getByRole('button', { name: 'Close' })).toBeVisible();
  },
};

/** The detail failed to load: 'Failed to load details' (§8) in an alert. */
export const DetailFailed: Story = {
  args: { ...LemonSqueezy.args, detail: { status: 'error', message: 'Failed to load details' } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByRole('alert')).toHaveTextContent(/^Failed to load details$/);
    await expect(sectionHeadings(drawer)).toEqual([]);
  },
};

/** The detail call answered nothing for this row: a neutral notice, no sections. */
export const DetailEmpty: Story = {
  args: { ...LemonSqueezy.args, detail: { status: 'empty' } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(drawer).getByRole('status')).toHaveTextContent('No details found.');
    await expect(sectionHeadings(drawer)).toEqual([]);
  },
};

/** Every field missing: dashes everywhere, no crash, no links, no order section. */
export const MissingFieldsEverywhere: Story = {
  args: {
    ...LemonSqueezy.args,
    detail: { status: 'ready', data: EMPTY_DETAIL },
    audit: { ...JOHNDOE_AUDIT, rows: { status: 'empty' } },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(sectionHeadings(drawer)).toEqual(SECTIONS);
    const values = within(drawer).getAllByRole('definition');
    await expect(values).toHaveLength(25);
    for (const value of values) await expect(value).toHaveTextContent(/^—$/);
    await expect(within(drawer).queryByRole('link')).toBeNull();
    await expect(within(drawer).queryAllByRole('region', { name: /item|Pause|payload/ })).toEqual(
      [],
    );
    await expect(section(drawer, 'Useful Links')).toHaveTextContent(/^Useful Links—$/);
  },
};

/** Links with javascript:, data:, mailto: or relative addresses are not rendered; https is. */
export const UnsafeLinks: Story = {
  args: { ...LemonSqueezy.args, detail: { status: 'ready', data: UNSAFE_LINKS_DETAIL } },
  play: async () => {
    const drawer = await findDrawer();
    const links = within(section(drawer, 'Useful Links')).getAllByRole('link');
    await expect(links).toHaveLength(1);
    await expect(links[0]).toHaveAccessibleName('Customer portal (opens in a new tab)');
    await expect(links[0]!.getAttribute('href')).toMatch(/^https:\/\//);
    await expect(document.querySelector('a[href^="javascript:"], a[href^="data:"]')).toBeNull();
    await expect(drawer).not.toHaveTextContent('Update payment method');
    scrollToSection(drawer, 'Pause');
  },
};

/** Very long email, name, id and address wrap inside the drawer: nothing overflows sideways. */
export const LongText: Story = {
  args: { ...LemonSqueezy.args, detail: { status: 'ready', data: LONG_TEXT_DETAIL } },
  play: async () => {
    const drawer = await findDrawer();
    const core = section(drawer, 'Core');
    await expect(detailValue(core, 'Email')).toHaveTextContent(LONG_EMAIL);
    await expect(detailValue(core, 'Name')).toHaveTextContent(LONG_NAME);
    await expect(detailValue(core, 'Address/Region')).toHaveTextContent(
      'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch, Isle of Anglesey, LL61 5UJ, GB',
    );
    await expect(drawer.scrollWidth).toBeLessThanOrEqual(drawer.clientWidth);
    await expect(
      within(section(drawer, 'Pause')).getByRole('region', { name: 'Pause' }),
    ).toHaveTextContent('"mode": "void"');
  },
};

/**
 * The last section lists the customer's newest audit rows (time, operator, action, outcome,
 * detail) and links to all of them on the Audit screen, filtered by the customer.
 */
export const AuditRows: Story = {
  play: async () => {
    const drawer = await findDrawer();
    const audit = section(drawer, 'Audit');
    await expect(audit).toHaveTextContent('3 rows.');
    const table = within(audit).getByRole('table', { name: 'Audit rows of this customer' });
    const rows = within(table).getAllByRole('row').slice(1);
    await expect(rows).toHaveLength(3);
    await expect(rows[0]).toHaveTextContent(
      '2026-11-20 11:58:00support@example.comaccess.revoke_nowOK',
    );
    await expect(within(audit).getByRole('link', { name: 'All audit rows' })).toHaveAttribute(
      'href',
      '/audit?target=johndoe%40example.com',
    );
    scrollToSection(drawer, 'Audit');
  },
};

/** The customer's audit rows are loading: a polite loading line inside Audit. */
export const AuditLoading: Story = {
  args: { audit: { ...JOHNDOE_AUDIT, rows: { status: 'loading' } } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(section(drawer, 'Audit')).getByRole('status')).toHaveTextContent(
      'Loading audit rows…',
    );
    scrollToSection(drawer, 'Audit');
  },
};

/** Nobody has acted on this customer yet. */
export const AuditEmpty: Story = {
  args: { audit: { ...JOHNDOE_AUDIT, rows: { status: 'empty' } } },
  play: async () => {
    const drawer = await findDrawer();
    await expect(section(drawer, 'Audit')).toHaveTextContent('No audit rows for this customer.');
    scrollToSection(drawer, 'Audit');
  },
};

/** The audit rows failed to load: the message in an alert; the rest of the drawer is shown. */
export const AuditFailed: Story = {
  args: {
    audit: {
      ...JOHNDOE_AUDIT,
      rows: { status: 'error', message: 'Failed to load the audit trail' },
    },
  },
  play: async () => {
    const drawer = await findDrawer();
    await expect(within(section(drawer, 'Audit')).getByRole('alert')).toHaveTextContent(
      'Failed to load the audit trail',
    );
    await expect(detailValue(section(drawer, 'Core'), 'Email')).toHaveTextContent(
      'johndoe@example.com',
    );
    scrollToSection(drawer, 'Audit');
  },
};
