/**
 * The 'Live activity' popover that LiveFeedButton opens: Radix Popover, anchored to the button,
 * positioned by Floating UI.
 */
import { useId, useRef, type RefObject } from 'react';
import * as Popover from '@radix-ui/react-popover';
import type { LiveEvent } from '../../domain/live';
import { CloseIcon } from '../AppLayout/icons';
import { Button } from '../Button';
import { LiveFeed } from './LiveFeed';
import styles from './LiveFeedButton.module.css';

/** Props of {@link LiveFeedPopover}. */
export interface LiveFeedPopoverProps {
  /** The panel's element id (the button's aria-controls). */
  id: string;
  /** The button the panel is placed against, which gets focus back when it closes (not on a click elsewhere). */
  anchorRef: RefObject<HTMLElement | null>;
  /** The last live events, newest first. */
  events: readonly LiveEvent[];
  /** Whether the panel is open. */
  isOpen: boolean;
  /** Called with false on Escape, a click outside (the button excepted: it toggles) or 'Close'. */
  onOpenChange: (isOpen: boolean) => void;
  /** The instant relative times are measured from. */
  now: Date;
}

/**
 * A non-modal dialog 'Live activity' below the button, right-aligned, holding the {@link LiveFeed}
 * in a scrolling region; focus moves into it when it opens.
 */
export function LiveFeedPopover({
  id,
  anchorRef,
  events,
  isOpen,
  onOpenChange,
  now,
}: LiveFeedPopoverProps) {
  const titleId = useId();
  // A click elsewhere closes the panel and leaves focus where it went, as Radix does for a trigger.
  const closedFromOutside = useRef(false);
  return (
    <Popover.Root open={isOpen} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchorRef as RefObject<HTMLElement>} />
      <Popover.Portal>
        <Popover.Content
          id={id}
          className={styles.panel}
          align="end"
          sideOffset={6}
          collisionPadding={8}
          aria-labelledby={titleId}
          onOpenAutoFocus={() => {
            closedFromOutside.current = false;
          }}
          onInteractOutside={(event) => {
            // The button is not a Popover.Trigger: its own click toggles the panel.
            if (anchorRef.current?.contains(event.target as Node)) event.preventDefault();
            else closedFromOutside.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!closedFromOutside.current) anchorRef.current?.focus();
          }}
        >
          <div className={styles.panelHeader}>
            <h2 className={styles.panelTitle} id={titleId}>
              Live activity
            </h2>
            <Popover.Close asChild>
              <Button variant="ghost" size="small" className={styles.close} aria-label="Close">
                <CloseIcon className={styles.closeIcon} />
              </Button>
            </Popover.Close>
          </div>
          {/* Scrolls when long; focusable so keyboard users can scroll it. */}
          <div
            className={styles.scroller}
            tabIndex={events.length > 0 ? 0 : undefined}
            role={events.length > 0 ? 'region' : undefined}
            aria-labelledby={events.length > 0 ? titleId : undefined}
          >
            <LiveFeed events={events} now={now} />
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
