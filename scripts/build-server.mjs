// @ts-check
/**
 * Compiles the reference server for production, so it runs without a TypeScript runner: bundles
 * server/main.ts and everything it imports from server/ into one ES module, `<outdir>/main.js`
 * (default dist-server/), with the npm packages left as imports (resolved from node_modules at
 * run time), and copies the database migrations next to it, to
 * `<outdir>/migrations/*.sql`, where server/db/index.ts finds them (relative to the module's own
 * URL, in both layouts). Then `node dist-server/main.js` runs the server (`npm start` does both).
 *
 *   node scripts/build-server.mjs [--outdir dist-server]
 *
 * Plain JavaScript, so the build itself needs no TypeScript runner either; esbuild (the compiler
 * tsx and Vite already use) strips the types, `npm run typecheck` checks them.
 */
import { copyFileSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the server into `outdir` (emptied first).
 * @param {string} outdir absolute or relative to the repository root
 * @returns {Promise<{ outfile: string, migrations: number }>}
 */
export async function buildServer(outdir) {
  const out = path.resolve(root, outdir);
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'server/main.ts')],
    outfile: path.join(out, 'main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: path.join(root, 'tsconfig.node.json'),
  });
  const from = path.join(root, 'server/db/migrations');
  const to = path.join(out, 'migrations');
  mkdirSync(to, { recursive: true });
  const sql = readdirSync(from).filter((file) => file.endsWith('.sql'));
  for (const file of sql) copyFileSync(path.join(from, file), path.join(to, file));
  return { outfile: path.join(out, 'main.js'), migrations: sql.length };
}

// Real paths: node resolves this module through symlinks, argv keeps the path as given.
const real = (/** @type {string} */ p) => {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};
if (process.argv[1] && real(process.argv[1]) === real(fileURLToPath(import.meta.url))) {
  const args = process.argv.slice(2);
  const flag = args.indexOf('--outdir');
  const outdir = flag >= 0 ? args[flag + 1] : 'dist-server';
  if (!outdir) {
    console.error('--outdir needs a folder');
    process.exit(2);
  }
  const started = performance.now();
  const { outfile, migrations } = await buildServer(outdir);
  console.log(
    `server built: ${path.relative(root, outfile)} + ${migrations} migrations in ${Math.round(performance.now() - started)} ms`,
  );
}
