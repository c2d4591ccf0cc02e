import { useId, useRef, type ComponentType, type ReactNode, type SVGProps } from 'react';
import { NavLink } from 'react-router-dom';
import { Button } from '../Button';
import { SoundToggle } from '../SoundToggle';
import { PRODUCT_TITLE, PROVIDER_LINKS, VERSION_LABEL, type ExternalLink } from './brand';
import {
  AuditIcon,
  CollapseIcon,
  DashboardIcon,
  ExternalIcon,
  LogoutIcon,
  LogsIcon,
  MaintenanceIcon,
  MenuIcon,
  MetricsIcon,
  RevenueIcon,
  SettingsIcon,
  SubscriptionsIcon,
  TrackingIcon,
  UsersIcon,
  WebhooksIcon,
} from './icons';
import { MobileNavDialog } from './MobileNavDialog';
import styles from './AppLayout.module.css';

/** Which shell the screen edge chose with a media query: a collapsible sidebar, or an overlay menu. */
export type LayoutViewport = 'desktop' | 'mobile';

/** One sidebar entry (§2 Layout): a route relative to the router's basename and its label. */
export interface MainNavEntry {
  /** Route under the basename (/admin), e.g. '/users'. */
  to: string;
  /** Visible label, also the link's accessible name when the sidebar is collapsed. */
  label: string;
  /** Decorative icon shown beside the label, alone when collapsed. */
  icon: ComponentType<SVGProps<SVGSVGElement>>;
}

/** The sidebar entries of §2 Layout, in order, with Webhooks after Integrated Tracking. */
export const MAIN_NAV: readonly MainNavEntry[] = [
  { to: '/', label: 'Dashboard', icon: DashboardIcon },
  { to: '/metrics', label: 'Metrics', icon: MetricsIcon },
  { to: '/revenue', label: 'Revenue', icon: RevenueIcon },
  { to: '/users', label: 'Users', icon: UsersIcon },
  { to: '/subscriptions', label: 'Subscriptions', icon: SubscriptionsIcon },
  { to: '/isr', label: 'Integrated Tracking', icon: TrackingIcon },
  { to: '/webhooks', label: 'Webhooks', icon: WebhooksIcon },
  { to: '/logs', label: 'Logs', icon: LogsIcon },
  { to: '/audit', label: 'Audit', icon: AuditIcon },
  { to: '/settings', label: 'Settings', icon: SettingsIcon },
  { to: '/maintenance', label: 'Maintenance', icon: MaintenanceIcon },
];

/** The id of the main region, the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/** Props of {@link AppLayout}. All state is controlled by the screen (it persists and decides). */
export interface AppLayoutProps {
  /** desktop = collapsible sidebar, mobile = overlay menu; chosen by a media query at the screen edge. */
  viewport: LayoutViewport;
  /** The operator's fixed display name shown in the header (§2 Layout), e.g. 'Admin'; its initial fills the avatar. */
  operatorName: string;
  /** The product's own sites (e.g. Website, Forum), shown after the two providers' links; each opens in a new tab. */
  siteLinks: readonly ExternalLink[];
  /** Whether sound alerts are on (§4 Sound alerts). */
  isSoundEnabled: boolean;
  /** Called with the next sound setting when the header switch is flipped. */
  onSoundToggle: (next: boolean) => void;
  /**
   * The live stream's header items (the stream-state indicator and the Activity feed button),
   * shown before the sound switch; nothing when absent.
   */
  liveActivity?: ReactNode;
  /**
   * The header's find-anything search (the command palette's trigger), placed after the
   * external links; nothing when absent.
   */
  search?: ReactNode;
  /** Called when the operator presses 'Log out' (§4 Session: the screen clears the token and goes to /login). */
  onLogout: () => void;
  /** Desktop only: whether the sidebar shows icons only. */
  isSidebarCollapsed: boolean;
  /** Desktop only: called with the next collapsed value from the 'Collapse' / 'Expand' button. */
  onSidebarCollapsedChange: (next: boolean) => void;
  /** Mobile only: whether the overlay menu is open. */
  isMobileNavOpen: boolean;
  /** Mobile only: called with false on close button, backdrop, Escape or navigation; true from 'Open menu'. */
  onMobileNavOpenChange: (next: boolean) => void;
  /** The routed screen, rendered inside the main landmark. */
  children: ReactNode;
}

/** Props of the list of sidebar entries. */
interface MainNavListProps {
  /** Labels hidden visually (collapsed desktop sidebar); names stay for assistive technology. */
  isCompact: boolean;
  /** Called after an entry is chosen (closes the mobile overlay). */
  onNavigate?: () => void;
}

