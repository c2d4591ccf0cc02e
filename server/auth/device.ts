/**
 * Device cookies (OWASP "Slow Brute Force Protection Using Device Cookies"): a browser that has
 * signed in as an operator gets a signed cookie naming that operator. When an account has too many
 * failed sign-ins in the window, attempts from anywhere are refused EXCEPT from a browser holding
 * that operator's device cookie, whose failures are counted on their own. So failures typed from
 * other addresses can no longer lock the real operator out of their usual browser.
 *
 * The cookie is an HS256 JWT (sub = operator id, jti = the device's id), HttpOnly, SameSite=Strict,
 * path {prefix}/auth (sign-in only), kept 180 days.
 */
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';
import type { ServerConfig } from '../context';

/** Name of the device cookie. */
export const DEVICE_COOKIE = 'mg_admin_device';
/** How long a device stays known (s): 180 days. */
export const DEVICE_TTL_S = 180 * 86_400;
const DEVICE_AUDIENCE = 'mg-admin-device';
const DEVICE_ISSUER = 'mg-admin-console';

const cookiePath = (config: ServerConfig) => `${config.apiPrefix}/auth`;
const secure = (c: Context, config: ServerConfig) =>
  config.cookieSecure ?? new URL(c.req.url).protocol === 'https:';

/** Sets a device cookie for `operatorId` (a new device id each sign-in). */
export async function setDeviceCookie(
  c: Context,
  config: ServerConfig,
  operatorId: number,
  now: Date,
): Promise<void> {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(operatorId))
    .setJti(randomBytes(16).toString('base64url'))
    .setIssuer(DEVICE_ISSUER)
    .setAudience(DEVICE_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + DEVICE_TTL_S)
    .sign(config.jwtSecret);
  setCookie(c, DEVICE_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: cookiePath(config),
    maxAge: DEVICE_TTL_S,
    secure: secure(c, config),
  });
}

/** The request's device: {operatorId, deviceId} when its cookie is valid at `now`, else null. */
export async function readDeviceCookie(
  c: Context,
  config: ServerConfig,
  now: Date,
): Promise<{ operatorId: number; deviceId: string } | null> {
  const token = getCookie(c, DEVICE_COOKIE);
  if (!token || token.length > 1000) return null;
  try {
    const { payload } = await jwtVerify(token, config.jwtSecret, {
      algorithms: ['HS256'],
      issuer: DEVICE_ISSUER,
      audience: DEVICE_AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub', 'jti'],
    });
    if (typeof payload.sub !== 'string' || !/^[1-9][0-9]{0,15}$/.test(payload.sub)) return null;
    if (typeof payload.jti !== 'string') return null;
    return { operatorId: Number(payload.sub), deviceId: payload.jti };
  } catch {
    return null;
  }
}

/** Clears the device cookie (an operator disabled, or a sign-out asked to forget the browser). */
export function clearDeviceCookie(c: Context, config: ServerConfig): void {
  deleteCookie(c, DEVICE_COOKIE, {
    httpOnly: true,
    sameSite: 'Strict',
    path: cookiePath(config),
    secure: secure(c, config),
  });
}
