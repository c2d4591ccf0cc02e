import { Link } from 'react-router-dom';
import type { CustomerRecord } from '../../domain/customer';
import { DASH, formatUtcDateTime } from '../../domain/format';
import type { AccessAction, AsyncState, SubscriptionRow } from '../../domain/types';
import { AccessActionsMenu } from '../AccessActionsMenu';
import { ActionResultAlert, type ActionResultMessage } from '../ActionResultAlert';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { MgStatusBadge } from '../MgStatusBadge';
import { PageHeader } from '../PageHeader';
import { ProviderStatusBadge } from '../ProviderStatusBadge';
import { SubscriptionDrawer } from '../SubscriptionDrawer';
import type { SubscriptionDrawerState } from '../SubscriptionsView';
import {
  CustomerForum,
  CustomerMoney,
  CustomerOrders,
  CustomerSubscriptions,
} from './CustomerSections';
import { CustomerTimeline, type CustomerTimelineProps } from './CustomerTimeline';
import styles from './CustomerView.module.css';

/** Props of {@link CustomerView}. */
export interface CustomerViewProps {
  /** The email in the address, shown while the record loads and when it is not found. */
  email: string;
  /** GET /customers/:email: loading, error (not found included: its message) or ready. */
  record: AsyncState<CustomerRecord>;
  /** Retry after the record failed to load. */
  onRetry: () => void;
  /** The timeline's state and handlers (rendered once the record is ready). */
  timeline: CustomerTimelineProps;
  /** The instant 'tomorrow 09:00 UTC' and the MG status counts from; defaults to now. */
  now?: Date;
  /** Why the operator may not run access actions, or null when they may (as on Users). */
  actionsBlockedReason?: string | null;
  /** An access action for this customer is running. */
  isActionPending?: boolean;
  /** The last access action's result, or null. */
  actionResult?: ActionResultMessage | null;
  /** An access action was chosen and confirmed (the Users row menu's rules and dialogs). */
  onAccessAction: (email: string, action: AccessAction) => void;
  /** The action result was dismissed. */
  onDismissActionResult: () => void;
  /** Why the operator may not retry forum jobs, or null when they may. */
  retryBlockedReason?: string | null;
  /** Forum jobs whose retry is running. */
  pendingJobIds?: ReadonlySet<number>;
  /** 'Retry now' on a failed forum job. */
  onRetryJob: (jobId: number) => void;
  /** The subscription drawer: which subscription is open and its loads. */
  drawer: SubscriptionDrawerState;
  /** A subscription's View was pressed. */
  onOpenSubscription: (row: SubscriptionRow) => void;
  /** The drawer was closed. */
  onCloseSubscription: () => void;
}

/**
 * One customer on one page (docs/api.md "Customers"): the header (email, name, providers, MG
 * status, current access and its expiry, and the Users row's access menu in place), then the
 * subscriptions on both providers (View opens the Subscriptions drawer), ClickBank orders,
 * money, the forum (membership, outbox jobs with 'Retry now', invites) and the merged timeline.
 * Loading, not found and error states keep the email in view and a way back to Users. Pure.
 */
export function CustomerView({
  email,
  record,
  onRetry,
  timeline,
  now,
  actionsBlockedReason = null,
  isActionPending = false,
  actionResult = null,
  onAccessAction,
  onDismissActionResult,
  retryBlockedReason = null,
  pendingJobIds,
  onRetryJob,
  drawer,
  onOpenSubscription,
  onCloseSubscription,
}: CustomerViewProps) {
  if (record.status !== 'ready') {
    return (
      <div className={styles.view}>
        <PageHeader title={email} />
        {record.status === 'error' ? (
          <Banner
            tone="danger"
            action={
              <Button size="small" onClick={onRetry}>
                Retry
              </Button>
            }
          >
            {record.message}
          </Banner>
        ) : (
          <p role="status" className={styles.muted}>
            Loading customer…
          </p>
        )}
        <p className={styles.plain}>
          <Link to="/users">Back to Users</Link>
        </p>
      </div>
    );
  }

  const { customer, subscriptions, orders, payments, forum } = record.data;
  return (
    <div className={styles.view}>
      <PageHeader title={customer.email}>
        {customer.name ? <p className={styles.name}>{customer.name}</p> : null}
      </PageHeader>
      <div className={styles.header}>
        <div className={styles.identity}>
          <dl className={styles.facts}>
            <div className={styles.fact}>
              <dt>Providers</dt>
              <dd>{customer.providers.length > 0 ? customer.providers.join(', ') : DASH}</dd>
            </div>
            <div className={styles.fact}>
              <dt>Provider status</dt>
              <dd>
                <ProviderStatusBadge status={customer.providerStatus} />
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>MG status</dt>
              <dd>
                <MgStatusBadge row={customer} now={now} />
              </dd>
            </div>
            <div className={styles.fact}>
              <dt>Access until (UTC)</dt>
              <dd>{customer.expiresAt ? formatUtcDateTime(customer.expiresAt) : DASH}</dd>
            </div>
            <div className={styles.fact}>
              <dt>Customer since</dt>
              <dd>{formatUtcDateTime(customer.createdAt)}</dd>
            </div>
          </dl>
        </div>
        <AccessActionsMenu
          email={customer.email}
          currentPeriodEnd={customer.currentPeriodEnd}
          now={now}
          isPending={isActionPending}
          blockedReason={actionsBlockedReason}
          onAction={onAccessAction}
        />
      </div>
      {actionResult ? (
        <div className={styles.results}>
          <ActionResultAlert
            tone={actionResult.tone}
            message={actionResult.message}
            subject={customer.email}
            onDismiss={onDismissActionResult}
          />
        </div>
      ) : null}
      <div className={styles.grid}>
        <div className={styles.wide}>
          <CustomerSubscriptions
            subscriptions={subscriptions}
            onOpenSubscription={onOpenSubscription}
          />
        </div>
        <CustomerMoney
          payments={payments}
          lifetimeRevenueCents={customer.lifetimeRevenueCents}
          currency={customer.currency}
        />
        <CustomerForum
          forum={forum}
          retryBlockedReason={retryBlockedReason}
          pendingJobIds={pendingJobIds}
          onRetryJob={onRetryJob}
        />
        <CustomerOrders orders={orders} />
      </div>
      <CustomerTimeline {...timeline} />
      <SubscriptionDrawer
        isOpen={drawer.openRow != null}
        onOpenChange={(isOpen) => {
          if (!isOpen) onCloseSubscription();
        }}
        detail={drawer.detail}
        orders={drawer.orders}
        audit={drawer.audit}
      />
    </div>
  );
}
