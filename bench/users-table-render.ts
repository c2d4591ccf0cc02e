/**
 * Production-mode figures for the UsersTable 500-row sort-change benchmark (see
 * users-table-render.md). Serves a built Storybook, opens the benchmark stories in Debian's
 * Chromium, lets their `play` run (it times 10 sort changes after 2 warm-ups per size), and
 * prints the `[bench]` lines the play logs with console.info, up to its '[bench] done'. It never
 * fails on a figure: machines differ.
 *
 *   npx storybook build -o /tmp/sb-static
 *   npx tsx bench/users-table-render.ts /tmp/sb-static [rounds]
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs, chromiumPath } from '../tests/chromium';

/** The stories whose play logs a `[bench]` line. */
const STORY_IDS = [
  'bench-userstable-render--five-hundred-rows',
  'bench-userstable-render--five-hundred-rows-unvirtualised',
];
/** How long one story may take to render and run its play, ms. */
const STORY_TIMEOUT_MS = 180_000;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.mp3': 'audio/mpeg',
};

async function main() {
  const root = path.resolve(process.argv[2] ?? 'storybook-static');
  const rounds = Number(process.argv[3] ?? 3);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const file = path.join(
      root,
      decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname),
    );
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res
        .writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' })
        .end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const id of STORY_IDS) {
        const page = await browser.newPage({
          viewport: { width: 1200, height: 900 },
          deviceScaleFactor: 1,
        });
        const done = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`${id}: no '[bench] done' within ${STORY_TIMEOUT_MS} ms`)),
            STORY_TIMEOUT_MS,
          );
          page.on('console', (message) => {
            const text = message.text();
            if (text === '[bench] done') {
              clearTimeout(timer);
              resolve();
            } else if (text.startsWith('[bench]')) {
              console.log(`round ${round}: ${text}`);
            }
          });
        });
        await page.goto(`http://127.0.0.1:${port}/iframe.html?id=${id}&viewMode=story`);
        await done;
        await page.close();
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
