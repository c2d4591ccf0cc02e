/**
 * The console's delivery budgets, measured with Lighthouse on the production build, printed as
 * figures and PASS/FAIL lines (never asserted in tests: scores depend on the machine).
 *
 * The build (dist/, `npx vite build` first; `npm run bench` does) is served by the compiled
 * reference server on a throw-away data folder with BENCH_LIGHTHOUSE_CUSTOMERS demo customers
 * (default 3000), and Lighthouse audits two pages in Debian's Chromium, with its mobile preset
 * (the default: simulated slow 4G and 4× CPU) and its desktop preset:
 * - the sign-in page (/admin/login), signed out;
 * - the signed-in dashboard (/admin/): signed in through the form first, then the HTTP cache is
 *   cleared and Lighthouse keeps the storage (the token and the session cookie), so the load is a
 *   first visit's, signed in.
 *
 * Budgets: performance ≥ 90 (mobile) and ≥ 98 (desktop); accessibility and best practices 100;
 * the sign-in page's JavaScript on the wire ≤ 130 KiB; chart code (the charts-*.js chunk) only on
 * the chart screens. Each page and preset runs BENCH_LIGHTHOUSE_RUNS times (default 3); the median
 * score is the figure, the lowest is printed beside it.
 *
 * BENCH_LIGHTHOUSE_REPORTS=<folder> keeps each row's last report as JSON there.
 *
 * Requests carry `Accept-Encoding: br`, as a browser's do over HTTPS (Chromium offers brotli only
 * on secure origins, and the server is served behind TLS everywhere but on loopback).
 *
 *   npx vite build && npx tsx bench/lighthouse.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import lighthouse, { type Config, type Flags, type RunnerResult } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumArgs, chromiumPath } from '../tests/chromium';
import { startBuiltServer } from './support';

const port = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 8097);
const runs = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3));
const customers = process.env.BENCH_LIGHTHOUSE_CUSTOMERS ?? '3000';
const base = `http://localhost:${port}`;
/** Where to keep each row's last Lighthouse report (JSON), when set. */
const reportDir = process.env.BENCH_LIGHTHOUSE_REPORTS;
if (reportDir) mkdirSync(reportDir, { recursive: true });
const admin = { email: 'bench-admin@example.com', password: 'bench-Secret-pass-1' };

const SIGN_IN_JS_BUDGET_BYTES = 130 * 1024;
const PERFORMANCE_BUDGET = { mobile: 90, desktop: 98 } as const;
const CHART_CHUNK = /\/assets\/charts-[\w-]+\.js$/;

type Preset = keyof typeof PERFORMANCE_BUDGET;
type PageName = 'sign-in' | 'dashboard';

/** One Lighthouse run's figures. */
interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Largest Contentful Paint and First Contentful Paint (ms, as Lighthouse reports them). */
  lcpMs: number;
  fcpMs: number;
  totalBlockingTimeMs: number;
  /** Transfer size of every script the page loaded (bytes on the wire). */
  scriptBytes: number;
  loadsChartCode: boolean;
  /** Ids of the failing audits of the accessibility and best-practices categories. */
  failing: string[];
}

/** Signs in through the form in a page of `browser`: the token and the session cookie are stored. */
async function signIn(browser: Browser): Promise<void> {
  const page = await browser.newPage();
  await page.goto(`${base}/admin/login`);
  const email = await page.waitForSelector('input[type="email"]');
  await email!.click({ count: 3 });
  await email!.type(admin.email);
  await page.type('input[type="password"]', admin.password);
  await Promise.all([
    page.waitForFunction('location.pathname === "/admin/"'),
    page.keyboard.press('Enter'),
  ]);
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await page.close();
}

function figuresOf(result: RunnerResult): Figures {
  const { lhr } = result;
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const requests = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] })?.items;
  const scripts = (requests ?? []).filter((r) => r.resourceType === 'Script');
  const failing = ['accessibility', 'best-practices'].flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
  );
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    lcpMs: numeric('largest-contentful-paint'),
    fcpMs: numeric('first-contentful-paint'),
    totalBlockingTimeMs: numeric('total-blocking-time'),
    scriptBytes: scripts.reduce((total, r) => total + (r.transferSize ?? 0), 0),
    loadsChartCode: scripts.some((r) => CHART_CHUNK.test(r.url)),
    failing,
  };
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

