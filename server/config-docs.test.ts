/**
 * docs/configuration.md holds the one table of the server's environment variables. This test
 * keeps it equal to what loadConfig reads, so the page cannot drift from the code: every variable
 * loadConfig looks up is a row, and every row is a variable it looks up.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VARIABLE = /^[A-Z][A-Z0-9_]*$/;

/**
 * The variables loadConfig reads from `env`: it gets an environment wrapped in a Proxy that
 * records every name looked up, whichever helper does the reading.
 */
async function variablesRead(env: Record<string, string>): Promise<Set<string>> {
  const read = new Set<string>();
  const record = (name: string | symbol) => {
    if (typeof name === 'string' && VARIABLE.test(name)) read.add(name);
  };
  const spy = new Proxy(env, {
    get(target, name, receiver) {
      record(name);
      return Reflect.get(target, name, receiver) as unknown;
    },
    has(target, name) {
      record(name);
      return Reflect.has(target, name);
    },
    getOwnPropertyDescriptor(target, name) {
      record(name);
      return Reflect.getOwnPropertyDescriptor(target, name);
    },
  });
  await loadConfig(spy, () => {});
  return read;
}

/**
 * The names a reader of server/config.ts sees: string literals handed to the env helpers
 * (`integer(env, 'PORT', …)`) and `env.NAME` look-ups. This catches a variable read only on a
 * branch the two environments below do not take.
 */
function variablesInSource(): Set<string> {
  const source = readFileSync(path.join(root, 'server/config.ts'), 'utf8');
  const names = new Set<string>();
  for (const m of source.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)) names.add(m[1] ?? '');
  for (const m of source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) names.add(m[1] ?? '');
  return names;
}

/** The backticked names in the first column of the table headed `| variable |`. */
function variablesDocumented(): Set<string> {
  const lines = readFileSync(path.join(root, 'docs/configuration.md'), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^\|\s*variable\s*\|/i.test(line));
  expect(start, 'docs/configuration.md has a table headed "| variable |"').toBeGreaterThan(-1);
  const names = new Set<string>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const firstCell = line.split('|')[1] ?? '';
    for (const m of firstCell.matchAll(/`([^`]+)`/g)) {
      if (VARIABLE.test(m[1] ?? '')) names.add(m[1] ?? '');
    }
  }
  return names;
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe('docs/configuration.md', () => {
  it('lists exactly the environment variables server/config.ts reads', async () => {
    // Demo mode with every default, then a configured server: between them every branch of
    // loadConfig that reads a variable runs.
    const demo = await variablesRead({ DATA_DIR: 'memory' });
    const configured = await variablesRead({
      DATA_DIR: 'memory',
      ADMIN_PASSWORD: 'a long enough password',
      JWT_SECRET: 'x'.repeat(32),
      REPORTING_CURRENCY: 'EUR',
      FX_RATES: 'USD=0.92',
      DISCOURSE_URL: 'https://forum.example.com',
      DISCOURSE_API_KEY: 'key',
      DISCOURSE_GROUP_ID: '7',
      CLICKBANK_SECRET_KEY: 'ABCDEFGH12345678',
      DATABASE_URL: 'postgres://mg@db.example.com:5432/mg',
    });
    const read = new Set([...demo, ...configured, ...variablesInSource()]);

    expect(read.size).toBeGreaterThan(40);
    expect(sorted(variablesDocumented())).toEqual(sorted(read));
  });
});
