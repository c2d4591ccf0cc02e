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

/* The chart chunk against its budget, and which pages load chart code. */

/** The budget for the lazy chart chunk, gzip. */
const CHART_BUDGET_BYTES = 35 * 1024;
/** The chunks a chunk imports statically (`import … from"./x.js"`, `import"./x.js"`), not `import()`. */
function staticImports(file: string): string[] {
  const code = readFileSync(path.join(assets, file), 'utf8');
  return [...code.matchAll(/\b(?:from|import)\s*["'`]\.\/([\w.-]+\.js)["'`]/g)].map((m) => m[1]!);
}
/** `roots` and every chunk they import statically, transitively: what a page must fetch. */
function closure(roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return seen;
}
const jsRows = rows.filter((r) => r.file.endsWith('.js'));
const chunk = (prefix: string) => jsRows.find((r) => r.file.startsWith(`${prefix}-`));
const chartChunk = chunk('charts');
const entryJs = initial.filter((r) => r.file.endsWith('.js')).map((r) => r.file);

console.log('');
if (chartChunk) {
  const verdict = chartChunk.gzip <= CHART_BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `chart chunk ${chartChunk.file}: ${kb(chartChunk.raw)} raw, ${kb(chartChunk.gzip)} gzip (${chartChunk.gzip} B) — ${verdict} the ${kb(CHART_BUDGET_BYTES)} budget`,
  );
} else {
  console.log('chart chunk: none found (no charts-*.js in dist/assets)');
}
for (const [page, screen] of [
  ['sign-in page', 'LoginScreen'],
  ['dashboard', 'DashboardScreen'],
  // The control: a charted screen must find the chunk, or the check above proves nothing.
  ['Metrics screen', 'MetricsScreen'],
] as const) {
  const screenChunk = chunk(screen);
  if (!screenChunk) {
    console.log(`${page}: no ${screen}-*.js chunk found`);
    continue;
  }
  const files = closure([...entryJs, screenChunk.file]);
  const loaded = jsRows.filter((r) => files.has(r.file));
  const charts = chartChunk !== undefined && files.has(chartChunk.file);
  console.log(
    `${page} JS: ${loaded.length} files, ${kb(sum(loaded, 'raw'))} raw, ${kb(sum(loaded, 'gzip'))} gzip; loads chart code: ${charts ? 'YES' : 'no'}`,
  );
}
