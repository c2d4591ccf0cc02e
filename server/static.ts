/**
 * Serves the built console under /admin (specification §1 base path; CONTRACT.md "Where things
 * live"): files from the build through @hono/node-server's `serveStatic` (the build's brotli and
 * gzip copies by Accept-Encoding), hashed assets cached for a year, everything else revalidated
 * (ETags from Hono's `etag`), and for any other path index.html with the run-time configuration
 * inlined (SPA fallback; the app redirects unknown routes itself).
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { etag } from 'hono/etag';
import type { ServerConfig } from './context';

/** Base path of the console (§1, §9). */
export const CONSOLE_BASE = '/admin';

/** Cache-Control of content-hashed files under /admin/assets/. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of index.html and every other unhashed file. */
export const REVALIDATE_CACHE = 'no-cache';

/** The server settings the console's run-time configuration is made of. */
type ConsoleConfig = Pick<
  ServerConfig,
  'apiPrefix' | 'adminEmail' | 'siteUrl' | 'forumUrl' | 'demoMode'
>;

/**
 * The console's run-time configuration as a JSON object text (CONTRACT.md run-time config):
 * `{"apiPrefix": …, "defaultAdminEmail": …, "siteUrl": …, "forumUrl": …}`, where siteUrl /
 * forumUrl (SITE_URL, FORUM_URL: the header's Website and Forum links) appear only when
 * configured, and defaultAdminEmail (the login form's pre-filled email, §2 Login) only in demo
 * mode: the configuration is public, and a real admin email is not published to anyone. Every
 * '<' is escaped (`\u003c`), so the text can never close or open a tag in a script element.
 */
export function consoleConfigJson(config: ConsoleConfig): string {
  const js = (value: string) => JSON.stringify(value).replace(/</g, '\\u003c');
  const fields: [string, string | null | undefined][] = [
    ['apiPrefix', config.apiPrefix],
    ['defaultAdminEmail', config.demoMode ? config.adminEmail : null],
    ['siteUrl', config.siteUrl],
    ['forumUrl', config.forumUrl],
  ];
  const body = fields
    .filter((field): field is [string, string] => typeof field[1] === 'string')
    .map(([key, value]) => `${js(key)}: ${js(value)}`)
    .join(', ');
  return `{${body}}`;
}

/**
 * The body of GET /admin/config.js, for documents that load it (another backend's copy of
 * dist/): `window.__MG_CONFIG__ = <consoleConfigJson>;`.
 */
export function consoleConfigScript(config: ConsoleConfig): string {
  return `window.__MG_CONFIG__ = ${consoleConfigJson(config)};\n`;
}

/**
 * Id of the JSON data block that carries the run-time configuration inside a document served by
 * this server; src/api/config.ts reads the same id (CONFIG_ELEMENT_ID).
 */
export const CONFIG_ELEMENT_ID = 'mg-config';

/** The built document's `<script … src="/admin/config.js"></script>` (index.html). */
const CONFIG_SCRIPT_TAG = /<script\b[^>]*\bsrc="\/admin\/config\.js"[^>]*><\/script>/;

/**
 * `html` with its config script tag replaced by the same configuration inlined as a JSON data
 * block, `<script type="application/json" id="mg-config">{…}</script>`. A data block is not run,
 * so the CSP needs no hash for it, and the page spares a never-cached request that the module
 * entry would wait for. A document without the tag is returned unchanged.
 */
