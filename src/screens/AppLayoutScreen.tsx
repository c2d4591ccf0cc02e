/**
 * The container of the signed-in shell (§2 Layout, §4 Session, §4 Sound alerts). It decides what
 * AppLayout shows and persists what the operator chooses:
 * - the operator's fixed display name ('Admin') and the product's own sites (Website, Forum) from
 *   the run-time config (src/api/config.ts: the server's SITE_URL and FORUM_URL), each left out
 *   when not configured;
 * - the desktop sidebar's collapsed state, kept in localStorage under mg_sidebar_collapsed;
 * - desktop or mobile shell by the (max-width: 767px) media query; the mobile overlay closes
 *   whenever the location changes;
 * - the sound switch, kept under mg_sound_enabled ('1'/'0', default off); turning it on primes
 *   the alert sounds within the click;
 * - Log out: POST /auth/logout (falling back to POST /logout), then — whatever they answered —
 *   the token is gone, the query cache is cleared, and the operator is at /login.
 * - find anything: the header's search box and command palette (CommandPaletteScreen);
 * - the live stream's header items, when the app passes the stream's view: the state
 *   indicator and the Activity button opening the feed (relative times re-read each minute).
 * After a navigation (not the page's first load or Back/Forward) focus moves to the main region,
 * so keyboard and screen-reader users start at the new screen's content.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import { useLogout } from '../api/auth';
import { getConfig, type AppConfig } from '../api/config';
import { AppLayout, MAIN_CONTENT_ID, type ExternalLink } from '../components/AppLayout';
import { LiveFeedButton } from '../components/LiveFeed';
import { StreamStatus } from '../components/StreamStatus';
import type { LiveEvent, StreamState } from '../domain/live';
import { CommandPaletteScreen } from './CommandPaletteScreen';
import { LOGIN_PATH } from './useLoginRedirect';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from './useMediaQuery';
import { useNow } from './useNow';
import { useOperator } from './useOperator';
import { useSoundSetting } from './useSoundAlerts';
import { useStoredFlag } from './useStoredFlag';

/**
 * The display name shown when the server names no operator (§2 Layout's fixed 'Admin', and the
 * bootstrap operator's name).
 */
export const OPERATOR_NAME = 'Admin';

/**
 * The product's own sites shown after the providers' links (§2 Layout): Website (siteUrl) and
 * Forum (forumUrl) from the run-time config, in that order; an unset one has no link, so the
 * header never offers a dead placeholder.
 */
export function productSiteLinks(config: Pick<AppConfig, 'siteUrl' | 'forumUrl'>): ExternalLink[] {
  const links: ExternalLink[] = [];
  if (config.siteUrl) links.push({ label: 'Website', href: config.siteUrl });
  if (config.forumUrl) links.push({ label: 'Forum', href: config.forumUrl });
  return links;
}

/** localStorage key of the desktop sidebar's collapsed state ('1' collapsed, '0' expanded). */
export const SIDEBAR_COLLAPSED_STORAGE_KEY = 'mg_sidebar_collapsed';

/** The live stream as the header shows it (src/app/useLiveEvents.ts provides it). */
export interface LiveHeaderState {
  /** The stream's state for the indicator. */
  state: StreamState;
  /** The last events, newest first. */
  events: readonly LiveEvent[];
  /** Events that arrived while the feed was closed. */
  unreadCount: number;
  /** Whether the feed is open. */
  isFeedOpen: boolean;
  /** Opens or closes the feed. */
  onFeedOpenChange: (isOpen: boolean) => void;
}

/** Props of {@link AppLayoutScreen}. */
export interface AppLayoutScreenProps {
  /** The routed screen (the app passes its Outlet). */
  children: ReactNode;
  /** The live stream's view; without it the header has no live items. */
  live?: LiveHeaderState;
}

/**
 * Moves focus to the main region after each in-app navigation (PUSH or REPLACE) to a new
 * pathname, including the first screen after sign-in; not on a fresh page load or Back/Forward.
 */
function useFocusMainOnNavigation(pathname: string) {
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === 'POP') return;
    // After this commit's own effects (a closing overlay returns focus to its trigger first).
    const timer = setTimeout(() => {
      document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: false });
    }, 0);
    return () => clearTimeout(timer);
    // Only a change of screen moves focus; query-string changes (filters, paging) do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
}

/** The shell around every guarded route. */
export function AppLayoutScreen({ children, live }: AppLayoutScreenProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const isMobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [isSidebarCollapsed, setSidebarCollapsed] = useStoredFlag(
    SIDEBAR_COLLAPSED_STORAGE_KEY,
    false,
  );
  const [isSoundEnabled, handleSoundToggle] = useSoundSetting();
  // The overlay is open only at the location it was opened at: any navigation closes it.
  const [mobileNavOpenAt, setMobileNavOpenAt] = useState<string | null>(null);
  const logout = useLogout();
  const { operator } = useOperator();
  // The run-time config is fixed for the page's life (it is in place before the app runs).
  const [siteLinks] = useState(() => productSiteLinks(getConfig()));
  const now = useNow();

  useFocusMainOnNavigation(location.pathname);

  function handleMobileNavOpenChange(next: boolean) {
    setMobileNavOpenAt(next ? location.key : null);
  }

  function handleLogout() {
    if (logout.isPending) return;
    // logout() never rejects and clears the token; the hook clears the query cache on settle.
    logout.mutate(undefined, {
      onSettled: () => void navigate(LOGIN_PATH, { replace: true }),
    });
  }

  return (
    <AppLayout
      viewport={isMobile ? 'mobile' : 'desktop'}
      operatorName={operator?.name ?? OPERATOR_NAME}
      siteLinks={siteLinks}
      isSoundEnabled={isSoundEnabled}
      onSoundToggle={handleSoundToggle}
      search={<CommandPaletteScreen isCompact={isMobile} />}
      liveActivity={
        live ? (
          <>
            <StreamStatus state={live.state} isLabelHidden={isMobile} />
            <LiveFeedButton
              events={live.events}
              unreadCount={live.unreadCount}
              isOpen={live.isFeedOpen}
              onOpenChange={live.onFeedOpenChange}
              now={now}
              streamState={live.state}
            />
          </>
        ) : undefined
      }
      onLogout={handleLogout}
      isSidebarCollapsed={isSidebarCollapsed}
      onSidebarCollapsedChange={setSidebarCollapsed}
      isMobileNavOpen={mobileNavOpenAt === location.key}
      onMobileNavOpenChange={handleMobileNavOpenChange}
    >
      {children}
    </AppLayout>
  );
}