/** The entries as NavLinks; the active one gets aria-current="page" from NavLink. */
function MainNavList({ isCompact, onNavigate }: MainNavListProps) {
  return (
    <ul className={styles.navList}>
      {MAIN_NAV.map(({ to, label, icon: EntryIcon }) => (
        <li key={to}>
          <NavLink
            to={to}
            end={to === '/'}
            className={styles.navLink}
            title={isCompact ? label : undefined}
            onClick={onNavigate}
          >
            <EntryIcon className={styles.navIcon} />
            <span className={isCompact ? 'visually-hidden' : styles.navLabel}>{label}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

/** Props of the list of external links. */
interface ExternalLinksProps {
  /** The links: providers first, then the product's sites. */
  links: readonly ExternalLink[];
  /** 'row' in the desktop header, 'column' in the mobile overlay. */
  direction: 'row' | 'column';
}

/** External links, each opening a new tab without giving it access to this window. */
function ExternalLinks({ links, direction }: ExternalLinksProps) {
  return (
    <ul className={styles.externalList} data-direction={direction}>
      {links.map((link) => (
        <li key={`${link.label}-${link.href}`}>
          <a
            className={styles.externalLink}
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
          >
            {link.label}
            <span className="visually-hidden"> (opens in a new tab)</span>
            <ExternalIcon className={styles.externalIcon} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * The shell every signed-in route shares (§2 Layout): a header with version, title, external
 * links, the live stream's items, operator, sound switch and 'Log out'; the eight-entry sidebar
 * ('Main' navigation), collapsible on desktop and an overlay dialog on mobile; and the main
 * landmark holding the screen.
 */
export function AppLayout({
  viewport,
  operatorName,
  siteLinks,
  isSoundEnabled,
  onSoundToggle,
  liveActivity,
  search,
  onLogout,
  isSidebarCollapsed,
  onSidebarCollapsedChange,
  isMobileNavOpen,
  onMobileNavOpenChange,
  children,
}: AppLayoutProps) {
  const sidebarId = useId();
  const drawerId = useId();
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const isMobile = viewport === 'mobile';
  const isMenuOpen = isMobile && isMobileNavOpen;
  const isCollapsed = !isMobile && isSidebarCollapsed;
  const externalLinks = [...PROVIDER_LINKS, ...siteLinks];
  const initial = operatorName.trim().charAt(0).toUpperCase() || '?';

  return (
    <div
      className={styles.layout}
      data-viewport={viewport}
      data-sidebar={isMobile ? undefined : isCollapsed ? 'collapsed' : 'expanded'}
    >
      <a className={styles.skipLink} href={`#${MAIN_CONTENT_ID}`}>
        Skip to content
      </a>

      <header className={styles.header}>
        {isMobile ? (
          <Button
            ref={menuButtonRef}
            variant="ghost"
            className={styles.iconButton}
            aria-label="Open menu"
            aria-haspopup="dialog"
            aria-expanded={isMenuOpen}
            aria-controls={isMenuOpen ? drawerId : undefined}
            onClick={() => onMobileNavOpenChange(true)}
          >
            <MenuIcon className={styles.buttonIcon} />
          </Button>
        ) : null}

        <div className={styles.brand}>
          <span className={styles.title}>{PRODUCT_TITLE}</span>
          <span className={styles.version}>{VERSION_LABEL}</span>
        </div>

        {isMobile ? null : (
          <nav className={styles.externalNav} aria-label="External links">
            <ExternalLinks links={externalLinks} direction="row" />
          </nav>
        )}

        {search ? <div className={styles.search}>{search}</div> : null}

        <div className={styles.actions}>
          {liveActivity ? <div className={styles.live}>{liveActivity}</div> : null}
          <SoundToggle
            isEnabled={isSoundEnabled}
            onToggle={onSoundToggle}
            isLabelHidden={isMobile}
          />
          <div className={styles.operator} title={operatorName}>
            <span className={styles.avatar} aria-hidden="true">
              {initial}
            </span>
            <span className={isMobile ? 'visually-hidden' : styles.operatorName}>
              {operatorName}
            </span>
          </div>
          <Button variant="default" className={styles.logout} title="Log out" onClick={onLogout}>
            <LogoutIcon className={styles.buttonIcon} />
            <span className={styles.logoutLabel}>Log out</span>
          </Button>
        </div>
      </header>

      {isMobile ? (
        <MobileNavDialog
          id={drawerId}
          title={PRODUCT_TITLE}
          isOpen={isMenuOpen}
          onOpenChange={onMobileNavOpenChange}
          returnFocusRef={menuButtonRef}
        >
          <nav className={styles.mainNav} aria-label="Main">
            <MainNavList isCompact={false} onNavigate={() => onMobileNavOpenChange(false)} />
          </nav>
          <nav className={styles.drawerExternal} aria-label="External links">
            <ExternalLinks links={externalLinks} direction="column" />
          </nav>
        </MobileNavDialog>
      ) : (
        <aside className={styles.sidebar} id={sidebarId}>
          <nav className={styles.mainNav} aria-label="Main">
            <MainNavList isCompact={isCollapsed} />
          </nav>
          <div className={styles.sidebarFooter}>
            <Button
              variant="ghost"
              className={styles.collapseButton}
              aria-expanded={!isCollapsed}
              aria-controls={sidebarId}
              title={isCollapsed ? 'Expand' : undefined}
              onClick={() => onSidebarCollapsedChange(!isCollapsed)}
            >
              <CollapseIcon className={styles.collapseIcon} />
              <span className={isCollapsed ? 'visually-hidden' : undefined}>
                {isCollapsed ? 'Expand' : 'Collapse'}
              </span>
            </Button>
          </div>
        </aside>
      )}

      <main className={styles.main} id={MAIN_CONTENT_ID} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
