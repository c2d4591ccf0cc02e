import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { CONFIG_ELEMENT_ID, consoleConfigScript, inlineConsoleConfig } from './static';
import { downDatabase, makeTestConfig, makeTestDeps } from './testing/deps';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/admin/assets/app-3f9a1c.js"></script></head><body><div id="root"></div></body></html>';
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; media-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** A hashed script, long enough that compression pays. */
const APP_JS = `console.log(${JSON.stringify('app '.repeat(400))});`;

let dir: string;
let emptyDir: string;
let outsideDir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mg-static-'));
  mkdirSync(path.join(dir, 'assets'));
  mkdirSync(path.join(dir, 'sounds'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'app-3f9a1c.js'), APP_JS);
  writeFileSync(path.join(dir, 'assets', 'app-3f9a1c.css'), 'body{margin:0}');
  // Precompressed copies as `npm run build` writes them (vite-plugin-compression2); the CSS
  // file has none, so it is always answered as is.
  writeFileSync(path.join(dir, 'assets', 'app-3f9a1c.js.br'), brotliCompressSync(APP_JS));
  writeFileSync(path.join(dir, 'assets', 'app-3f9a1c.js.gz'), gzipSync(APP_JS));
  writeFileSync(path.join(dir, 'assets', 'lone-1a2b3c.js'), APP_JS);
  writeFileSync(path.join(dir, 'assets', 'lone-1a2b3c.js.gz'), gzipSync(APP_JS));
  writeFileSync(path.join(dir, 'assets', 'app-3f9a1c.js.map'), '{"version":3,"sources":[]}');
  writeFileSync(path.join(dir, 'sounds', 'new-sub.mp3'), Buffer.from([0xff, 0xfb, 0x90, 0x00]));
  writeFileSync(
    path.join(dir, 'config.js'),
    'window.__MG_CONFIG__ = {"apiPrefix": "/from-the-build"};',
  );
  writeFileSync(path.join(dir, '.env'), 'SECRET=1');
  mkdirSync(path.join(dir, '.vite'));
  writeFileSync(path.join(dir, '.vite', 'manifest.json'), '{"SECRET": 1}');
  emptyDir = mkdtempSync(path.join(tmpdir(), 'mg-static-empty-'));
  outsideDir = mkdtempSync(path.join(tmpdir(), 'mg-static-outside-'));
  writeFileSync(path.join(outsideDir, 'secret.txt'), 'SECRET-OUTSIDE');
  symlinkSync(path.join(outsideDir, 'secret.txt'), path.join(dir, 'leak.txt'));
  symlinkSync(outsideDir, path.join(dir, 'linked'));
  symlinkSync(dir, path.join(emptyDir, 'dist-link'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
  rmSync(outsideDir, { recursive: true, force: true });
});

async function app(overrides: Parameters<typeof makeTestConfig>[0] = {}) {
  const config = await makeTestConfig({ staticDir: dir, ...overrides });
  return createApp(makeTestDeps(downDatabase(), config, { now: new Date('2026-11-20T09:00:00Z') }));
}

function expectSecurityHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(CSP);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
}

