import { useId, type ReactNode } from 'react';
import { DASH, formatUtcDateTimeSeconds } from '../../domain/format';
import type { AsyncState } from '../../domain/types';
import {
  OUTCOME_LABELS,
  PROVIDER_LABELS,
  formatBytes,
  outcomeTone,
  replaySummary,
  type DeliveryOutcome,
  type ReplayResult,
  type WebhookDeliveryDetail,
} from '../../domain/webhooks';
import { Badge } from '../Badge';
import { Banner } from '../Banner';
import { Button } from '../Button';
import { CustomerLink } from '../CustomerLink';
import { DetailList, type DetailItem } from '../DetailList';
import { DrawerFrame } from '../DrawerFrame';
import { JsonBlock } from '../JsonBlock';
import drawer from '../SubscriptionDrawer/SubscriptionDrawer.module.css';
import styles from './WebhookDeliveryDrawer.module.css';

/** Where a replay stands: not asked, running, its result, or the request failed. */
export type ReplayState =
  | { status: 'idle' }
  | { status: 'running' }
  | { status: 'done'; result: ReplayResult }
  | { status: 'error'; message: string };

/** Props of {@link WebhookDeliveryDrawer}. */
export interface WebhookDeliveryDrawerProps {
  /** Whether the drawer is open (controlled by the screen). */
  isOpen: boolean;
  /** Called with false on Close, Escape or a backdrop click. */
  onOpenChange: (isOpen: boolean) => void;
  /** GET /webhook-deliveries/:id: the delivery with its headers and payload. */
  detail: AsyncState<WebhookDeliveryDetail>;
  /** Whether the signed-in operator may replay (role admin and up). */
  canReplay: boolean;
  /** The replay of the open delivery. */
  replay: ReplayState;
  /** Replay was clicked. */
  onReplay: () => void;
}

/** What an outcome without effects means for the "What it changed" section. */
const NOTHING_CHANGED: Readonly<Record<DeliveryOutcome, string>> = {
  applied: 'Nothing needed to change.',
  duplicate: 'Nothing: the same change was applied before.',
  ignored: 'Nothing: the server does not act on this delivery.',
  ignored_test: 'Nothing: a test notification.',
  invalid: 'Nothing: the delivery was refused as malformed.',
  refused_signature: 'Nothing: the signature did not prove it came from the provider.',
  failed: 'Nothing: its transaction failed and was rolled back.',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={drawer.section}>
      <h3 className={drawer.sectionTitle}>{title}</h3>
      {children}
    </section>
  );
}

function summaryItems(d: WebhookDeliveryDetail): DetailItem[] {
  return [
    { label: 'Received', value: formatUtcDateTimeSeconds(d.receivedAt) },
    { label: 'Provider', value: PROVIDER_LABELS[d.provider] ?? d.provider },
    { label: 'Event', value: d.event, kind: 'code' },
    {
      label: 'Outcome',
      value: <Badge tone={outcomeTone(d.outcome)}>{OUTCOME_LABELS[d.outcome]}</Badge>,
    },
    { label: 'HTTP answered', value: d.httpStatus || null, kind: 'number' },
    { label: 'Error or reason', value: d.error },
    { label: 'Email', value: d.email ? <CustomerLink email={d.email} /> : null },
    { label: 'Subscription ID', value: d.subscriptionId, kind: 'code' },
    { label: 'Body size', value: formatBytes(d.bodySize), kind: 'number' },
    {
      label: 'Last replay',
      value: d.replayedAt
        ? `${formatUtcDateTimeSeconds(d.replayedAt)} · ${d.replayOutcome ? OUTCOME_LABELS[d.replayOutcome] : DASH}`
        : null,
    },
  ];
}

