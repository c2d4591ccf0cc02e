/**
 * Serves the built console under /admin (specification §1 base path; CONTRACT.md "Where things
 * live"): the run-time config script, hashed assets cached for a year, documents (index.html and
 * the route documents) revalidated on every load, with the run-time configuration inlined, and
 * for any other path under /admin its route's document (routes/<segment>.html, written by the
 * build: index.html that also preloads the route's chunks; issue 10 "Delivery";
 * server/routeDocuments.ts), else index.html (SPA fallback; the app redirects unknown routes
 * itself).
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import type { ServerConfig } from './context';
import { brotliOptions, COMPRESSIBLE_EXTENSIONS, GZIP_OPTIONS } from './compressible';
import { entryScriptOf, routeDocumentFile } from './routeDocuments';

/** Base path of the console (§1, §9). */
export const CONSOLE_BASE = '/admin';

/** Cache-Control of content-hashed files under /admin/assets/. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of index.html and every other unhashed file. */
export const REVALIDATE_CACHE = 'no-cache';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

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
 * mode: the configuration is public, and a real admin email is not published to anyone (issue 10
 * item 1; the console then pre-fills its own default). Every '<' is escaped (`\u003c`), so the
 * text can never close or open a tag in a script element.
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
 * dist/, or a document without the tag below): `window.__MG_CONFIG__ = <consoleConfigJson>;`.
 */
export function consoleConfigScript(config: ConsoleConfig): string {
  return `window.__MG_CONFIG__ = ${consoleConfigJson(config)};\n`;
}

/**
 * Id of the JSON data block that carries the run-time configuration inside a document served by
 * this server; src/api/config.ts reads the same id (CONFIG_ELEMENT_ID).
 */
export const CONFIG_ELEMENT_ID = 'mg-config';

/** The built documents' `<script … src="/admin/config.js"></script>` (index.html). */
const CONFIG_SCRIPT_TAG = /<script\b[^>]*\bsrc="\/admin\/config\.js"[^>]*><\/script>/;

/**
 * `html` with its config script tag replaced by the same configuration inlined as a JSON data
 * block, `<script type="application/json" id="mg-config">{…}</script>` (not run: no CSP hash
 * needed, and no script to compile). The console reads it where /admin/config.js is not loaded
 * (src/api/config.ts), so a document served here spares the browser one request that is never
 * cached (`no-store`) and that the module entry waits for (deferred scripts run in document
 * order): a round trip on every load, repeat visits included (issue 10 "Delivery"). A document
 * without the tag is returned unchanged.
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

interface FileHit {
  body: Buffer;
  mtimeMs: number;
  size: number;
}

/** Reads `file` when it is a regular file whose real path (symlinks resolved) lies inside `realRoot`. */
async function readRegularFile(file: string, realRoot: string): Promise<FileHit | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    const real = await realpath(file);
    if (!real.startsWith(realRoot + path.sep)) return null;
    return { body: await readFile(file), mtimeMs: info.mtimeMs, size: info.size };
  } catch {
    return null;
  }
}

function etagOf(hit: FileHit): string {
  return `W/"${hit.size.toString(16)}-${Math.floor(hit.mtimeMs).toString(16)}"`;
}

/** Content codings the build precompresses (scripts/compress-assets.ts), by file suffix. */
const ENCODINGS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
] as const;
type Encoding = (typeof ENCODINGS)[number];

/**
 * The precompressed codings an `Accept-Encoding` header accepts, best first (RFC 9110 §12.5.3):
 * q-values order them, br before gzip on a tie; `q=0` refuses a coding; `*` stands for any
 * coding not named; `x-gzip` is gzip. No header, or nothing acceptable → [] (identity).
 */