describe('console under /admin', () => {
  it('serves index.html at /admin/ with no-cache and the security headers', async () => {
    const res = await (await app()).request('/admin/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(INDEX);
    expectSecurityHeaders(res);
  });

  it('serves index.html for any other path under /admin (SPA fallback)', async () => {
    const a = await app();
    for (const p of [
      '/admin/login',
      '/admin/users',
      '/admin/subscriptions/42',
      '/admin/no/such/route',
      '/admin/sounds/',
    ]) {
      const res = await a.request(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      expect(await res.text(), p).toBe(INDEX);
      expectSecurityHeaders(res);
    }
  });

  it('serves hashed assets as immutable for a year with their content type', async () => {
    const a = await app();
    const js = await a.request('/admin/assets/app-3f9a1c.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe(APP_JS);
    expectSecurityHeaders(js);
    const css = await a.request('/admin/assets/app-3f9a1c.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 (not HTML) for a missing asset', async () => {
    const res = await (await app()).request('/admin/assets/app-000000.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).not.toContain('<html');
  });

  it('serves other files (sounds) revalidated, and answers 304 to a matching ETag', async () => {
    const a = await app();
    const res = await a.request('/admin/sounds/new-sub.mp3');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(
      new Uint8Array([0xff, 0xfb, 0x90, 0x00]),
    );
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await a.request('/admin/sounds/new-sub.mp3', {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('never serves files outside STATIC_DIR (dot segments, symlinks) or hidden files', async () => {
    const a = await app();
    const paths = [
      '/admin/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/admin/..%2f..%2fpackage.json',
      '/admin/.env',
      '/admin/.vite/manifest.json',
      '/admin/leak.txt',
      '/admin/linked/secret.txt',
    ];
    for (const p of paths) {
      const res = await a.request(p);
      const text = await res.text();
      expect(text, p).not.toContain('root:');
      expect(text, p).not.toContain('SECRET');
      expect(text, p).not.toContain('"name"');
    }
  });

  it('follows a STATIC_DIR that is itself a symlink', async () => {
    const res = await (
      await app({ staticDir: path.join(emptyDir, 'dist-link') })
    ).request('/admin/assets/app-3f9a1c.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(APP_JS);
  });

  it('redirects / and /admin to /admin/', async () => {
    const a = await app();
    for (const p of ['/', '/admin']) {
      const res = await a.request(p);
      expect(res.status, p).toBe(302);
      expect(res.headers.get('location'), p).toBe('/admin/');
      expectSecurityHeaders(res);
    }
  });

  it('answers a clear 503 page when the console is not built', async () => {
    const res = await (await app({ staticDir: emptyDir })).request('/admin/users');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('npm run build');
    expectSecurityHeaders(res);
  });
});

describe('precompressed assets (Accept-Encoding)', () => {
  const get = async (p: string, acceptEncoding?: string, method = 'GET') =>
    (await app()).request(p, {
      method,
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('prefers brotli, with Content-Encoding, Vary, the length sent and the immutable caching', async () => {
    const res = await get('/admin/assets/app-3f9a1c.js', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const body = await bytes(res);
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(body.length).toBeLessThan(APP_JS.length);
    expect(brotliDecompressSync(body).toString()).toBe(APP_JS);
    expectSecurityHeaders(res);
  });

  it('serves gzip when brotli is not accepted, identity when neither is, never a refused coding', async () => {
    for (const header of ['gzip', 'gzip, deflate', 'gzip, br;q=0']) {
      const res = await get('/admin/assets/app-3f9a1c.js', header);
      expect(res.headers.get('content-encoding'), header).toBe('gzip');
      expect(gunzipSync(await bytes(res)).toString(), header).toBe(APP_JS);
    }
    for (const header of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0', '*;q=0']) {
      const res = await get('/admin/assets/app-3f9a1c.js', header);
      expect(res.headers.get('content-encoding'), header).toBeNull();
      expect(res.headers.get('vary'), header).toBe('Accept-Encoding');
      expect(res.headers.get('content-length'), header).toBe(String(APP_JS.length));
      expect(await res.text(), header).toBe(APP_JS);
    }
  });

  it('falls back to the next coding, then to the file, when a copy is missing', async () => {
    const lone = await get('/admin/assets/lone-1a2b3c.js', 'br, gzip');
    expect(lone.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(lone)).toString()).toBe(APP_JS);
    const css = await get('/admin/assets/app-3f9a1c.css', 'br, gzip');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-encoding')).toBeNull();
    expect(css.headers.get('vary')).toBe('Accept-Encoding');
    expect(await css.text()).toBe('body{margin:0}');
  });

  it('answers HEAD with the headers of the chosen copy and no body', async () => {
    const get_ = await get('/admin/assets/app-3f9a1c.js', 'br');
    const length = (await bytes(get_)).length;
    const head = await get('/admin/assets/app-3f9a1c.js', 'br', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-encoding')).toBe('br');
    expect(head.headers.get('content-length')).toBe(String(length));
    expect((await bytes(head)).length).toBe(0);
  });

  it('gives each coding its own ETag and answers 304 only for the matching one', async () => {
    const br = await get('/admin/assets/app-3f9a1c.js', 'br');
    const plain = await get('/admin/assets/app-3f9a1c.js');
    const etag = br.headers.get('etag') ?? '';
    expect(etag).not.toBe(plain.headers.get('etag'));
    const again = await (
      await app()
    ).request('/admin/assets/app-3f9a1c.js', {
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('vary')).toBe('Accept-Encoding');
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const other = await (
      await app()
    ).request('/admin/assets/app-3f9a1c.js', { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
  });

  it('never serves source maps (404, not the SPA page)', async () => {
    for (const p of [
      '/admin/assets/app-3f9a1c.js.map',
      '/admin/assets/APP-3f9a1c.js.MAP',
      '/admin/x.map',
    ]) {
      const res = await get(p, 'br, gzip');
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain('sources');
    }
  });

  it('answers a compressed copy only through Accept-Encoding: named directly, it is a 404', async () => {
    for (const p of [
      '/admin/assets/app-3f9a1c.js.br',
      '/admin/assets/app-3f9a1c.js.gz',
      '/admin/assets/APP-3f9a1c.js.GZ',
      '/admin/index.html.br',
      '/admin/config.js.gz',
    ]) {
      const res = await get(p, 'br, gzip');
      expect(res.status, p).toBe(404);
      expect(res.headers.get('content-type'), p).not.toBe('application/octet-stream');
    }
  });
});

describe('the run-time configuration inlined into the document', () => {
  // index.html as the build writes it: the configuration is loaded by a deferred script.
  const TAGGED = INDEX.replace('<head>', '<head><script defer src="/admin/config.js"></script>');
  const blockOf = (html: string) =>
    /<script type="application\/json" id="mg-config">([^<]*)<\/script>/.exec(html)?.[1];
  let built: string;
  beforeAll(() => {
    built = mkdtempSync(path.join(tmpdir(), 'mg-static-config-'));
    writeFileSync(path.join(built, 'index.html'), TAGGED);
    // A compressed copy holds the tag, not the configuration: never served.
    writeFileSync(path.join(built, 'index.html.br'), brotliCompressSync(TAGGED));
  });
  afterAll(() => rmSync(built, { recursive: true, force: true }));
  const served = async (overrides: Parameters<typeof makeTestConfig>[0] = {}) => {
    const config = await makeTestConfig({ staticDir: built, ...overrides });
    return createApp(
      makeTestDeps(downDatabase(), config, { now: new Date('2026-11-20T09:00:00Z') }),
    );
  };

  it('replaces the config script with a JSON data block of the same configuration, at every address', async () => {
    const a = await served({ siteUrl: 'https://mg.example.org/', demoMode: true });
    for (const p of ['/admin/', '/admin/users/42', '/admin/no-such-screen', '/admin/index.html']) {
      const res = await a.request(p, { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(res.headers.get('content-encoding'), p).toBeNull();
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type'), p).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), p).toBe('no-cache');
      const html = await res.text();
      expect(html, p).not.toContain('config.js');
      expect(JSON.parse(blockOf(html) ?? 'null'), p).toEqual({
        apiPrefix: '/api/admin',
        defaultAdminEmail: 'admin@example.com',
        siteUrl: 'https://mg.example.org/',
      });
      expectSecurityHeaders(res); // script-src 'self' still: a data block is not a script
    }
    // The same object /admin/config.js sets, which stays for documents that load it.
    expect(await (await a.request('/admin/config.js')).text()).toBe(
      `window.__MG_CONFIG__ = ${blockOf(await (await a.request('/admin/')).text())};\n`,
    );
  });

  it('never publishes the admin email outside demo mode', async () => {
    const html = await (
      await (await served({ adminEmail: 'ops@example.org', demoMode: false })).request('/admin/')
    ).text();
    expect(JSON.parse(blockOf(html) ?? 'null')).toEqual({ apiPrefix: '/api/admin' });
    expect(html).not.toContain('ops@example.org');
  });

  it('escapes values so they cannot close the data block', () => {
    const html = inlineConsoleConfig(TAGGED, {
      apiPrefix: '/api/admin',
      adminEmail: 'a"</script><script>alert(1)//@example.com',
      demoMode: true,
    });
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the block's and the entry's
    expect(JSON.parse(blockOf(html) ?? 'null')).toEqual({
      apiPrefix: '/api/admin',
      defaultAdminEmail: 'a"</script><script>alert(1)//@example.com',
    });
    expect(
      inlineConsoleConfig(INDEX, { apiPrefix: '/x', adminEmail: 'a@example.com', demoMode: false }),
    ).toBe(INDEX);
    expect(CONFIG_ELEMENT_ID).toBe('mg-config');
  });

  it('answers the document with an ETag, 304 on a match, and HEAD without a body', async () => {
    const a = await served({ demoMode: true });
    const first = await a.request('/admin/users');
    const body = await first.text();
    const tag = first.headers.get('etag');
    expect(tag).toBeTruthy();
    const again = await a.request('/admin/users');
    expect(again.headers.get('etag')).toBe(tag);
    const notModified = await a.request('/admin/users', { headers: { 'If-None-Match': tag! } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    const head = await a.request('/admin/users', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(body).toContain('id="mg-config"');
  });

  it('serves a rebuilt document afresh', async () => {
    const a = await served({ demoMode: true });
    const file = path.join(built, 'index.html');
    const before = await (await a.request('/admin/users')).text();
    try {
      writeFileSync(file, TAGGED.replace('</head>', '<meta name="rebuilt" content="1"></head>'));
      const after = await (await a.request('/admin/users')).text();
      expect(after).toContain('name="rebuilt"');
      expect(after).not.toBe(before);
      expect(blockOf(after)).toBe(blockOf(before));
    } finally {
      writeFileSync(file, TAGGED);
    }
  });
});

describe('GET /admin/config.js', () => {
  it('answers the run-time config script, overriding any built config.js', async () => {
    const res = await (await app({ demoMode: true })).request('/admin/config.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe(
      'window.__MG_CONFIG__ = {"apiPrefix": "/api/admin", "defaultAdminEmail": "admin@example.com"};\n',
    );
  });

  it('carries the configured prefix and admin email (the email in demo mode only)', async () => {
    const res = await (
      await app({ apiPrefix: '/backend/v2', adminEmail: 'ops@example.org', demoMode: true })
    ).request('/admin/config.js');
    expect(await res.text()).toBe(
      'window.__MG_CONFIG__ = {"apiPrefix": "/backend/v2", "defaultAdminEmail": "ops@example.org"};\n',
    );
    // Outside demo mode the public script never names the admin.
    const real = await (
      await app({ apiPrefix: '/backend/v2', adminEmail: 'ops@example.org', demoMode: false })
    ).request('/admin/config.js');
    expect(await real.text()).toBe('window.__MG_CONFIG__ = {"apiPrefix": "/backend/v2"};\n');
  });

  it('carries the product links (SITE_URL, FORUM_URL) when set, and leaves them out when not', async () => {
    const both = await (
      await app({
        siteUrl: 'https://mg.example.org/',
        forumUrl: 'https://forum.mg.example.org',
        demoMode: true,
      })
    ).request('/admin/config.js');
    expect(await both.text()).toBe(
      'window.__MG_CONFIG__ = {"apiPrefix": "/api/admin", "defaultAdminEmail": "admin@example.com", "siteUrl": "https://mg.example.org/", "forumUrl": "https://forum.mg.example.org"};\n',
    );
    const forumOnly = await (
      await app({ forumUrl: 'https://forum.mg.example.org', demoMode: true })
    ).request('/admin/config.js');
    expect(await forumOnly.text()).toBe(
      'window.__MG_CONFIG__ = {"apiPrefix": "/api/admin", "defaultAdminEmail": "admin@example.com", "forumUrl": "https://forum.mg.example.org"};\n',
    );
  });

  it('escapes values so they cannot break out of the script', () => {
    const text = consoleConfigScript({
      apiPrefix: '/api/admin',
      adminEmail: 'a"</script><script>alert(1)//@example.com',
      demoMode: true,
    });
    expect(text).not.toContain('</script>');
    expect(text).toContain('\\"');
  });
});

describe('API answers', () => {
  it('carry the security headers and stay JSON for unknown paths', async () => {
    const a = await app();
    const health = await a.request('/api/admin/health');
    expectSecurityHeaders(health);
    expect(health.headers.get('cache-control')).toBe('no-store');
    const unknown = await a.request('/api/admin');
    expect(unknown.headers.get('content-type')).toMatch(/application\/json/);
    expectSecurityHeaders(unknown);
  });
});