/** Audits `url` once in a browser of its own (signed in first for the dashboard). */
async function audit(pageName: PageName, preset: Preset): Promise<Figures> {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath,
    args: chromiumArgs.filter((arg) => arg !== '--headless'),
    headless: true,
  });
  try {
    if (pageName === 'dashboard') await signIn(browser);
    const page = await browser.newPage();
    const flags: Flags = {
      logLevel: 'error',
      output: 'json',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
      extraHeaders: { 'Accept-Encoding': 'br' },
      disableStorageReset: pageName === 'dashboard',
    };
    const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
    const url = pageName === 'dashboard' ? `${base}/admin/` : `${base}/admin/login`;
    const result = await lighthouse(url, flags, config, page);
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (reportDir)
      writeFileSync(path.join(reportDir, `${pageName}-${preset}.json`), JSON.stringify(result.lhr));
    return figuresOf(result);
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');

async function main(): Promise<void> {
  const server = await startBuiltServer({ port, customers, admin, timeoutMs: 300_000 });
  let failed = false;
  try {
    console.log(`Lighthouse, ${runs} run(s) per row; scores as median (lowest)`);
    console.log(
      'page       preset   perf      a11y  best-pr  LCP ms  FCP ms  TBT ms  JS on the wire  charts',
    );
    for (const pageName of ['sign-in', 'dashboard'] as const) {
      for (const preset of ['mobile', 'desktop'] as const) {
        const all: Figures[] = [];
        for (let i = 0; i < runs; i += 1) all.push(await audit(pageName, preset));
        const perf = all.map((f) => f.performance);
        const row = {
          performance: median(perf),
          accessibility: Math.min(...all.map((f) => f.accessibility)),
          bestPractices: Math.min(...all.map((f) => f.bestPractices)),
          lcpMs: median(all.map((f) => f.lcpMs)),
          fcpMs: median(all.map((f) => f.fcpMs)),
          tbtMs: median(all.map((f) => f.totalBlockingTimeMs)),
          scriptBytes: Math.max(...all.map((f) => f.scriptBytes)),
          loadsChartCode: all.some((f) => f.loadsChartCode),
        };
        console.log(
          [
            pageName.padEnd(10),
            preset.padEnd(8),
            `${row.performance} (${Math.min(...perf)})`.padEnd(9),
            String(row.accessibility).padStart(4),
            String(row.bestPractices).padStart(8),
            row.lcpMs.toFixed(0).padStart(7),
            row.fcpMs.toFixed(0).padStart(7),
            row.tbtMs.toFixed(0).padStart(7),
            kib(row.scriptBytes).padStart(15),
            row.loadsChartCode ? 'YES' : 'no',
          ].join(' '),
        );
        const failing = [...new Set(all.flatMap((f) => f.failing))];
        if (failing.length > 0) console.log(`  failing audits: ${failing.join(', ')}`);
        const checks: [string, boolean][] = [
          [
            `performance ≥ ${PERFORMANCE_BUDGET[preset]}`,
            row.performance >= PERFORMANCE_BUDGET[preset],
          ],
          ['accessibility 100', row.accessibility === 100],
          ['best practices 100', row.bestPractices === 100],
          ['no chart code', !row.loadsChartCode],
        ];
        if (pageName === 'sign-in')
          checks.push([
            `JavaScript ≤ ${kib(SIGN_IN_JS_BUDGET_BYTES)}`,
            row.scriptBytes <= SIGN_IN_JS_BUDGET_BYTES,
          ]);
        for (const [name, ok] of checks) {
          failed ||= !ok;
          console.log(`  ${verdict(ok)} ${pageName} ${preset}: ${name}`);
        }
      }
    }
  } finally {
    await server.stop();
  }
  console.log(`\nLighthouse budgets: ${failed ? 'FAIL' : 'PASS'}`);
}

await main();