export function inlineConsoleConfig(html: string, config: ConsoleConfig): string {
  return html.replace(
    CONFIG_SCRIPT_TAG,
    () =>
      `<script type="application/json" id="${CONFIG_ELEMENT_ID}">${consoleConfigJson(config)}</script>`,
  );
}

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Admin console not built</title></head>
<body><h1>Admin console not built</h1>
<p>The server found no <code>index.html</code> in its static folder (STATIC_DIR).
Run <code>npm run build</code>, then restart the server (or use <code>npm start</code>, which builds first).</p>
<p>The admin API itself is running.</p></body></html>
`;

/** The build's compressed copies, answered only through Accept-Encoding (serveStatic). */
const COMPRESSED_COPY = /\.(br|gz|zst)$/i;

/**
 * Whether `relative` (a path under the build folder, already URI-decoded) may be answered from
 * the build: no hidden segment (`.vite/manifest.json`), no source map (built for debugging,
 * never published), no compressed copy addressed by name, no NUL or backslash.
 */
function isPublishable(relative: string): boolean {
  if (relative.includes('\0') || relative.includes('\\')) return false;
  if (relative.split('/').some((segment) => segment.startsWith('.'))) return false;
  return !/\.map$/i.test(relative) && !COMPRESSED_COPY.test(relative);
}

/** True when `file` exists and its real path (symlinks resolved) lies inside `realRoot`. */
async function isInside(file: string, realRoot: string): Promise<boolean> {
  try {
    return (await realpath(file)).startsWith(realRoot + path.sep);
  } catch {
    return true; // missing: serveStatic finds nothing and the request falls through
  }
}

/**
 * Router for GET/HEAD `/admin/*` (mount at the root):
 * - /admin/config.js: the run-time configuration script (no-store);
 * - files of `staticDir`, through serveStatic with the build's precompressed copies: assets/*
 *   immutable for a year, others no-cache; ETags of the bytes sent (Hono's etag: 304 on
 *   If-None-Match; a HEAD, which has no body to hash, carries none);
 * - 404 for a hidden file, a source map, a compressed copy named directly, a file reached through
 *   a symlink out of `staticDir`, and a missing file under /admin/assets/ (never HTML that a
 *   browser would cache for a year);
 * - any other path: index.html with the run-time configuration inlined (no-cache), or a 503 page
 *   asking to run `npm run build` when there is none.
 */
export function createConsoleRouter(config: ConsoleConfig & Pick<ServerConfig, 'staticDir'>): Hono {
  const root = path.resolve(config.staticDir);
  const indexFile = path.join(root, 'index.html');
  /** index.html with the configuration inlined, kept until the build rewrites it. */
  let document: { mtimeMs: number; html: string } | null = null;
  const notFound = (c: Context) => c.text('Not found', 404, { 'Cache-Control': 'no-store' });
  const buildFile = serveStatic({
    root,
    precompressed: true,
    rewriteRequestPath: (p) => p.slice(CONSOLE_BASE.length),
  });

  const router = new Hono();
  router.get(`${CONSOLE_BASE}/config.js`, (c) =>
    c.body(consoleConfigScript(config), 200, {
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
    }),
  );

  router.use(`${CONSOLE_BASE}/*`, etag());
  router.get(`${CONSOLE_BASE}/*`, async (c, next) => {
    const relative = c.req.path.slice(CONSOLE_BASE.length + 1);
    if (relative === '' || relative.endsWith('/') || /\.html$/i.test(relative)) return next();
    if (!isPublishable(relative)) return notFound(c);
    const realRoot = await realpath(root).catch(() => root);
    if (!(await isInside(path.join(root, relative), realRoot))) return notFound(c);
    const file = await buildFile(c, async () => {});
    if (!file) return relative.startsWith('assets/') ? notFound(c) : next();
    const cache = relative.startsWith('assets/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE;
    file.headers.set('Cache-Control', cache);
    file.headers.set('Vary', 'Accept-Encoding');
    return file;
  });

  router.get(`${CONSOLE_BASE}/*`, async (c) => {
    const info = await stat(indexFile).catch(() => null);
    if (!info?.isFile()) {
      return c.body(NOT_BUILT_PAGE, 503, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        'Retry-After': '30',
      });
    }
    if (document?.mtimeMs !== info.mtimeMs) {
      const html = inlineConsoleConfig(await readFile(indexFile, 'utf8'), config);
      document = { mtimeMs: info.mtimeMs, html };
    }
    return c.body(document.html, 200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': REVALIDATE_CACHE,
    });
  });

  return router;
}
