import { type ReactNode } from 'react';
import { DASH, formatAmountWithCode, formatUtcDateTime } from '../../domain/format';
import { addressRegion, displayName, safeExternalLinks, splitOrders } from '../../domain/detail';
import {
  cadenceLabel,
  linkLabel,
  locationText,
  orDash,
  yesNo,
} from '../../domain/subscription-view';
import { MESSAGES } from '../../domain/messages';
import { isClickbank } from '../../domain/providers';
import type { AsyncState, MarketplaceOrder, SubscriptionDetail } from '../../domain/types';
import { CustomerLink } from '../CustomerLink';
import { Banner } from '../Banner';
import { CustomerAudit, type CustomerAuditProps } from '../CustomerAudit';
import { DetailList, type DetailItem } from '../DetailList';
import { DrawerFrame } from '../DrawerFrame';
import { JsonBlock } from '../JsonBlock';
import { ProviderStatusBadge } from '../ProviderStatusBadge';
import styles from './SubscriptionDrawer.module.css';

/** Props of {@link SubscriptionDrawer}. */
export interface SubscriptionDrawerProps {
  /** Whether the drawer is open (controlled by the screen: open while a row's details are shown). */
  isOpen: boolean;
  /** Called with false on Close, Escape or a backdrop click (Radix Dialog). */
  onOpenChange: (isOpen: boolean) => void;
  /** GET /subscriptions/detail (§7): loading → 'Loading details…', error → its message. */
  detail: AsyncState<SubscriptionDetail>;
  /**
   * The customer's ClickBank order records, newest first (§7 GET /api/admin/clickbank/orders); read
   * only when the detail's provider is clickbank. An error shows 'Failed to load ClickBank order
   * details' plus its message when that differs, e.g. 'ClickBank orders fetch failed (502)'.
   */
  orders: AsyncState<readonly MarketplaceOrder[]>;
  /** The customer's newest audit rows and the link to all of them, the last section. */
  audit: CustomerAuditProps;
}

/**
 * One titled section of the drawer body. Its heading gives the structure; it is deliberately not a
 * named region, so the drawer does not become a maze of landmarks.
 */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.section}>
      <h3 className={styles.sectionTitle}>{title}</h3>
      {children}
    </section>
  );
}

