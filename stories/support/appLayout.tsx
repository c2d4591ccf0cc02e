/**
 * The shell's story harness, shared by the Layout/AppLayout states and the Flows/AppLayoutNavigation
 * journeys: a memory router with stand-in pages, a stateful wrapper that plays the screen's part,
 * device-sized frames, and the assertions both use.
 */
import type { Decorator } from '@storybook/react-vite';
import { expect, fn, within } from 'storybook/test';
import { useState, type CSSProperties } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppLayout, MAIN_NAV, type AppLayoutProps } from '../../src/components/AppLayout';
import { DashboardView } from '../../src/components/DashboardView';
import { LiveFeedButton } from '../../src/components/LiveFeed';
import { SettingsView } from '../../src/components/SettingsView';
import { StreamStatus } from '../../src/components/StreamStatus';
import type { StreamState } from '../../src/domain/live';
import type { DashboardStats } from '../../src/domain/types';
import { FIXTURE_NOW } from '../../tests/msw/fixtures';
import { LIVE_MESSAGES_EACH_TYPE } from '../../tests/msw/fixtures-live';
import { liveEvents } from './liveEvents';

/** Dashboard figures for the page behind the shell. */
const stats: DashboardStats = {
  currency: 'USD',
  mrrCents: 1_234_567,
  arrCents: 14_814_804,
  activeTotal: 1_204,
  activeMonthly: 980,
  activeYearly: 224,
  scheduledCancellations: 37,
  avgDaysRemaining: 18.46,
  newToday: 3,
  renewalsToday: 11,
  cancellationsToday: 1,
  totalSubscribers: 5_321,
  totalRevenueCents: 98_765_432,
};

/** Stand-in for the routed screens: the real view for / and /settings, a titled page otherwise. */
function RoutedPage() {
  const { pathname } = useLocation();
  if (pathname === '/') return <DashboardView state={{ status: 'ready', data: stats }} />;
  if (pathname === '/settings') return <SettingsView />;
  const entry = MAIN_NAV.find((item) => item.to === pathname);
  return <h1 style={{ margin: 0, fontSize: 'var(--font-size-4)' }}>{entry?.label ?? pathname}</h1>;
}

/** Props of {@link LiveHeaderItems}. */
export interface LiveHeaderItemsProps {
  /** The stream's state (default 'connected'). */
  state?: StreamState;
  /** Unread events (default 2). */
  unreadCount?: number;
  /** Whether the feed starts open. */
  isOpen?: boolean;
  /** Compact (mobile): icon-only, names as tooltips. */
  isCompact?: boolean;
}

/**
 * The header's live items as the shell screen composes them (stream indicator + Activity button),
 * with the feed's open state held here: opening it marks everything read.
 */
export function LiveHeaderItems({
  state = 'connected',
  unreadCount = 2,
  isOpen = false,
  isCompact = false,
}: LiveHeaderItemsProps) {
  const [open, setOpen] = useState(isOpen);
  const [unread, setUnread] = useState(isOpen ? 0 : unreadCount);
  return (
    <>
      <StreamStatus state={state} isLabelHidden={isCompact} />
      <LiveFeedButton
        events={liveEvents(LIVE_MESSAGES_EACH_TYPE)}
        unreadCount={unread}
        isOpen={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setUnread(0);
        }}
        now={new Date(FIXTURE_NOW)}
        streamState={state}
      />
    </>
  );
}

/**
 * Plays the screen's part: holds the controlled state, seeded from the story's args, and reports
 * every change to the args' spies, so focus movement and navigation can be exercised for real.
 */
export function LayoutHarness(args: AppLayoutProps) {
  const [isSidebarCollapsed, setSidebarCollapsed] = useState(args.isSidebarCollapsed);
  const [isMobileNavOpen, setMobileNavOpen] = useState(args.isMobileNavOpen);
  const [isSoundEnabled, setSoundEnabled] = useState(args.isSoundEnabled);
  return (
    <AppLayout
      {...args}
      isSidebarCollapsed={isSidebarCollapsed}
      onSidebarCollapsedChange={(next) => {
        args.onSidebarCollapsedChange(next);
        setSidebarCollapsed(next);
      }}
      isMobileNavOpen={isMobileNavOpen}
      onMobileNavOpenChange={(next) => {
        args.onMobileNavOpenChange(next);
        setMobileNavOpen(next);
      }}
      isSoundEnabled={isSoundEnabled}
      onSoundToggle={(next) => {
        args.onSoundToggle(next);
        setSoundEnabled(next);
      }}
    />
  );
}

/**
 * A device-sized frame (`parameters.frameWidth` px wide, full height); its transform makes it the
 * containing block of the fixed overlay.
 */
const deviceFrame = (width: number): CSSProperties => ({
  width,
  height: '100vh',
  margin: '0 auto',
  overflow: 'hidden',
  transform: 'translateZ(0)',
  borderInline: '1px solid var(--color-border)',
});

/** A common phone width (CSS px). */
export const PHONE_WIDTH = 390;
/** The narrowest desktop the screen's media query allows (below it the shell is mobile). */
export const NARROW_DESKTOP_WIDTH = 768;

