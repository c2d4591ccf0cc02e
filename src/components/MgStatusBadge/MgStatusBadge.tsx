import { useState, type FocusEvent } from 'react';
import * as Popover from '@radix-ui/react-popover';
import { mgStatusBadge } from '../../domain/status';
import type { Tone, UserRow } from '../../domain/types';
import { Badge } from '../Badge';
import styles from './MgStatusBadge.module.css';

/** Props of {@link MgStatusBadge}. */
export interface MgStatusBadgeProps {
  /** The user's access fields (§3 User row): mg_status, mg_status_label and expires_at (ISO UTC). */
  row: Pick<UserRow, 'mgStatus' | 'mgStatusLabel' | 'expiresAt'>;
  /** The instant "future expiry" is judged against (§4 Scheduled); defaults to the current time. */
  now?: Date;
}

/**
 * The access (mg_status) pill of a user row (§4), by the shared rule `mgStatusBadge`: the label
 * wins when given; otherwise Scheduled / Active / Cancelled / a dash. The Scheduled pill carries
 * the tooltip 'Scheduled to expire at {time} (UTC)': as a native tooltip on hover, as hidden text
 * for screen readers (inside Badge), and as a visible bubble on keyboard focus or a tap.
 */
export function MgStatusBadge({ row, now }: MgStatusBadgeProps) {
  const badge = mgStatusBadge(row, now ?? new Date());
  if (!badge.title) return <Badge tone={badge.tone}>{badge.text}</Badge>;
  return <BadgeWithTooltip tone={badge.tone} text={badge.text} tooltip={badge.title} />;
}

/** Props of {@link BadgeWithTooltip}. */
interface BadgeWithTooltipProps {
  /** The pill's colour family. */
  tone: Tone;
  /** The pill's text. */
  text: string;
  /** The explanation shown on hover / keyboard focus. */
  tooltip: string;
}

/**
 * A toggletip: the pill is a button whose bubble opens on keyboard focus or on click/tap, and
 * closes on Escape, a second click, or when focus leaves (WCAG 1.4.13). The bubble is aria-hidden
 * because the button's name already carries the same text (Badge's hidden text); mouse users also
 * get the native `title` on hover.
 */
function BadgeWithTooltip({ tone, text, tooltip }: BadgeWithTooltipProps) {
  const [isOpen, setIsOpen] = useState(false);

  function handleFocus(event: FocusEvent<HTMLButtonElement>) {
    // Only keyboard focus opens it; a mouse click toggles it in handleClick.
    if (event.currentTarget.matches(':focus-visible')) setIsOpen(true);
  }

  return (
    <Popover.Root open={isOpen} onOpenChange={setIsOpen}>
      <Popover.Anchor asChild>
        <button
          type="button"
          className={styles.toggletip}
          onFocus={handleFocus}
          onBlur={() => setIsOpen(false)}
          onClick={() => setIsOpen((open) => !open)}
        >
          <Badge tone={tone} title={tooltip}>
            {text}
          </Badge>
        </button>
      </Popover.Anchor>
      <Popover.Portal>
        <Popover.Content
          className={styles.tooltip}
          side="top"
          sideOffset={4}
          aria-hidden
          data-tooltip=""
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          // The pill itself toggles; a click on it is not an "outside" click.
          onPointerDownOutside={(event) => event.preventDefault()}
        >
          {tooltip}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