export function acceptedEncodings(header: string | undefined): Encoding[] {
  if (!header) return [];
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let weight = 1;
    for (const param of params) {
      if (param.startsWith('q='))
        weight = /^q=(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(param)
          ? Number(param.slice(2))
          : NaN;
    }
    if (Number.isNaN(weight)) continue; // a malformed q-value: the entry is ignored
    const coding = name === 'x-gzip' ? 'gzip' : name;
    q.set(coding, Math.max(q.get(coding) ?? 0, weight));
  }
  const weightOf = (coding: string) => q.get(coding) ?? q.get('*') ?? 0;
  return ENCODINGS.map((encoding, order) => ({
    encoding,
    order,
    weight: weightOf(encoding.coding),
  }))
    .filter((e) => e.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .map((e) => e.encoding);
}

/**
 * Answers `file` (whose identity bytes are `hit`): its precompressed sibling (`<file>.br`,
 * `<file>.gz`) when the request accepts that coding and the sibling exists, else the file itself.
 * Content-Type is the file's; Content-Encoding and Content-Length describe the bytes sent;
 * compressible types carry `Vary: Accept-Encoding`; each representation has its own ETag (a 304
 * for a matching If-None-Match). HEAD answers the same headers without a body.
 */
async function send(
  c: Context,
  hit: FileHit,
  file: string,
  cacheControl: string,
  realRoot: string,
): Promise<Response> {
  const ext = path.extname(file).toLowerCase();
  let chosen = hit;
  let coding: string | null = null;
  if (COMPRESSIBLE_EXTENSIONS.has(ext)) {
    for (const encoding of acceptedEncodings(c.req.header('accept-encoding'))) {
      const copy = await readRegularFile(file + encoding.suffix, realRoot);
      if (copy) {
        chosen = copy;
        coding = encoding.coding;
        break;
      }
    }
  }
  return answer(c, {
    body: chosen.body,
    etag: etagOf(chosen),
    contentType: MIME[ext] ?? 'application/octet-stream',
    cacheControl,
    mtimeMs: hit.mtimeMs,
    coding,
    vary: COMPRESSIBLE_EXTENSIONS.has(ext),
  });
}

/** One representation of a file, as {@link answer} sends it. */
interface Representation {
  /** The bytes sent (compressed when `coding` is set). */
  body: Buffer;
  /** Its ETag (each coding has its own). */
  etag: string;
  contentType: string;
  cacheControl: string;
  /** The file's modification time (ms since the epoch), for Last-Modified. */
  mtimeMs: number;
  /** Content-Encoding ('br', 'gzip'), or null for the identity bytes. */
  coding: string | null;
  /** True for a type answered by Accept-Encoding (`Vary: Accept-Encoding`). */
  vary: boolean;
}

/**
 * Answers `rep`: Content-Type, Cache-Control, ETag, Last-Modified, Vary and Content-Encoding as
 * given; a 304 without a body when If-None-Match names its ETag; else Content-Length and the body,
 * which HEAD leaves out.
 */
function answer(c: Context, rep: Representation): Response {
  const headers: Record<string, string> = {
    'Content-Type': rep.contentType,
    'Cache-Control': rep.cacheControl,
    ETag: rep.etag,
    'Last-Modified': new Date(rep.mtimeMs).toUTCString(),
  };
  if (rep.vary) headers.Vary = 'Accept-Encoding';
  if (rep.coding) headers['Content-Encoding'] = rep.coding;
  const inm = c.req.header('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim() === rep.etag)) return c.body(null, 304, headers);
  headers['Content-Length'] = String(rep.body.length);
  if (c.req.method === 'HEAD') return c.body(null, 200, headers);
  return c.body(new Uint8Array(rep.body), 200, headers);
}

/** One document as served: its bytes with the configuration inlined, and each compressed copy. */
interface InlinedDocument {
  /** Identity, brotli and gzip bytes, by coding ('identity', 'br', 'gzip'). */
  bodies: Map<string, Buffer>;
  /** A hash of the identity bytes, for the ETags. */
  hash: string;
}

/**
 * Answers an HTML document (`hit`, read from `file`) with the run-time configuration inlined
 * ({@link inlineConsoleConfig}): compressed here (brotli or gzip by Accept-Encoding, as
 * {@link send} picks; the build's precompressed copies hold the tag, not the configuration) and
 * kept in `cache` by file, modification time and size, so each document is rewritten and
 * compressed once per build. Each representation has its own ETag (a 304 for a matching
 * If-None-Match); HEAD answers the same headers without a body.
 */
function sendDocument(
  c: Context,
  hit: FileHit,
  file: string,
  cache: Map<string, InlinedDocument>,
  config: ConsoleConfig,
): Response {
  const key = `${file}\0${hit.mtimeMs}\0${hit.size}`;
  let document = cache.get(key);
  if (!document) {
    const identity = Buffer.from(inlineConsoleConfig(hit.body.toString('utf8'), config));
    document = {
      bodies: new Map([
        ['identity', identity],
        ['br', brotliCompressSync(identity, brotliOptions(identity.length))],
        ['gzip', gzipSync(identity, GZIP_OPTIONS)],
      ]),
      hash: createHash('sha256').update(identity).digest('hex').slice(0, 16),
    };
    // One entry per document of the build (a dozen); a rebuilt document replaces its old entry.
    for (const old of cache.keys()) if (old.startsWith(`${file}\0`)) cache.delete(old);
    cache.set(key, document);
  }
  const coding = acceptedEncodings(c.req.header('accept-encoding'))[0]?.coding ?? null;
  return answer(c, {
    body: document.bodies.get(coding ?? 'identity')!,
    etag: `W/"${document.hash}-${coding ?? 'identity'}"`,
    contentType: MIME['.html']!,
    cacheControl: REVALIDATE_CACHE,
    mtimeMs: hit.mtimeMs,
    coding,
    vary: true,
  });
}

/**
 * Router for GET/HEAD `/admin/*` (mount at the root): /admin/config.js (no-store, JavaScript),
 * existing files from `staticDir` (assets/* immutable for a year, others no-cache), each as its
 * brotli or gzip copy when the build wrote one and `Accept-Encoding` takes it, 404 for a source
 * map (`*.map`) and for a missing file under /admin/assets/, for any other path its route document
 * (server/routeDocuments.ts; only when it loads the same entry script as index.html) or else
 * index.html (both no-cache; every HTML document with the run-time configuration inlined and
 * compressed here, sendDocument), and a 503 page asking to run
 * `npm run build` when index.html is missing. Paths never escape `staticDir`.
 */
export function createConsoleRouter(
  config: Pick<
    ServerConfig,
    'apiPrefix' | 'adminEmail' | 'siteUrl' | 'forumUrl' | 'staticDir' | 'demoMode'
  >,
): Hono {
  const root = path.resolve(config.staticDir);
  let realRoot: string | null = null;
  const resolveRoot = async (): Promise<string> => {
    if (realRoot) return realRoot;
    try {
      realRoot = await realpath(root);
      return realRoot;
    } catch {
      return root; // not built yet: nothing to serve, index.html will be missing
    }
  };
  const router = new Hono();
  /** Documents with the configuration inlined, by file (sendDocument). */
  const documents = new Map<string, InlinedDocument>();

  router.get(`${CONSOLE_BASE}/config.js`, (c) =>
    c.body(consoleConfigScript(config), 200, {
      'Content-Type': 'application/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
    }),
  );

  router.get(`${CONSOLE_BASE}/*`, async (c) => {
    // c.req.path is already URI-decoded by Hono; decoding again would allow double-encoding tricks.
    const relative = c.req.path.slice(CONSOLE_BASE.length + 1);
    if (relative.includes('\0') || relative.includes('\\')) return c.text('Bad request path', 400);
    const file = path.resolve(root, relative);
    const inside = file === root || file.startsWith(root + path.sep);
    const hidden = relative.split('/').some((segment) => segment.startsWith('.'));
    // Source maps are built for debugging (hidden) but never published (issue 10 "Delivery").
    const sourceMap = relative.toLowerCase().endsWith('.map');
    if (inside && !hidden && !sourceMap && relative !== '' && !relative.endsWith('/')) {
      const real = await resolveRoot();
      const hit = await readRegularFile(file, real);
      if (hit) {
        if (path.extname(file).toLowerCase() === '.html')
          return sendDocument(c, hit, file, documents, config);
        const cache = relative.startsWith('assets/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE;
        return send(c, hit, file, cache, real);
      }
    }
    if (sourceMap) return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    // A missing hashed asset must not be answered with HTML that a browser would cache for a year.
    if (relative.startsWith('assets/'))
      return c.text('Not found', 404, { 'Cache-Control': 'no-store' });
    const real = await resolveRoot();
    const indexFile = path.join(root, 'index.html');
    const index = await readRegularFile(indexFile, real);
    if (!index) {
      return c.html(NOT_BUILT_PAGE, 503, { 'Cache-Control': 'no-store', 'Retry-After': '30' });
    }
    // The route's document, when the build wrote one and it loads the same entry as index.html
    // (a document left from an older build in the same folder would load that build's code).
    const routeDocument = routeDocumentFile(relative.split('/')[0] ?? '');
    if (routeDocument) {
      const routeFile = path.join(root, routeDocument);
      const hit = await readRegularFile(routeFile, real);
      if (
        hit &&
        entryScriptOf(hit.body.toString('utf8')) === entryScriptOf(index.body.toString('utf8'))
      )
        return sendDocument(c, hit, routeFile, documents, config);
    }
    return sendDocument(c, index, indexFile, documents, config);
  });

  return router;
}