/** Useful Links (§2): only http(s) links, each opening in a new tab; a dash when there are none. */
function UsefulLinks({ urls }: { urls: Record<string, string> | null }) {
  const links = safeExternalLinks(urls);
  if (links.length === 0) return <p className={styles.plain}>{DASH}</p>;
  return (
    <ul className={styles.links}>
      {links.map((link) => (
        <li key={`${link.name} ${link.href}`}>
          <a className={styles.link} href={link.href} target="_blank" rel="noopener noreferrer">
            {linkLabel(link.name)}
            <span className="visually-hidden"> (opens in a new tab)</span>
            <span className={styles.linkIcon} aria-hidden="true">
              ↗
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The latest order's fields (§3 Marketplace order record), amounts in cents formatted (§5). */
function latestOrderItems(order: MarketplaceOrder): DetailItem[] {
  const money = (cents: number | null) => formatAmountWithCode(cents, order.currency);
  return [
    { label: 'Receipt', value: orDash(order.receipt), kind: 'code' },
    { label: 'SKU/Item', value: orDash(order.sku), kind: 'code' },
    { label: 'Status', value: orDash(order.status) },
    { label: 'Title', value: orDash(order.title) },
    { label: 'Site', value: orDash(order.site) },
    { label: 'Affiliate', value: orDash(order.affiliate) },
    { label: 'Country', value: orDash(order.country) },
    { label: 'State', value: orDash(order.state) },
    { label: 'Postal Code', value: orDash(order.postalCode) },
    { label: 'First Name', value: orDash(order.firstName) },
    { label: 'Last Name', value: orDash(order.lastName) },
    { label: 'Display Name', value: orDash(order.customerDisplayName) },
    { label: 'Refundable State', value: orDash(order.customerRefundableState) },
    { label: 'Currency', value: orDash(order.currency) },
    { label: 'Amount', value: money(order.amountCents), kind: 'number' },
    { label: 'Rebill Amount', value: money(order.rebillAmountCents), kind: 'number' },
    { label: 'Account Amount', value: money(order.accountAmountCents), kind: 'number' },
    { label: 'Next Payment', value: formatUtcDateTime(order.nextPaymentAt) },
    { label: 'Order Date', value: formatUtcDateTime(order.createdAtProvider) },
  ];
}

/** Order details (§2, clickbank only): the latest order, previous orders, or why there are none. */
function OrderDetails({
  orders,
  latest,
  previous,
}: {
  orders: AsyncState<readonly MarketplaceOrder[]>;
  latest: MarketplaceOrder | null;
  previous: readonly MarketplaceOrder[];
}) {
  if (orders.status === 'loading') {
    return (
      <p role="status" className={styles.muted}>
        Loading ClickBank orders…
      </p>
    );
  }
  if (orders.status === 'error') {
    const detail = orders.message.trim();
    return (
      <Banner tone="danger">
        <p className={styles.plain}>{MESSAGES.clickbankOrders}</p>
        {detail && detail !== MESSAGES.clickbankOrders ? (
          <p className={styles.errorDetail}>{detail}</p>
        ) : null}
      </Banner>
    );
  }
  if (latest == null) {
    return (
      <p className={styles.muted}>No local ClickBank order records found for this customer.</p>
    );
  }
  return (
    <div className={styles.stack}>
      <h4 className={styles.subTitle}>Latest order</h4>
      <DetailList items={latestOrderItems(latest)} />
      <JsonBlock label="Raw provider payload" value={latest.rawJson} />
      <h4 className={styles.subTitle}>Previous orders</h4>
      {previous.length === 0 ? (
        <p className={styles.plain}>{DASH}</p>
      ) : (
        <div className={styles.ordersFrame}>
          <table className={styles.orders}>
            <caption className="visually-hidden">Previous orders</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Receipt</th>
                <th scope="col">SKU</th>
                <th scope="col">Status</th>
                <th scope="col" data-align="end">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {previous.map((order, index) => (
                <tr key={`${order.receipt ?? ''}-${order.sku ?? ''}-${index}`}>
                  <td data-kind="number">{formatUtcDateTime(order.createdAtProvider)}</td>
                  <td data-kind="code">{orDash(order.receipt)}</td>
                  <td data-kind="code">{orDash(order.sku)}</td>
                  <td>{orDash(order.status)}</td>
                  <td data-kind="number" data-align="end">
                    {formatAmountWithCode(order.amountCents, order.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** Every section of a loaded detail, in the order of §2. */
function DetailSections({
  detail,
  orders,
  audit,
}: {
  detail: SubscriptionDetail;
  orders: AsyncState<readonly MarketplaceOrder[]>;
  audit: CustomerAuditProps;
}) {
  const isClickBank = isClickbank(detail.provider);
  const { latest, previous } =
    isClickBank && orders.status === 'ready'
      ? splitOrders(orders.data)
      : { latest: null, previous: [] };

  const core: DetailItem[] = [
    {
      label: 'Email',
      value: detail.email?.trim() ? <CustomerLink email={detail.email} /> : DASH,
    },
    { label: 'Name', value: displayName(detail, latest) },
    { label: 'Address/Region', value: addressRegion(detail) },
    { label: 'Provider', value: orDash(detail.provider) },
    { label: 'Subscription ID', value: orDash(detail.providerId), kind: 'code' },
    { label: 'Status', value: <ProviderStatusBadge status={detail.status} /> },
    { label: 'Status (Formatted)', value: orDash(detail.statusFormatted) },
    { label: 'Cadence', value: cadenceLabel(detail.cadence) },
    { label: 'Start', value: formatUtcDateTime(detail.startDate) },
    { label: 'Renews', value: formatUtcDateTime(detail.renewsAt ?? detail.currentPeriodEnd) },
    { label: 'Expires', value: formatUtcDateTime(detail.expiresAt ?? detail.endsAt) },
    {
      label: 'Amount',
      value: formatAmountWithCode(detail.amountCents, detail.currency),
      kind: 'number',
    },
  ];
  const customer: DetailItem[] = [
    { label: 'Store ID', value: orDash(detail.storeId), kind: 'code' },
    { label: 'Email Marketing Status', value: orDash(detail.statusMarketing) },
    { label: 'Location', value: locationText(detail, latest) },
    {
      label: 'Total Revenue',
      value: formatAmountWithCode(detail.totalRevenueCents, detail.currency),
      kind: 'number',
    },
  ];
  const payment: DetailItem[] = [
    { label: 'Processor', value: orDash(detail.paymentProcessor) },
    { label: 'Card Brand', value: orDash(detail.cardBrand) },
    { label: 'Card Last 4', value: orDash(detail.cardLastFour), kind: 'code' },
    { label: 'Cancelled', value: yesNo(detail.cancelled) },
  ];
  const trial: DetailItem[] = [
    { label: 'Trial Ends', value: formatUtcDateTime(detail.trialEndsAt) },
    { label: 'Billing Anchor (day)', value: orDash(detail.billingAnchor), kind: 'number' },
  ];
  const metadata: DetailItem[] = [
    { label: 'Created At', value: formatUtcDateTime(detail.createdAt) },
    { label: 'Updated At', value: formatUtcDateTime(detail.updatedAt) },
    { label: 'Test Mode', value: yesNo(detail.testMode) },
  ];

  return (
    <>
      <Section title="Core">
        <DetailList items={core} />
      </Section>
      <Section title="Customer / Marketing">
        <DetailList items={customer} />
      </Section>
      <Section title="Payment">
        <DetailList items={payment} />
      </Section>
      <Section title="Trial & Billing">
        <DetailList items={trial} />
        <JsonBlock label="First subscription item" value={detail.firstSubscriptionItem} />
      </Section>
      <Section title="Pause">
        <JsonBlock label="Pause" value={detail.pause} isLabelHidden />
      </Section>
      <Section title="Useful Links">
        <UsefulLinks urls={detail.urls} />
      </Section>
      <Section title="Metadata">
        <DetailList items={metadata} />
      </Section>
      {isClickBank ? (
        <Section title="Order details">
          <OrderDetails orders={orders} latest={latest} previous={previous} />
        </Section>
      ) : null}
      <Section title="Provider payload">
        <JsonBlock label="Provider payload" value={detail.providerDetail} isLabelHidden />
      </Section>
      <Section title="Audit">
        <CustomerAudit {...audit} />
      </Section>
    </>
  );
}

/**
 * The subscription detail drawer (§2): a right-side modal dialog titled 'Subscription details' with a
 * Close button, closing on Escape and on a backdrop click. Focus is trapped inside while open and
 * returns, on close, to the element that had it when the drawer opened (the row's email or View
 * button). The header stays put while the body scrolls. All times are UTC 'YYYY-MM-DD HH:MM' (§5);
 * every missing value is a dash. The last section lists the customer's audit rows.
 */
export function SubscriptionDrawer({
  isOpen,
  onOpenChange,
  detail,
  orders,
  audit,
}: SubscriptionDrawerProps) {
  const subtitle =
    detail.status === 'ready'
      ? [detail.data.email?.trim(), detail.data.provider?.trim()].filter(Boolean).join(' · ')
      : null;

  return (
    <DrawerFrame
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Subscription details"
      subtitle={subtitle}
      busy={detail.status === 'loading'}
    >
      {detail.status === 'loading' ? (
        <p role="status" className={styles.muted}>
          Loading details…
        </p>
      ) : detail.status === 'error' ? (
        <Banner tone="danger">{detail.message.trim() || MESSAGES.details}</Banner>
      ) : detail.status === 'empty' ? (
        <Banner tone="neutral">No details found.</Banner>
      ) : (
        <DetailSections detail={detail.data} orders={orders} audit={audit} />
      )}
    </DrawerFrame>
  );
}
