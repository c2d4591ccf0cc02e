/**
 * Security suite, safe defaults and hygiene: loopback by default; a
 * non-loopback HOST refuses demo mode and weak passwords before listening (loadConfig, startServer
 * and the real entry point, which exits non-zero); demo data only in demo mode; weak supplied
 * hashes refused; DATA_DIR 0700 and the secret file 0600; ADMIN_PASSWORD removed from the
 * environment; a restart with the same password keeps the sessions' password fingerprint.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../auth/password';
import { ConfigError, isLoopbackHost, loadConfig } from '../config';
import { startServer, UnsafeExposureError } from '../main';
import { makeTestConfig } from '../testing/deps';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'mg-exposure-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function refusal(env: Record<string, string>): Promise<ConfigError> {
  try {
    await loadConfig({ DATA_DIR: 'memory', ...env }, () => {});
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('loadConfig accepted the environment');
}

describe('HOST and demo mode', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '10.0.0.1'])
      expect(isLoopbackHost(h)).toBe(false);
  });

  it.each([
    ['no password at all (demo mode)', {}, /no password is set \(demo mode/],
    ['the demo password', { ADMIN_PASSWORD: 'admin' }, /the demo password/],
    ['an 11-character password', { ADMIN_PASSWORD: 'elevenchars' }, /at least 12 characters/],
    ['twelve spaces', { ADMIN_PASSWORD: '            ' }, /only spaces/],
    ['"admin" and seven spaces', { ADMIN_PASSWORD: 'admin       ' }, /at least 12 characters/],
    ['a common password', { ADMIN_PASSWORD: 'password1234' }, /too common/],
  ])('refuses HOST=0.0.0.0 with %s, saying what to set', async (_label, env, reason) => {
    const err = await refusal({ HOST: '0.0.0.0', ...env });
    expect(err.variable).toBe('ADMIN_PASSWORD');
    expect(err.message).toMatch(reason);
    expect(err.message).toMatch(/set ADMIN_PASSWORD to a password of at least 12 characters/);
    expect(err.message).toMatch(/HOST=127\.0\.0\.1/);
  });

  it('refuses "::" as well, and an unreadable HOST', async () => {
    expect((await refusal({ HOST: '::' })).variable).toBe('ADMIN_PASSWORD');
    expect((await refusal({ HOST: 'not a host!' })).variable).toBe('HOST');
  });

  it.each([
    [{ SESSION_IDLE_S: '5' }, 'SESSION_IDLE_S'],
    [{ COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE'],
    [{ HSTS_MAX_AGE: '1y' }, 'HSTS_MAX_AGE'],
    [{ TRUSTED_PROXY_HOPS: 'two' }, 'TRUSTED_PROXY_HOPS'],
    [{ LOGIN_ACCOUNT_RATE_MAX: '0' }, 'LOGIN_ACCOUNT_RATE_MAX'],
    [{ LOGIN_HASH_CONCURRENCY: '-1' }, 'LOGIN_HASH_CONCURRENCY'],
  ])('refuses %o naming %s', async (env, variable) => {
    expect((await refusal(env)).variable).toBe(variable);
  });

  it('serves the demo on loopback: demo credentials, demo data, no Secure cookie, no HSTS', async () => {
    const config = await loadConfig({ DATA_DIR: 'memory' }, () => {});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      demoMode: true,
      adminEmail: 'admin@example.com',
      seedCustomers: 3000,
      cookieSecure: false,
      hstsMaxAge: 0,
    });
    expect(await verifyPassword('admin', config.adminPasswordHash)).toBe(true);
  }, 30_000);

  it('accepts a strong password on a public HOST: no demo data, Secure cookie, HSTS', async () => {
    const config = await loadConfig(
      { DATA_DIR: 'memory', HOST: '0.0.0.0', ADMIN_PASSWORD: 'a strong passphrase' },
      () => {},
    );
    expect(config).toMatchObject({
      host: '0.0.0.0',
      demoMode: false,
      seedCustomers: 0,
      cookieSecure: true,
      hstsMaxAge: 15_552_000,
    });
    const seeded = await loadConfig(
      {
        DATA_DIR: 'memory',
        ADMIN_PASSWORD: 'twelve chars',
        SEED_CUSTOMERS: '50',
        HSTS_MAX_AGE: '0',
        COOKIE_SECURE: 'false',
      },
      () => {},
    );
    expect(seeded).toMatchObject({ seedCustomers: 50, hstsMaxAge: 0, cookieSecure: false });
  }, 30_000);

  it('startServer refuses demo mode on a public interface before opening anything', async () => {
    const dataDir = path.join(tempDir(), 'never-created');
    const config = await makeTestConfig({ demoMode: true, dataDir, host: '0.0.0.0' });
    await expect(startServer(config, { log: pino({ level: 'silent' }) })).rejects.toBeInstanceOf(
      UnsafeExposureError,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('the entry point exits non-zero before listening, naming what to set', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '0.0.0.0',
        PORT: String(port),
        DATA_DIR: 'memory',
        ADMIN_PASSWORD: 'admin',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/Configuration error: HOST=0\.0\.0\.0 .*ADMIN_PASSWORD/);
    expect(stdout).not.toMatch(/Admin console/);
  }, 60_000);
});

describe('password hashes', () => {
  it('hashes with N=2^17 and refuses a weak supplied ADMIN_PASSWORD_HASH', async () => {
    const weak = await hashPassword('some password', { N: 2 ** 14 });
    const err = await refusal({ ADMIN_PASSWORD_HASH: weak });
    expect(err.variable).toBe('ADMIN_PASSWORD_HASH');
    expect(err.message).toMatch(/too weak/);
  });

  it('removes ADMIN_PASSWORD from process.env once hashed', async () => {
    // loadConfig deletes the password only from the real process.env (identity), so run it on
    // process.env emptied of everything but what this case needs, then restore it whole.
    const saved = { ...process.env };
    try {
      for (const k of Object.keys(process.env)) delete process.env[k];
      process.env.ADMIN_PASSWORD = 'from the environment';
      process.env.DATA_DIR = 'memory';
      const config = await loadConfig(process.env, () => {});
      expect(process.env.ADMIN_PASSWORD).toBeUndefined();
      expect(await verifyPassword('from the environment', config.adminPasswordHash)).toBe(true);
    } finally {
      for (const k of Object.keys(process.env)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  }, 30_000);
});

describe('file modes', () => {
  it('creates DATA_DIR 0700 and the secret file 0600', async () => {
    const dataDir = path.join(tempDir(), 'data');
    await loadConfig({ DATA_DIR: dataDir }, () => {});
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  }, 30_000);

  it('tightens an open DATA_DIR and a readable secret file, saying so', async () => {
    const dataDir = path.join(tempDir(), 'open');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const secret = path.join(dataDir, 'jwt-secret');
    writeFileSync(secret, 'ab'.repeat(32) + '\n');
    chmodSync(secret, 0o644);
    const warnings: string[] = [];
    await loadConfig({ DATA_DIR: dataDir }, (m) => warnings.push(m));
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(warnings).toEqual([
      expect.stringMatching(/DATA_DIR .* \(mode 755\); tightened to 700/),
      expect.stringMatching(
        /jwt-secret was readable by group or others \(mode 644\); tightened to 600/,
      ),
    ]);
  }, 30_000);
});
