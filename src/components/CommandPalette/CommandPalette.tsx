import { useRef } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Command } from 'cmdk';
import { groupSearchResults, SEARCH_MAX_LENGTH, type SearchResult } from '../../domain/customer';
import type { AsyncState } from '../../domain/types';
import styles from './CommandPalette.module.css';

/** Props of {@link CommandPalette}. */
export interface CommandPaletteProps {
  /** Whether the palette is open (the screen opens it from the trigger, Ctrl/Cmd+K or '/'). */
  isOpen: boolean;
  /** Called with false on Escape, a click outside or a chosen result; true from the trigger. */
  onOpenChange: (isOpen: boolean) => void;
  /** What is typed. */
  query: string;
  /** Each keystroke's text (the screen debounces the search). */
  onQueryChange: (query: string) => void;
  /**
   * The results for the last searched text, best first: loading (first search), error (its
   * message), empty (no match) or ready. Ignored while `query` is blank.
   */
  results: AsyncState<readonly SearchResult[]>;
  /** A newer search is running while the last results stay on screen. */
  isSearching?: boolean;
  /** A result was chosen (Enter or a click): the screen goes to its href. */
  onSelect: (result: SearchResult) => void;
  /** The shortcut as the platform spells it, shown on the trigger: 'Ctrl K' or '⌘ K'. */
  shortcutLabel?: string;
  /** The trigger hides its text on narrow headers; its name stays for assistive technology. */
  isTriggerCompact?: boolean;
}

/** The search glyph (decorative). */
function SearchIcon() {
  return (
    <svg
      className={styles.icon}
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
      <path d="M10.5 10.5 14 14" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
    </svg>
  );
}

/** The line under a result: its email when that is not the label, and what matched. */
function resultHint(result: SearchResult): string | null {
  const parts: string[] = [];
  if (result.email && result.email !== result.label) parts.push(result.email);
  if (result.match && result.match !== result.label && result.match !== result.email)
    parts.push(`matched ${result.match}`);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/**
 * Find anything (docs/api.md "Search"): the header's search box, which opens a command palette
 * (a combobox in a modal dialog, cmdk on Radix Dialog). Results come grouped by kind in the
 * server's rank order (an exact id first, then an email prefix, then a name); arrow keys move,
 * Enter opens, Escape closes, and focus returns to where it was. Pure: the screen searches.
 */
export function CommandPalette({
  isOpen,
  onOpenChange,
  query,
  onQueryChange,
  results,
  isSearching = false,
  onSelect,
  shortcutLabel = 'Ctrl K',
  isTriggerCompact = false,
}: CommandPaletteProps) {
  // Where focus was when the palette opened (the trigger, or anywhere for the shortcut).
  const returnFocusRef = useRef<HTMLElement | null>(null);
  const isBlank = query.trim() === '';
  const groups = results.status === 'ready' ? groupSearchResults(results.data) : [];
  let announcement = '';
  if (!isBlank && results.status === 'ready')
    announcement = `${results.data.length} ${results.data.length === 1 ? 'result' : 'results'}`;
  else if (!isBlank && results.status === 'empty') announcement = 'No matches';

  return (
    <Dialog.Root
      open={isOpen}
      onOpenChange={(next) => {
        if (next) returnFocusRef.current = document.activeElement as HTMLElement | null;
        onOpenChange(next);
      }}
    >
      <Dialog.Trigger className={styles.trigger} aria-keyshortcuts="Control+K Meta+K /">
        <SearchIcon />
        <span className={isTriggerCompact ? 'visually-hidden' : styles.triggerText}>Search…</span>
        {isTriggerCompact ? null : (
          <kbd className={styles.kbd} aria-hidden="true">
            {shortcutLabel}
          </kbd>
        )}
        <span className="visually-hidden"> customers, ids, receipts and screens</span>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          aria-describedby={undefined}
          onOpenAutoFocus={() => {
            // The shortcut opens it without the trigger: remember where focus was.
            if (!returnFocusRef.current || returnFocusRef.current === document.body)
              returnFocusRef.current = document.activeElement as HTMLElement | null;
          }}
          onCloseAutoFocus={(event) => {
            const target = returnFocusRef.current;
            returnFocusRef.current = null;
            if (target && target.isConnected && target !== document.body) {
              event.preventDefault();
              target.focus();
            }
          }}
        >
          <Dialog.Title className="visually-hidden">Find anything</Dialog.Title>
          <Command
            label="Search customers, ids, receipts and screens"
            shouldFilter={false}
            loop
            className={styles.command}
          >
            <div className={styles.inputRow}>
              <SearchIcon />
              <Command.Input
                className={styles.input}
                value={query}
                onValueChange={onQueryChange}
                maxLength={SEARCH_MAX_LENGTH}
                placeholder="Email, name, subscription id, receipt, affiliate or screen"
              />
              <kbd className={styles.kbd} aria-hidden="true">
                Esc
              </kbd>
            </div>
            {isBlank ? (
              <p className={styles.hint}>
                Type an email, a name, a subscription or order id, a ClickBank receipt, an affiliate
                or a screen&apos;s name.
              </p>
            ) : results.status === 'loading' ? (
              <p className={styles.hint}>Searching…</p>
            ) : results.status === 'error' ? (
              <p role="alert" className={styles.error}>
                {results.message}
              </p>
            ) : results.status === 'empty' ? (
              <p className={styles.hint}>No matches for “{query.trim()}”.</p>
            ) : null}
            {/* The listbox holds only options (in groups); the messages above sit outside it. */}
            <Command.List
              className={groups.length > 0 ? styles.list : 'visually-hidden'}
              aria-busy={isSearching || undefined}
            >
              {groups.map((group) => (
                <Command.Group key={group.kind} heading={group.label} className={styles.group}>
                  {group.results.map((result) => {
                    const hint = resultHint(result);
                    return (
                      <Command.Item
                        key={`${result.kind} ${result.href} ${result.match}`}
                        value={`${result.kind} ${result.href} ${result.match}`}
                        className={styles.item}
                        onSelect={() => onSelect(result)}
                      >
                        <span className={styles.label}>{result.label}</span>
                        {hint ? <span className={styles.itemHint}>{hint}</span> : null}
                      </Command.Item>
                    );
                  })}
                </Command.Group>
              ))}
            </Command.List>
          </Command>
          <p role="status" className="visually-hidden">
            {announcement}
          </p>
          <p className={styles.footer} aria-hidden="true">
            <kbd className={styles.kbd}>↑</kbd> <kbd className={styles.kbd}>↓</kbd> to move ·{' '}
            <kbd className={styles.kbd}>Enter</kbd> to open
          </p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
