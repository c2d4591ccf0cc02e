/**
 * The compiled server (production runs without a TypeScript runner): builds it with
 * scripts/build-server.mjs into a throw-away folder, runs it with plain `node`, and checks that it
 * applies the copied migrations, answers the API, serves the console, and stops cleanly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer as build } from '../scripts/build-server.mjs';

let work: string | null = null;
let out: string | null = null;
let child: ChildProcess | null = null;

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Resolves with the first stdout line matching `pattern`, or rejects on exit / time-out. */
function waitForLine(proc: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`)),
      timeoutMs,
    );
    proc.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    proc.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before ${pattern}:\n${out}\n${err}`));
    });
  });
}

// The bundle is the same whichever database the suite runs on: built and run once, in the PGlite run.
describe.skipIf(process.env.TEST_DATABASE_URL)('compiled server (dist-server)', () => {
  it('runs with plain node: migrations next to the bundle, API and console answered, clean stop', async () => {
    work = mkdtempSync(path.join(tmpdir(), 'mg-compiled-'));
    // Inside the checkout (as dist-server/ is), so the packages resolve from its node_modules.
    const scratch = path.resolve('node_modules/.tmp');
    mkdirSync(scratch, { recursive: true });
    out = mkdtempSync(path.join(scratch, 'dist-server-'));
    const outdir = out;
    const { outfile, migrations } = await build(outdir);
    const sql = readdirSync(path.resolve('server/db/migrations')).filter((f) => f.endsWith('.sql'));
    expect(migrations).toBe(sql.length);
    expect(readdirSync(path.join(outdir, 'migrations')).sort()).toEqual(sql.sort());
    expect(existsSync(path.join(outdir, 'main.ts'))).toBe(false);

    const staticDir = path.join(work, 'static');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>built</title>');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      PORT: '0',
      DATA_DIR: 'memory',
      STATIC_DIR: staticDir,
      SEED_CUSTOMERS: '0',
      ADMIN_EMAIL: 'ops@example.com',
      ADMIN_PASSWORD: 'compiled-Smoke-pass-1',
      LOG_LEVEL: 'warn',
    };
    // From another folder: the bundle must find its migrations and packages by its own location.
    child = spawn(process.execPath, [outfile], {
      cwd: work,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await waitForLine(child, /^Admin console: /, 25_000);
    const base = /http:\/\/localhost:\d+/.exec(line)?.[0];
    expect(base).toBeDefined();

    const health = await fetch(`${base}/api/admin/health`);
    expect(health.status).toBe(200);
    const login = await fetch(`${base}/api/admin/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.com', password: 'compiled-Smoke-pass-1' }),
    });
    expect(login.status).toBe(200); // the schema (all migrations) is in place
    const page = await fetch(`${base}/admin/users`);
    expect(await page.text()).toContain('<title>built</title>');

    const exited = new Promise<number | null>((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 40_000);
});
