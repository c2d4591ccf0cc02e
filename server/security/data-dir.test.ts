/**
 * DATA_DIR holds the embedded database's files and the server's secrets: after the server has
 * started (and started again, which rewrites some of PGlite's files), nothing in it is open to
 * group or others — files are 0600 and folders 0700, including files an earlier version left
 * readable.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../main';
import { makeTestConfig } from '../testing/deps';

const root = mkdtempSync(path.join(tmpdir(), 'mg-datadir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every path under `dir` whose mode is not 0600 (files) or 0700 (folders), with its mode. */
function looseModes(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    const mode = statSync(p).mode & 0o777;
    const want = entry.isDirectory() ? 0o700 : 0o600;
    if (mode !== want) out.push(`${path.relative(root, p)} ${mode.toString(8)}`);
    if (entry.isDirectory()) out.push(...looseModes(p));
  }
  return out;
}

describe('DATA_DIR permissions', () => {
  it('are 0600 for every file and 0700 for every folder of PGlite, across restarts', async () => {
    const dataDir = path.join(root, 'data');
    const config = await makeTestConfig({ dataDir });
    const silent = pino({ level: 'silent' });
    const first = await startServer(config, { log: silent, seed: false, hostname: '127.0.0.1' });
    expect((await fetch(`${first.url}${config.apiPrefix}/health/db`)).status).toBe(200);
    await first.close();
    // A file an earlier version wrote open to everyone is tightened at the next start.
    writeFileSync(path.join(dataDir, 'left-over.txt'), 'x');
    chmodSync(path.join(dataDir, 'left-over.txt'), 0o666);
    const second = await startServer(config, { log: silent, seed: false, hostname: '127.0.0.1' });
    expect((await fetch(`${second.url}${config.apiPrefix}/health/db`)).status).toBe(200);
    await second.close();

    expect(looseModes(dataDir)).toEqual([]);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  }, 120_000);
});
