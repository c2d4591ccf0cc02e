/**
 * Find anything (docs/api.md "Search"): the header's search box and its command palette. It
 * opens from the box, on Ctrl/Cmd+K anywhere, and on '/' outside a text field; the typed text is
 * searched SEARCH_DEBOUNCE_MS after the last keystroke (one request per pause, earlier ones
 * aborted), the last results stay while the next load, and a chosen result's page opens.
 */
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { searchErrorMessage, searchQueryOptions } from '../api/customers';
import { CommandPalette } from '../components/CommandPalette';
import { SEARCH_DEBOUNCE_MS, type SearchResult } from '../domain/customer';
import type { AsyncState } from '../domain/types';

/** Whether a key event comes from somewhere that takes text ('/' types there, not opens). */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(
    type,
  );
}

/** Whether the operator's platform spells the shortcut with ⌘. */
function isApplePlatform(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);
}

/** Props of {@link CommandPaletteScreen}. */
export interface CommandPaletteScreenProps {
  /** The trigger shows only its icon (the mobile header). */
  isCompact?: boolean;
}

/** The header's find-anything box and palette, wired to GET /search and the router. */
export function CommandPaletteScreen({ isCompact = false }: CommandPaletteScreenProps) {
  const navigate = useNavigate();
  const [isOpen, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState('');
  const trimmed = query.trim();

  useEffect(() => {
    const timer = setTimeout(() => setSearched(trimmed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [trimmed]);

  useEffect(() => {
    function handleKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey) return;
      const isShortcut =
        (event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'k';
      const isSlash =
        event.key === '/' && !event.ctrlKey && !event.metaKey && !isTypingTarget(event.target);
      if (!isShortcut && !isSlash) return;
      event.preventDefault();
      setOpen(true);
    }
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
  }, []);

  const search = useQuery({ ...searchQueryOptions(searched), enabled: isOpen && searched !== '' });

  let results: AsyncState<readonly SearchResult[]>;
  if (search.isError) results = { status: 'error', message: searchErrorMessage(search.error) };
  else if (!search.data) results = { status: 'loading' };
  else if (search.data.length === 0) results = { status: 'empty' };
  else results = { status: 'ready', data: search.data };

  function handleOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setQuery('');
      setSearched('');
    }
  }

  function handleSelect(result: SearchResult) {
    handleOpenChange(false);
    void navigate(result.href);
  }

  return (
    <CommandPalette
      isOpen={isOpen}
      onOpenChange={handleOpenChange}
      query={query}
      onQueryChange={setQuery}
      results={results}
      isSearching={searched !== trimmed || search.isFetching}
      onSelect={handleSelect}
      shortcutLabel={isApplePlatform() ? '⌘ K' : 'Ctrl K'}
      isTriggerCompact={isCompact}
    />
  );
}
