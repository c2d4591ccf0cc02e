import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { useState, type CSSProperties } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { AppLayout, MAIN_NAV, type AppLayoutProps } from '../../src/components/AppLayout';
import { DashboardView } from '../../src/components/DashboardView';
import { SettingsView } from '../../src/components/SettingsView';
import type { DashboardStats } from '../../src/domain/types';

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

/**
 * Plays the screen's part: holds the controlled state, seeded from the story's args, and reports
 * every change to the args' spies, so focus movement and navigation can be exercised for real.
 */
function LayoutHarness(args: AppLayoutProps) {
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
const PHONE_WIDTH = 390;
/** The narrowest desktop the screen's media query allows (below it the shell is mobile). */
const NARROW_DESKTOP_WIDTH = 768;

const SIDEBAR_LABELS = [
  'Dashboard',
  'Metrics',
  'Users',
  'Subscriptions',
  'Integrated Tracking',
  'Logs',
  'Settings',
  'Maintenance',
];
const SIDEBAR_ROUTES = [
  '/',
  '/metrics',
  '/users',
  '/subscriptions',
  '/isr',
  '/logs',
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
async function expectMainNav(scope: HTMLElement, current: string) {
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
async function expectExternalLinks(scope: HTMLElement) {
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
 * order, never overlap (menu button, brand, external links, sound switch, avatar, name, Log out).
 */
async function expectHeaderFits(header: HTMLElement, operatorName: string) {
  await expect(header.scrollWidth).toBeLessThanOrEqual(header.clientWidth);
  const scope = within(header);
  const name = scope.getByText(operatorName);
  const items = [
    scope.queryByRole('button', { name: 'Open menu', hidden: true }),
    scope.getByText('MG Admin Console').parentElement,
    ...scope.queryAllByRole('link'),
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

const meta = {
  title: 'Components/AppLayout',
  component: AppLayout,
  parameters: { layout: 'fullscreen', route: '/' },
  decorators: [
    (Story, { parameters }) => (
      <MemoryRouter initialEntries={[String(parameters.route ?? '/')]}>
        {typeof parameters.frameWidth === 'number' ? (
          <div style={deviceFrame(parameters.frameWidth)}>
            <Story />
          </div>
        ) : (
          <Story />
        )}
      </MemoryRouter>
    ),
  ],
  render: (args) => <LayoutHarness {...args} />,
  args: {
    viewport: 'desktop',
    operatorName: 'Admin',
    siteLinks: [
      { label: 'Website', href: 'https://example.com' },
      { label: 'Forum', href: 'https://forum.example.com' },
    ],
    isSoundEnabled: true,
    isSidebarCollapsed: false,
    isMobileNavOpen: false,
    children: <RoutedPage />,
    onSoundToggle: fn(),
    onLogout: fn(),
    onSidebarCollapsedChange: fn(),
    onMobileNavOpenChange: fn(),
  },
} satisfies Meta<typeof AppLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Desktop, sidebar expanded, on the dashboard. */
export const Expanded: Story = {
  play: async ({ canvasElement, canvas, args }) => {
    // The skip link is the first stop and targets the main landmark.
    await userEvent.tab();
    const skip = canvas.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toHaveFocus();
    const main = canvas.getByRole('main');
    await expect(skip).toHaveAttribute('href', `#${main.id}`);

    const header = canvas.getByRole('banner');
    await expect(header).toHaveTextContent('MG Admin Console');
    await expect(header).toHaveTextContent('v0.0.1');
    await expect(within(header).getByText('Admin')).toBeVisible();
    await expectExternalLinks(header);
    await expectHeaderFits(header, 'Admin');
    await expectMainNav(canvasElement, 'Dashboard');
    await expect(within(main).getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    const collapse = canvas.getByRole('button', { name: 'Collapse' });
    await expect(collapse).toHaveAttribute('aria-expanded', 'true');
    const controlled = canvasElement.ownerDocument.getElementById(
      collapse.getAttribute('aria-controls') ?? '',
    );
    await expect(controlled).toContainElement(canvas.getByRole('navigation', { name: 'Main' }));

    await userEvent.click(collapse);
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(true);
    const expand = canvas.getByRole('button', { name: 'Expand' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await expectMainNav(canvasElement, 'Dashboard');
    await userEvent.click(expand);
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(false);
    await expect(args.onSidebarCollapsedChange).toHaveBeenCalledTimes(2);

    await userEvent.click(canvas.getByRole('button', { name: 'Log out' }));
    await expect(args.onLogout).toHaveBeenCalledOnce();

    // Navigating marks the new entry current.
    await userEvent.click(canvas.getByRole('link', { name: 'Users' }));
    await expectMainNav(canvasElement, 'Users');
    await userEvent.click(canvas.getByRole('link', { name: 'Dashboard' }));
    await expectMainNav(canvasElement, 'Dashboard');
    await expect(args.onMobileNavOpenChange).not.toHaveBeenCalled();
  },
};

/** Desktop, sidebar collapsed to icons; names stay for assistive technology and as tooltips. */
export const Collapsed: Story = {
  args: { ...Expanded.args, isSidebarCollapsed: true },
  parameters: { route: '/users' },
  play: async ({ canvasElement, canvas, args }) => {
    await expectMainNav(canvasElement, 'Users');
    const nav = canvas.getByRole('navigation', { name: 'Main' });
    for (const link of within(nav).getAllByRole('link')) {
      await expect(link).toHaveAttribute('title', link.textContent ?? '');
      await expect(within(link).getByText(link.textContent ?? '')).toHaveClass('visually-hidden');
    }
    const expand = canvas.getByRole('button', { name: 'Expand' });
    await expect(expand).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(expand);
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(false);
    await expect(within(nav).getByText('Users')).not.toHaveClass('visually-hidden');
    await userEvent.click(canvas.getByRole('button', { name: 'Collapse' }));
    await expect(args.onSidebarCollapsedChange).toHaveBeenLastCalledWith(true);
    await expect(canvas.getByRole('button', { name: 'Expand' })).toBeVisible();
  },
};

/** Mobile with the menu closed: the header keeps the essentials; the menu button opens the overlay. */
export const MobileClosed: Story = {
  args: { ...Expanded.args, viewport: 'mobile' },
  parameters: { route: '/metrics', frameWidth: PHONE_WIDTH },
  play: async ({ canvasElement, canvas, args }) => {
    await expect(canvas.queryByRole('navigation', { name: 'Main' })).toBeNull();
    await expect(canvas.queryByRole('button', { name: 'Collapse' })).toBeNull();
    const header = canvas.getByRole('banner');
    await expect(header).toHaveTextContent('MG Admin Console');
    await expect(header).toHaveTextContent('v0.0.1');
    await expect(within(header).getByRole('switch', { name: 'Sound alerts' })).toBeVisible();
    await expect(within(header).queryAllByRole('link')).toHaveLength(0);
    await expectHeaderFits(header, 'Admin');
    await userEvent.click(within(header).getByRole('button', { name: 'Log out' }));
    await expect(args.onLogout).toHaveBeenCalledOnce();

    const menuButton = canvas.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(menuButton);
    await expect(args.onMobileNavOpenChange).toHaveBeenLastCalledWith(true);
    const dialog = await canvas.findByRole('dialog', { name: 'MG Admin Console' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() =>
      expect(dialog).toContainElement(canvasElement.ownerDocument.activeElement as HTMLElement),
    );
    await expectMainNav(dialog, 'Metrics');

    await userEvent.keyboard('{Escape}');
    await expect(args.onMobileNavOpenChange).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(menuButton).toHaveFocus());
    await expect(args.onSidebarCollapsedChange).not.toHaveBeenCalled();
  },
};

/** Mobile with the overlay open; it closes by its button, the backdrop and on navigation. */
export const MobileOpen: Story = {
  args: { ...Expanded.args, viewport: 'mobile', isMobileNavOpen: true },
  parameters: { route: '/subscriptions', frameWidth: PHONE_WIDTH },
  play: async ({ canvas, args }) => {
    const spy = args.onMobileNavOpenChange;
    // While the modal overlay is open, the rest of the page is hidden from assistive technology.
    const menuButton = canvas.getByRole('button', { name: 'Open menu', hidden: true });
    await expect(canvas.queryByRole('button', { name: 'Open menu' })).toBeNull();
    let dialog = await canvas.findByRole('dialog', { name: 'MG Admin Console' });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Close menu' })).toHaveFocus(),
    );
    await expectMainNav(dialog, 'Subscriptions');
    await expectExternalLinks(dialog);

    // Close button, focus back on the menu button.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close menu' }));
    await expect(spy).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(menuButton).toHaveFocus());

    // Backdrop.
    await userEvent.click(menuButton);
    await expect(spy).toHaveBeenLastCalledWith(true);
    await canvas.findByRole('dialog');
    await userEvent.click(canvas.getByTestId('mobile-nav-backdrop'));
    await expect(spy).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());

    // Navigation closes the overlay and shows the chosen screen.
    await userEvent.click(menuButton);
    dialog = await canvas.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('link', { name: 'Logs' }));
    await expect(spy).toHaveBeenLastCalledWith(false);
    await waitFor(() => expect(canvas.queryByRole('dialog')).toBeNull());
    await expect(
      within(canvas.getByRole('main')).getByRole('heading', { level: 1, name: 'Logs' }),
    ).toBeVisible();
    await waitFor(() => expect(menuButton).toHaveFocus());

    // Reopened, the overlay marks the new route current (and stays open for the screenshot).
    await userEvent.click(menuButton);
    dialog = await canvas.findByRole('dialog');
    await expectMainNav(dialog, 'Logs');
    await expect(spy).toHaveBeenCalledTimes(6);
  },
};

/** The header's sound switch, on. */
export const SoundOn: Story = {
  args: { ...Expanded.args, isSoundEnabled: true },
  play: async ({ canvas, args }) => {
    const toggle = within(canvas.getByRole('banner')).getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(false);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(true);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
  },
};

/** The header's sound switch, off. */
export const SoundOff: Story = {
  args: { ...Expanded.args, isSoundEnabled: false },
  play: async ({ canvas, args }) => {
    const toggle = within(canvas.getByRole('banner')).getByRole('switch', { name: 'Sound alerts' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(true);
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    await expect(args.onSoundToggle).toHaveBeenLastCalledWith(false);
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  },
};

/** A long operator name is truncated with a tooltip and never pushes the header out of the viewport. */
export const LongOperatorName: Story = {
  args: { ...Expanded.args, operatorName: 'Maximiliane Alexandra Fitzgerald-Montgomery' },
  play: async ({ canvas }) => {
    const header = canvas.getByRole('banner');
    const name = within(header).getByText('Maximiliane Alexandra Fitzgerald-Montgomery');
    // Truncated on screen, complete as the operator's tooltip and for assistive technology.
    await expect(name.parentElement).toHaveAttribute(
      'title',
      'Maximiliane Alexandra Fitzgerald-Montgomery',
    );
    await expect(name.scrollWidth).toBeGreaterThan(name.clientWidth);
    await expect(within(header).getByText('M')).toHaveAttribute('aria-hidden', 'true');
    await expectHeaderFits(header, 'Maximiliane Alexandra Fitzgerald-Montgomery');
    await expect(within(header).getByRole('button', { name: 'Log out' })).toBeVisible();
  },
};

/** The narrowest desktop (768 px, a portrait tablet): the header still fits without overlap. */
export const NarrowDesktop: Story = {
  args: { ...Expanded.args, isSoundEnabled: false },
  parameters: { route: '/settings', frameWidth: NARROW_DESKTOP_WIDTH },
  play: async ({ canvasElement, canvas }) => {
    const header = canvas.getByRole('banner');
    await expectHeaderFits(header, 'Admin');
    await expectExternalLinks(header);
    // The name and the switch's text step back visually; their accessible names stay.
    await expect(within(header).getByText('Admin').parentElement).toHaveAttribute('title', 'Admin');
    await expect(
      within(header).getByText('Admin').getBoundingClientRect().width,
    ).toBeLessThanOrEqual(1);
    await expect(within(header).getByRole('switch', { name: 'Sound alerts' })).toBeVisible();
    await expect(within(header).getByRole('button', { name: 'Log out' })).toBeVisible();
    await expectMainNav(canvasElement, 'Settings');
    await expect(canvas.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  },
};
