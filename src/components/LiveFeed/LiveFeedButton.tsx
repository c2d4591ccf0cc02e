import { useId, useRef } from 'react';
import type { LiveEvent, StreamState } from '../../domain/live';
import { Button } from '../Button';
import { StreamStateIcon } from '../StreamStatus';
import { LiveFeedPopover } from './LiveFeedPopover';
import styles from './LiveFeedButton.module.css';

/** Props of {@link LiveFeedButton}. All state is controlled by the screen. */
export interface LiveFeedButtonProps {
  /** The last live events, newest first. */
  events: readonly LiveEvent[];
  /** Events that arrived since the feed was last open (0 hides the count). */
  unreadCount: number;
  /** Whether the feed is open. */
  isOpen: boolean;
  /** Called with the next open state: the button, Escape, a click outside, or 'Close'. */
  onOpenChange: (isOpen: boolean) => void;
  /** The instant relative times are measured from. */
  now: Date;
  /**
   * The live stream's state. When given, the button also carries the state's icon, hidden until a
   * container shows it (`data-part="stream-icon"`) in place of the pulse icon (`data-part="feed-icon"`),
   * e.g. in a narrow header that folds the stream indicator into this button.
   */
  streamState?: StreamState;
}

/** The button's accessible name: 'Live activity', or 'Live activity, 3 unread'. */
export function liveFeedButtonName(unreadCount: number): string {
  return unreadCount > 0 ? `Live activity, ${unreadCount} unread` : 'Live activity';
}

/**
 * The header's way to the live activity feed: an icon button named (and titled) 'Live activity'
 * (plus ', N unread' when events arrived since it was last opened, also shown as a count) that
 * opens a popover dialog 'Live activity' with the {@link LiveFeed}. The dialog closes on the
 * button, Escape, a click outside or its Close button, and focus returns to the button (but for a
 * click outside, which leaves it where it went).
 */
export function LiveFeedButton({
  events,
  unreadCount,
  isOpen,
  onOpenChange,
  now,
  streamState,
}: LiveFeedButtonProps) {
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const hasUnread = unreadCount > 0;
  return (
    <>
      <Button
        ref={buttonRef}
        variant="ghost"
        className={styles.trigger}
        aria-label={liveFeedButtonName(unreadCount)}
        aria-haspopup="dialog"
        aria-expanded={isOpen}
        aria-controls={isOpen ? panelId : undefined}
        data-unread={hasUnread ? '' : undefined}
        data-stream-state={streamState}
        title={liveFeedButtonName(unreadCount)}
        onClick={() => onOpenChange(!isOpen)}
      >
        <ActivityIcon className={styles.icon} part="feed-icon" />
        {streamState ? (
          <StreamStateIcon state={streamState} className={styles.stateIcon} part="stream-icon" />
        ) : null}
        {hasUnread ? <span className={styles.count}>{unreadCount}</span> : null}
      </Button>
      <LiveFeedPopover
        id={panelId}
        anchorRef={buttonRef}
        events={events}
        isOpen={isOpen}
        onOpenChange={onOpenChange}
        now={now}
      />
    </>
  );
}

/** A pulse line: live activity. Decorative. */
function ActivityIcon({ className, part }: { className?: string; part?: string }) {
  return (
    <svg
      className={className}
      data-part={part}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M22 12h-4l-3 9L9 3l-3 9H2" />
    </svg>
  );
}