/** The Replay button, or why it is not available, and the last replay's result. */
function ReplayPanel({
  detail,
  canReplay,
  replay,
  onReplay,
}: {
  detail: WebhookDeliveryDetail;
  canReplay: boolean;
  replay: ReplayState;
  onReplay: () => void;
}) {
  const blocked = !canReplay
    ? 'Replaying needs the admin role.'
    : !detail.hasBody
      ? 'Only a verified delivery can be replayed: this one kept only its size.'
      : null;
  const isRunning = replay.status === 'running';
  const blockedId = useId();
  return (
    <div className={drawer.stack}>
      <p className={drawer.plain}>
        Re-applies the stored delivery through the webhook&rsquo;s own code. A delivery that was
        applied replays as a duplicate and changes nothing.
      </p>
      <div className={styles.actions}>
        <Button
          variant="primary"
          disabled={blocked !== null}
          aria-disabled={isRunning || undefined}
          aria-describedby={blocked ? blockedId : undefined}
          onClick={() => {
            if (blocked === null && !isRunning) onReplay();
          }}
        >
          {isRunning ? 'Replaying…' : 'Replay'}
        </Button>
        {blocked ? (
          <p id={blockedId} className={drawer.muted}>
            {blocked}
          </p>
        ) : null}
      </div>
      {replay.status === 'done' ? (
        <Banner
          tone={
            replay.result.outcome === 'applied'
              ? 'success'
              : replay.result.outcome === 'failed' || replay.result.outcome === 'invalid'
                ? 'danger'
                : 'info'
          }
        >
          {replaySummary(replay.result)}
        </Banner>
      ) : replay.status === 'error' ? (
        <Banner tone="danger">{replay.message}</Banner>
      ) : null}
    </div>
  );
}

function DeliverySections({
  detail,
  canReplay,
  replay,
  onReplay,
}: {
  detail: WebhookDeliveryDetail;
  canReplay: boolean;
  replay: ReplayState;
  onReplay: () => void;
}) {
  return (
    <>
      <Section title="Delivery">
        <DetailList items={summaryItems(detail)} />
      </Section>
      <Section title="What it changed">
        {detail.effects.length > 0 ? (
          <ul className={styles.effects}>
            {detail.effects.map((effect) => (
              <li key={effect}>
                <code>{effect}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p className={drawer.plain}>{NOTHING_CHANGED[detail.outcome]}</p>
        )}
      </Section>
      <Section title="Replay">
        <ReplayPanel detail={detail} canReplay={canReplay} replay={replay} onReplay={onReplay} />
      </Section>
      <Section title="Payload">
        {detail.body === null ? (
          <p className={drawer.plain}>
            Only its size was kept ({formatBytes(detail.bodySize)}): the delivery was not verified.
          </p>
        ) : (
          <JsonBlock label="Payload" value={detail.body} isLabelHidden />
        )}
      </Section>
      <Section title="Headers">
        <JsonBlock label="Headers" value={detail.headers} isLabelHidden />
      </Section>
    </>
  );
}

/**
 * One webhook delivery in a right-side modal dialog titled 'Webhook delivery': what arrived, what
 * became of it and what it changed, the pretty-printed payload and headers, and Replay for admins
 * (disabled with the reason otherwise). Closes on Close, Escape and a backdrop click; focus
 * returns to the row's View button. Times are UTC.
 */
export function WebhookDeliveryDrawer({
  isOpen,
  onOpenChange,
  detail,
  canReplay,
  replay,
  onReplay,
}: WebhookDeliveryDrawerProps) {
  const subtitle =
    detail.status === 'ready'
      ? [PROVIDER_LABELS[detail.data.provider] ?? detail.data.provider, detail.data.event]
          .filter(Boolean)
          .join(' · ')
      : null;

  return (
    <DrawerFrame
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Webhook delivery"
      subtitle={subtitle}
      busy={detail.status === 'loading'}
    >
      {detail.status === 'loading' ? (
        <p role="status" className={drawer.muted}>
          Loading delivery…
        </p>
      ) : detail.status === 'error' ? (
        <Banner tone="danger">
          {detail.message.trim() || 'Failed to load the webhook delivery'}
        </Banner>
      ) : detail.status === 'empty' ? (
        <Banner tone="neutral">No such delivery.</Banner>
      ) : (
        <DeliverySections
          detail={detail.data}
          canReplay={canReplay}
          replay={replay}
          onReplay={onReplay}
        />
      )}
    </DrawerFrame>
  );
}
