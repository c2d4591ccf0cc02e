/**
 * Wire answers of the account and operator routes (issue 23; server/auth/accountRoutes.ts), dated
 * around the pinned story clock FIXTURE_NOW (2026-11-20T12:00:00Z, UTC).
 */
import { FIXTURE_NOW } from './fixtures';

const NOW_MS = Date.parse(FIXTURE_NOW);
const at = (minutesAgo: number) => new Date(NOW_MS - minutesAgo * 60_000).toISOString();
const inHours = (hours: number) => new Date(NOW_MS + hours * 3_600_000).toISOString();

/** The signed-in operator of the account stories. */
export const SELF_OPERATOR = {
  id: 1,
  email: 'admin@example.com',
  name: 'Admin',
  role: 'owner',
  totp_enabled: false,
} as const;

/** GET /auth/whoami for an operator with `role` and two-factor sign-in on or off. */
export function whoamiWire(
  overrides: Partial<Record<keyof typeof SELF_OPERATOR, unknown>> = {},
  mustEnrolTotp = false,
) {
  const operator = { ...SELF_OPERATOR, ...overrides };
  return {
    ok: true,
    user: { email: operator.email, name: operator.name },
    operator,
    ...(mustEnrolTotp ? { must_enrol_totp: true } : {}),
  };
}

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** One session: this browser. */
export const CURRENT_SESSION_WIRE = {
  id: 'a1b2c3d4e5f6a7b8',
  created_at: at(90),
  last_seen_at: at(0),
  expires_at: inHours(12),
  ip: '203.0.113.7',
  user_agent: CHROME_LINUX,
  current: true,
};

/** GET /auth/sessions: this browser, a phone and a laptop. */
export const SESSIONS_WIRE = {
  sessions: [
    CURRENT_SESSION_WIRE,
    {
      id: 'b2c3d4e5f6a7b8c9',
      created_at: at(60 * 20),
      last_seen_at: at(45),
      expires_at: inHours(4),
      ip: '198.51.100.23',
      user_agent: SAFARI_IOS,
      current: false,
    },
    {
      id: 'c3d4e5f6a7b8c9d0',
      created_at: at(60 * 30),
      last_seen_at: at(60 * 6),
      expires_at: inHours(2),
      ip: '2001:db8:85a3::8a2e:370:7334',
      user_agent: FIREFOX_WINDOWS,
      current: false,
    },
  ],
};

/** A session whose user agent no summary knows: a long, unbroken header. */
export const LONG_AGENT_SESSIONS_WIRE = {
  sessions: [
    CURRENT_SESSION_WIRE,
    {
      id: 'd4e5f6a7b8c9d0e1',
      created_at: at(60 * 3),
      last_seen_at: at(30),
      expires_at: inHours(9),
      ip: null,
      user_agent: `InternalMonitoringAgent/4.2.1 (build 2026-11-01; +https://status.example.com/agents/monitoring?region=eu-west-1&cluster=primary-${'x'.repeat(80)})`,
      current: false,
    },
  ],
};

/** POST /auth/totp/setup. */
export const TOTP_SETUP_WIRE = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauth_url:
    'otpauth://totp/MG%20Admin%20Console:admin%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=MG%20Admin%20Console&algorithm=SHA1&digits=6&period=30',
};

/** POST /auth/totp/enable: the 10 recovery codes. */
export const RECOVERY_CODES_WIRE = {
  recovery_codes: [
    'k7q2-m9x4-a1',
    'p3v8-z6c1-b2',
    'r5t9-w2n7-c3',
    'h8j4-s1d6-d4',
    'f2g7-l5q3-e5',
    'n9b6-y4u8-f6',
    'c1x5-v7m2-g7',
    'e6r3-k8p1-h8',
    'u4w9-t2z5-j9',
    'a7s2-d3f6-k0',
  ],
};

/** The code every stateful TOTP handler accepts; any other 6 digits is OTP_INVALID. */
export const VALID_OTP = '123456';

/** GET /operators: an owner (the signed-in one), an admin with two-factor, support, an invite, a disabled viewer. */
export const OPERATORS_WIRE = {
  require_totp: false,
  operators: [
    {
      ...SELF_OPERATOR,
      status: 'active',
      created_at: at(60 * 24 * 200),
      last_seen_at: at(0),
      invite_expires_at: null,
    },
    {
      id: 2,
      email: 'dana.okafor@example.com',
      name: 'Dana Okafor',
      role: 'admin',
      status: 'active',
      totp_enabled: true,
      created_at: at(60 * 24 * 90),
      last_seen_at: at(60 * 3),
      invite_expires_at: null,
    },
    {
      id: 3,
      email: 'sam.lee@example.com',
      name: 'Sam Lee',
      role: 'support',
      status: 'active',
      totp_enabled: false,
      created_at: at(60 * 24 * 30),
      last_seen_at: at(60 * 26),
      invite_expires_at: null,
    },
    {
      id: 4,
      email: 'maximiliane.fitzgerald-montgomery@customer-success.example.com',
      name: 'Maximiliane Alexandra Fitzgerald-Montgomery',
      role: 'viewer',
      status: 'invited',
      totp_enabled: false,
      created_at: at(60 * 5),
      last_seen_at: null,
      invite_expires_at: inHours(67),
    },
    {
      id: 5,
      email: 'old.hand@example.com',
      name: 'Old Hand',
      role: 'viewer',
      status: 'disabled',
      totp_enabled: false,
      created_at: at(60 * 24 * 400),
      last_seen_at: at(60 * 24 * 40),
      invite_expires_at: null,
    },
  ],
};

/** POST /operators 201 for `email`, `name` and `role`. */
export function inviteWire(email: string, name: string, role: string) {
  return {
    operator: { id: 6, email, name, role, status: 'invited', totp_enabled: false },
    invite: {
      url: 'http://localhost:8080/admin/invite/Xq3v9Lw2Rk8pT6nY4mZ1aB7cD5eF0gH2jK9lM3nP',
      token: 'Xq3v9Lw2Rk8pT6nY4mZ1aB7cD5eF0gH2jK9lM3nP',
      expires_at: inHours(72),
    },
  };
}