const SIDEBAR_LABELS = [
  'Dashboard',
  'Metrics',
  'Revenue',
  'Users',
  'Subscriptions',
  'Integrated Tracking',
  'Webhooks',
  'Logs',
  'Audit',
  'Settings',
  'Maintenance',
];
const SIDEBAR_ROUTES = [
  '/',
  '/metrics',
  '/revenue',
  '/users',
  '/subscriptions',
  '/isr',
  '/webhooks',
  '/logs',
  '/audit',
  '/settings',
  '/maintenance',
];
const EXTERNAL_LINKS = [
  ['LemonSqueezy', 'https://app.lemonsqueezy.com'],
  ['ClickBank', 'https://accounts.clickbank.com'],
  ['Website', 'https://example.com'],
  ['Forum', 'https://forum.example.com'],
] as const;

/** Asserts the eight §2 entries in order, their routes, and that only `current` is the current page. */
export async function expectMainNav(scope: HTMLElement, current: string) {
  const nav = within(scope).getByRole('navigation', { name: 'Main' });
  const links = within(nav).getAllByRole('link');
  await expect(links.map((link) => link.textContent)).toEqual(SIDEBAR_LABELS);
  await expect(links.map((link) => link.getAttribute('href'))).toEqual(SIDEBAR_ROUTES);
  for (const link of links) {
    await expect(link).toHaveAccessibleName(link.textContent ?? '');
    if (link.textContent === current) await expect(link).toHaveAttribute('aria-current', 'page');
    else await expect(link).not.toHaveAttribute('aria-current');
  }
}

/** Asserts the provider and site links: names with the new-tab hint, URLs, target and rel. */
export async function expectExternalLinks(scope: HTMLElement) {
  const nav = within(scope).getByRole('navigation', { name: 'External links' });
  const links = within(nav).getAllByRole('link');
  await expect(links).toHaveLength(EXTERNAL_LINKS.length);
  for (const [index, [label, href]] of EXTERNAL_LINKS.entries()) {
    const link = links[index];
    await expect(link).toHaveAccessibleName(`${label} (opens in a new tab)`);
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  }
}

/**
 * Asserts the header fits its width: nothing scrolls sideways and its visible items, in reading
 * order, never overlap (menu button, brand, external links, live status, Activity, sound switch,
 * avatar, name, Log out).
 */
export async function expectHeaderFits(header: HTMLElement, operatorName: string) {
  await expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth);
  const scope = within(header);
  const name = scope.getByText(operatorName);
  const items = [
    scope.queryByRole('button', { name: 'Open menu', hidden: true }),
    scope.getByText('MG Admin Console').parentElement,
    ...scope.queryAllByRole('link'),
    scope.queryByRole('status', { name: /^Live updates: /, hidden: true }),
    scope.queryByRole('button', { name: /^Live activity/, hidden: true }),
    scope.getByRole('switch', { name: 'Sound alerts', hidden: true }),
    scope.getByText(operatorName.trim().charAt(0).toUpperCase(), {
      selector: '[aria-hidden="true"]',
    }),
    name,
    scope.getByRole('button', { name: 'Log out', hidden: true }),
  ].filter((item): item is HTMLElement => item != null);
  // Visually hidden items (1 px, clipped) take no room and are skipped.
  const boxes = items.map((item) => item.getBoundingClientRect()).filter((box) => box.width > 1);
  for (const [index, box] of boxes.entries()) {
    const previous = boxes[index - 1];
    if (previous) await expect(box.left).toBeGreaterThanOrEqual(previous.right - 0.5);
  }
}

/** Story parameters read by {@link withLayoutRouter}. */
export interface LayoutParameters {
  /** The location the shell opens at (default '/'). */
  route?: string;
  /** Width in CSS px of a device frame around the shell; full width when absent. */
  frameWidth?: number;
}

/** Renders the story in a memory router at `parameters.route`, framed when `frameWidth` is set. */
export const withLayoutRouter: Decorator = (Story, { parameters }) => {
  const { route = '/', frameWidth } = parameters as LayoutParameters;
  return (
    <MemoryRouter initialEntries={[route]}>
      {typeof frameWidth === 'number' ? (
        <div style={deviceFrame(frameWidth)}>
          <Story />
        </div>
      ) : (
        <Story />
      )}
    </MemoryRouter>
  );
};

/** The shell's default args: desktop, expanded, sound on, operator 'Admin', spies for every event. */
export function appLayoutArgs(): AppLayoutProps {
  return {
    viewport: 'desktop',
    operatorName: 'Admin',
    siteLinks: [
      { label: 'Website', href: 'https://example.com' },
      { label: 'Forum', href: 'https://forum.example.com' },
    ],
    isSoundEnabled: true,
    isSidebarCollapsed: false,
    isMobileNavOpen: false,
    liveActivity: <LiveHeaderItems />,
    children: <RoutedPage />,
    onSoundToggle: fn(),
    onLogout: fn(),
    onSidebarCollapsedChange: fn(),
    onMobileNavOpenChange: fn(),
  };
}
