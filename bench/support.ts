/**
 * Helpers shared by the server benchmarks (server-lists, server-metrics, server-logs): the
 * nearest-rank percentile they print, the query recorder behind their --explain output, and the
 * wait for a started server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server.mjs';
import type { Db } from '../server/db/types';

/** The p-th percentile (0..100) of `values` (nearest rank), in the values' unit; NaN when empty. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? NaN;
}

/** A database proxy that records the SQL and parameters of every query (for --explain). */
export function recording(db: Db): { db: Db; log: { sql: string; params: unknown[] }[] } {
  const log: { sql: string; params: unknown[] }[] = [];
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (sql: string, params: unknown[] = []) => {
          log.push({ sql, params });
          return target.query(sql, params);
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { db: proxy, log };
}

/** Resolves once the reference server at `base` answers GET /api/admin/health; throws after `timeoutMs`. */
export async function waitForServer(base: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/api/admin/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the reference server did not answer ${base}/api/admin/health`);
}

/** A compiled reference server serving the built console (dist/) on a throw-away data folder. */
export interface BuiltServer {
  /** http://localhost:<port> */
  base: string;
  process: ChildProcess;
  /** Stops the server and removes its data folder. */
  stop: () => void;
}

/**
 * Builds the server (dist-server/), starts it on `port` with `customers` demo customers (seed
 * 42) and the owner `admin`, serving dist/, and waits up to `timeoutMs` for it to answer.
 *
 * `env` adds to or overrides the server's environment (DATABASE_URL, JWT_SECRET, …). `dataDir`
 * names a data folder that is kept (a seeded PGlite reused next time); without it the folder is
 * a throw-away one. `outfile` runs a server already built (buildServer), so several instances
 * start from one build and no build replaces the files of a running one.
 */
export async function startBuiltServer(options: {
  port: number;
  customers: string;
  admin: { email: string; password: string };
  timeoutMs: number;
  env?: Record<string, string>;
  dataDir?: string;
  outfile?: string;
}): Promise<BuiltServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'mg-bench-data-'));
  const outfile = options.outfile ?? (await buildServer('dist-server')).outfile;
  const child = spawn(process.execPath, [outfile], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: dataDir,
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
      SEED_CUSTOMERS: options.customers,
      SEED: '42',
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.resolve('dist'),
      ...options.env,
    },
  });
  const base = `http://localhost:${options.port}`;
  const stop = () => {
    child.kill();
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(base, options.timeoutMs);
  } catch (error) {
    stop();
    throw error;
  }
  return { base, process: child, stop };
}
