/**
 * Bundle-size benchmark: prints every file of the built console (dist/assets) with its raw and
 * gzip size, and the total of what the first page load fetches (index.html's scripts and styles).
 * Figures only, never asserted. Run after `npm run build`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve('dist');
const assets = path.join(dist, 'assets');
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

const rows = readdirSync(assets)
  .filter((f) => /\.(js|css)$/.test(f))
  .map((file) => {
    const body = readFileSync(path.join(assets, file));
    return { file, raw: statSync(path.join(assets, file)).size, gzip: gzipSync(body).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const initial = rows.filter((r) => html.includes(r.file));
const sum = (list: typeof rows, key: 'raw' | 'gzip') => list.reduce((t, r) => t + r[key], 0);

console.log('file'.padEnd(48), 'raw'.padStart(10), 'gzip'.padStart(10));
for (const r of rows)
  console.log(r.file.padEnd(48), kb(r.raw).padStart(10), kb(r.gzip).padStart(10));
console.log(
  `\nfirst load (index.html): ${kb(sum(initial, 'raw'))} raw, ${kb(sum(initial, 'gzip'))} gzip`,
);
console.log(
  `all assets: ${kb(sum(rows, 'raw'))} raw, ${kb(sum(rows, 'gzip'))} gzip (${rows.length} files)`,
);
