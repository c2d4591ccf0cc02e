/**
 * The operator's own account and the team of operators as the Settings screen shows them
 * (docs/api.md "Operators", "Account"): the inside shapes the API normalises into, the
 * password rule's help text, the role descriptions, a readable summary of a user agent, and the
 * text forms of a two-factor secret and of recovery codes.
 */
import type { Role } from './roles';

/** One open session of the signed-in operator (GET /auth/sessions); instants are ISO 8601 UTC. */
export interface AccountSession {
  /** The session's public id (a prefix of its hash), for DELETE /auth/sessions/:id. */
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** The client address it was opened from, or null when unknown. */
  ip: string | null;
  /** The browser's User-Agent header, or null when none was sent. */
  userAgent: string | null;
  /** The session of this browser: shown as "This session" and never endable here. */
  isCurrent: boolean;
}

/** An operator's account state: invited (no password yet), active, or disabled. */
export type OperatorStatus = 'active' | 'disabled' | 'invited';

/** One operator of GET /operators; instants are ISO 8601 UTC. */
export interface OperatorSummary {
  id: number;
  email: string;
  name: string;
  role: Role;
  status: OperatorStatus;
  totpEnabled: boolean;
  createdAt: string | null;
  /** The latest activity of any of their sessions, or null when they never signed in. */
  lastSeenAt: string | null;
  /** When their pending invitation link stops working, or null when none is pending. */
  inviteExpiresAt: string | null;
}

/** GET /operators: the team and whether an owner requires two-factor sign-in for everyone. */
export interface OperatorList {
  operators: OperatorSummary[];
  requireTotp: boolean;
}

/** The one-time invitation of POST /operators: the link to hand over and when it expires (UTC). */
export interface OperatorInvite {
  email: string;
  name: string;
  url: string;
  expiresAt: string;
}

/** The values of the invite form. */
export interface InviteOperatorInput {
  email: string;
  name: string;
  role: Role;
}

/** How long an invitation link works, in hours (72 h). */
export const INVITE_TTL_HOURS = 72;

/** The password rule of the server, as help text next to a new-password field. */
export const PASSWORD_RULE =
  'At least 12 characters, not counting spaces, and not a commonly used password.';

/** What each role may do, one line each. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: 'Reads every screen.',
  support: 'Viewer, plus the five access actions and enforce-now.',
  admin: 'Support, plus maintenance runs, pings and diagnostics.',
  owner: 'Admin, plus managing operators and the two-factor policy.',
};

/** The status names as the console shows them. */
export const OPERATOR_STATUS_LABELS: Record<OperatorStatus, string> = {
  active: 'Active',
  disabled: 'Disabled',
  invited: 'Invited',
};

const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
  [/\bnode\b|\bundici\b/i, 'Node.js'],
];
const SYSTEMS: readonly [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A readable summary of a User-Agent header, e.g. "Chrome on Linux", "Safari on iOS",
 * "Firefox"; "Unknown browser" when none was sent; the first 60 characters of one it does not
 * recognise. Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
 */
export function summariseUserAgent(userAgent: string | null | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return 'Unknown browser';
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return ua.length > 60 ? `${ua.slice(0, 59)}…` : ua;
}

/** A two-factor secret in groups of four for reading aloud or typing: "JBSW Y3DP EHPK 3PXP". */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** The recovery codes as a text file: a heading line, who and when they are for, one code a line. */
export function recoveryCodesText(codes: readonly string[], email: string | null): string {
  const lines = [
    'MG Admin Console: two-factor recovery codes',
    ...(email ? [`Operator: ${email}`] : []),
    'Each code signs in once, instead of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ];
  return lines.join('\n');
}

/** Whether `value` is a 6-digit authenticator code (spaces allowed between digits). */
export function isOtpCode(value: string): boolean {
  return /^\d{6}$/.test(value.replace(/\s+/g, ''));
}
