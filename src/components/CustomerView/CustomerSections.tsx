import type {
  CustomerForum,
  CustomerOrder,
  CustomerPayment,
  ForumJob,
  PaymentKind,
} from '../../domain/customer';
import { DASH, formatAmountWithCode, formatCurrency, formatUtcDateTime } from '../../domain/format';
import type { SubscriptionRow, Tone } from '../../domain/types';
import { Badge } from '../Badge';
import { Button } from '../Button';
import { ProviderStatusBadge } from '../ProviderStatusBadge';
import { SettingsCard } from '../SettingsCard';
import styles from './CustomerView.module.css';

/** Props of {@link CustomerSubscriptions}. */
export interface CustomerSubscriptionsProps {
  /** Every subscription of the customer on both providers, newest first. */
  subscriptions: readonly SubscriptionRow[];
  /** A row's View was pressed: open the subscription drawer on it. */
  onOpenSubscription: (row: SubscriptionRow) => void;
}

/**
 * The customer's subscriptions on both providers: provider, subscription id, status, cadence,
 * amount in its own currency, start and renewal; View opens the Subscriptions drawer. Pure.
 */
export function CustomerSubscriptions({
  subscriptions,
  onOpenSubscription,
}: CustomerSubscriptionsProps) {
  return (
    <SettingsCard title="Subscriptions" headingLevel={2}>
      {subscriptions.length === 0 ? (
        <p className={styles.muted}>No subscriptions.</p>
      ) : (
        <div className={styles.frame}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Provider</th>
                <th scope="col">Sub ID</th>
                <th scope="col">Status</th>
                <th scope="col">Cadence</th>
                <th scope="col">Amount</th>
                <th scope="col">Start</th>
                <th scope="col">Renews</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {subscriptions.map((row) => (
                <tr key={row.rowId}>
                  <td data-kind="text">{row.provider ?? DASH}</td>
                  <td data-kind="code">{row.providerId ?? DASH}</td>
                  <td>
                    <ProviderStatusBadge status={row.status} />
                  </td>
                  <td data-kind="text">{row.cadence ?? DASH}</td>
                  <td data-kind="number">{formatAmountWithCode(row.amountCents, row.currency)}</td>
                  <td data-kind="number">{formatUtcDateTime(row.startDate)}</td>
                  <td data-kind="number">{formatUtcDateTime(row.currentPeriodEnd)}</td>
                  <td>
                    <Button
                      size="small"
                      onClick={() => onOpenSubscription(row)}
                      aria-label={`View subscription ${row.providerId ?? row.rowId}`}
                    >
                      View
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsCard>
  );
}

/** Props of {@link CustomerOrders}. */
export interface CustomerOrdersProps {
  /** The customer's ClickBank orders, newest first. */
  orders: readonly CustomerOrder[];
}

/** The customer's ClickBank orders with their receipts; nothing when there are none. Pure. */
export function CustomerOrders({ orders }: CustomerOrdersProps) {
  if (orders.length === 0) return null;
  return (
    <SettingsCard title="ClickBank orders" headingLevel={2}>
      <div className={styles.frame}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Date (UTC)</th>
              <th scope="col">Receipt</th>
              <th scope="col">Type</th>
              <th scope="col">Product</th>
              <th scope="col">Amount</th>
              <th scope="col">Affiliate</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={`${order.receipt} ${order.transactionType} ${order.at}`}>
                <td data-kind="number">{formatUtcDateTime(order.at)}</td>
                <td data-kind="code">{order.receipt}</td>
                <td data-kind="code">{order.transactionType || DASH}</td>
                <td data-kind="text">{order.product ?? DASH}</td>
                <td data-kind="number">
                  {formatAmountWithCode(order.amountCents, order.currency)}
                </td>
                <td data-kind="text">{order.affiliate ?? DASH}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </SettingsCard>
  );
}

const PAYMENT_LABELS: Record<PaymentKind, string> = {
  payment: 'Payment',
  renewal: 'Renewal',
  refund: 'Refund',
  chargeback: 'Chargeback',
};

/** Money going back to the customer. */
function isOutgoing(kind: PaymentKind): boolean {
  return kind === 'refund' || kind === 'chargeback';
}

/** Props of {@link CustomerMoney}. */
export interface CustomerMoneyProps {
  /** Payments, renewals, refunds and chargebacks, newest first, each in its own currency. */
  payments: readonly CustomerPayment[];
  /** Net lifetime revenue in integer cents of `currency` (the reporting currency). */
  lifetimeRevenueCents: number;
  /** The reporting currency. */
  currency: string;
}

/**
 * The customer's money: the lifetime total in the reporting currency, then every payment,
 * renewal, refund and chargeback in its own currency (refunds and chargebacks with a minus sign,
 * not colour alone). Pure.
 */
export function CustomerMoney({ payments, lifetimeRevenueCents, currency }: CustomerMoneyProps) {
  return (
    <SettingsCard title="Money" headingLevel={2}>
      <p className={styles.total}>
        Lifetime revenue: {formatCurrency(lifetimeRevenueCents, currency)}
        <span className="visually-hidden"> ({currency}, net of refunds)</span>
      </p>
      {payments.length === 0 ? (
        <p className={styles.muted}>No payments.</p>
      ) : (
        <div className={styles.frame}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Date (UTC)</th>
                <th scope="col">Kind</th>
                <th scope="col">Provider</th>
                <th scope="col">Amount</th>
                <th scope="col">Reference</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment, index) => (
                <tr key={`${payment.reference ?? ''} ${payment.at} ${index}`}>
                  <td data-kind="number">{formatUtcDateTime(payment.at)}</td>
                  <td data-kind="text">{PAYMENT_LABELS[payment.kind]}</td>
                  <td data-kind="text">{payment.provider || DASH}</td>
                  <td
                    data-kind="number"
                    className={isOutgoing(payment.kind) ? styles.refund : undefined}
                  >
                    {isOutgoing(payment.kind) ? '−' : ''}
                    {formatCurrency(payment.amountCents, payment.currency)}
                  </td>
                  <td data-kind="code">{payment.reference ?? DASH}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </SettingsCard>
  );
}

const FORUM_STATE: Record<string, { tone: Tone; text: string }> = {
  member: { tone: 'success', text: 'Member' },
  invited: { tone: 'info', text: 'Invited' },
  none: { tone: 'neutral', text: 'No access' },
};

const JOB_TONES: Record<ForumJob['status'], Tone> = {
  pending: 'info',
  sent: 'success',
  failed: 'danger',
};

/** Props of {@link CustomerForum}. */
export interface CustomerForumProps {
  forum: CustomerForum;
  /** Why the operator may not retry jobs (their role), or null when they may. */
  retryBlockedReason?: string | null;
  /** Jobs whose retry is running. */
  pendingJobIds?: ReadonlySet<number>;
  /** 'Retry now' was pressed on a failed job. */
  onRetryJob: (jobId: number) => void;
}

/**
 * The forum side of the customer: membership (and username), the outbox jobs for this email
 * (pending, sent or failed, with attempts and the last error), pending invites, and 'Retry now'
 * on a failed job (support and up; otherwise disabled with the reason). Pure.
 */
export function CustomerForum({
  forum,
  retryBlockedReason = null,
  pendingJobIds = new Set(),
  onRetryJob,
}: CustomerForumProps) {
  const state = FORUM_STATE[forum.state] ?? { tone: 'neutral' as Tone, text: 'Unknown' };
  return (
    <SettingsCard title="Forum" headingLevel={2}>
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt>Membership</dt>
          <dd>
            <Badge tone={state.tone}>{state.text}</Badge>
          </dd>
        </div>
        <div className={styles.fact}>
          <dt>Username</dt>
          <dd>{forum.username ?? DASH}</dd>
        </div>
        <div className={styles.fact}>
          <dt>Invites</dt>
          <dd>
            {forum.invites.length === 0
              ? 'None'
              : forum.invites
                  .map(
                    (invite) =>
                      `${invite.status}, sent ${formatUtcDateTime(invite.createdAt)}${invite.expiresAt ? `, expires ${formatUtcDateTime(invite.expiresAt)}` : ''}`,
                  )
                  .join('; ')}
          </dd>
        </div>
      </dl>
      {forum.jobs.length === 0 ? (
        <p className={styles.muted}>No forum jobs for this email.</p>
      ) : (
        <div className={styles.frame}>
          <table className={styles.table}>
            <caption className="visually-hidden">Forum jobs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last error</th>
                <th scope="col">Updated (UTC)</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {forum.jobs.map((job) => {
                const isPending = pendingJobIds.has(job.id);
                return (
                  <tr key={job.id}>
                    <td data-kind="text" className={styles.nowrap}>
                      {job.op}
                    </td>
                    <td>
                      <Badge tone={JOB_TONES[job.status]}>{job.status}</Badge>
                    </td>
                    <td data-kind="number">{job.attempts}</td>
                    <td data-kind="text" className={job.lastError ? styles.error : undefined}>
                      {job.lastError ?? DASH}
                    </td>
                    <td data-kind="number">{formatUtcDateTime(job.updatedAt ?? job.createdAt)}</td>
                    <td>
                      {job.status === 'failed' ? (
                        <Button
                          size="small"
                          aria-disabled={retryBlockedReason !== null || isPending || undefined}
                          title={retryBlockedReason ?? undefined}
                          onClick={() => {
                            if (retryBlockedReason === null && !isPending) onRetryJob(job.id);
                          }}
                        >
                          {isPending ? 'Retrying…' : 'Retry now'}
                          <span className="visually-hidden">
                            : {job.op} job {job.id}
                          </span>
                        </Button>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {retryBlockedReason && forum.jobs.some((job) => job.status === 'failed') ? (
        <p className={styles.muted}>{retryBlockedReason}</p>
      ) : null}
    </SettingsCard>
  );
}
