/**
 * The build's route documents, font preloads and compile hints (scripts/route-documents.ts; issue
 * 10 "Delivery", dashboard LCP): the graph helpers on hand-made chunks, and the plugin in a real
 * Vite build of a small project (a shell, two screens, a sign-in screen and a font).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPILE_HINT,
  insertIntoHead,
  routeDocuments,
  routePreloads,
  staticGraph,
  woff2In,
  type ChunkInfo,
} from '../../../scripts/route-documents';
import { routeDocumentFile } from '../../../server/routeDocuments';

const chunk = (
  fileName: string,
  imports: string[],
  facade: string | null = null,
  isEntry = false,
): [string, ChunkInfo] => [
  fileName,
  { fileName, imports, isEntry, facadeModuleId: facade && `/root/${facade}` },
];

const chunks = new Map<string, ChunkInfo>([
  chunk('index.js', ['react.js'], 'index.html', true),
  chunk('react.js', []),
  chunk('Shell.js', ['index.js', 'react.js', 'ui.js'], 'src/Shell.tsx'),
  chunk('Dashboard.js', ['index.js', 'ui.js', 'stats.js'], 'src/Dashboard.tsx'),
  chunk('Login.js', ['index.js', 'form.js'], 'src/Login.tsx'),
  chunk('ui.js', ['react.js', 'form.js']),
  chunk('form.js', ['ui.js']), // a cycle
  chunk('stats.js', []),
]);

describe('staticGraph', () => {
  it('lists the start chunks and everything they import, once each, through cycles', () => {
    expect(staticGraph(['Dashboard.js'], chunks)).toEqual([
      'Dashboard.js',
      'index.js',
      'react.js',
      'ui.js',
      'form.js',
      'stats.js',
    ]);
    expect(staticGraph(['missing.js'], chunks)).toEqual([]);
  });
});

describe('routePreloads', () => {
  it("preloads each route's chunks and their imports, less what the entry loads itself", () => {
    const preloads = routePreloads(chunks, '/root', {
      login: ['src/Login.tsx'],
      '': ['src/Shell.tsx', 'src/Dashboard.tsx'],
    });
    expect(preloads.get('login')).toEqual(['Login.js', 'form.js', 'ui.js']);
    expect(preloads.get('')).toEqual(['Shell.js', 'ui.js', 'form.js', 'Dashboard.js', 'stats.js']);
  });

  it('fails, naming the table, when a module has no chunk of its own', () => {
    expect(() => routePreloads(chunks, '/root', { users: ['src/Users.tsx'] })).toThrow(
      /src\/Users\.tsx \(route 'users' in src\/app\/routeModules\.ts\) is not a lazily loaded chunk/,
    );
  });

  it('fails for a route segment the server would never serve a document for', () => {
    expect(() => routePreloads(chunks, '/root', { Login: ['src/Login.tsx'] })).toThrow(
      /route segment 'Login' .* is not one the server serves/,
    );
  });
});

describe('insertIntoHead, woff2In and routeDocumentFile', () => {
  it('adds tags at the end of the head, one a line, one step deeper than </head>', () => {
    const html = '<html>\n  <head>\n    <title>x</title>\n  </head>\n  <body></body>\n</html>';
    expect(insertIntoHead(html, ['<link a>', '<link b>'])).toBe(
      '<html>\n  <head>\n    <title>x</title>\n    <link a>\n    <link b>\n  </head>\n  <body></body>\n</html>',
    );
    expect(insertIntoHead(html, [])).toBe(html);
    expect(() => insertIntoHead('<p>no head</p>', ['<link>'])).toThrow(/no <\/head>/);
  });

  it("reads the woff2 files a stylesheet's url()s name, quoted or not, and no other format", () => {
    const css =
      '@font-face{src:url(/admin/assets/inter-400-Ab1.woff2) format("woff2"),url(/admin/assets/inter-400-Cd2.woff) format("woff")}' +
      '@font-face{src:url(\'./inter-700-Ef3.woff2\')}@font-face{src:url( "x/y-9.woff2" )}';
    expect(woff2In(css)).toEqual(['inter-400-Ab1.woff2', 'inter-700-Ef3.woff2', 'y-9.woff2']);
  });

  it('names the dashboard document routes/index.html, the others by their segment, and no odd one', () => {
    expect(routeDocumentFile('')).toBe('routes/index.html');
    expect(routeDocumentFile('users')).toBe('routes/users.html');
    expect(routeDocumentFile('isr')).toBe('routes/isr.html');
    for (const odd of [
      '..',
      '.hidden',
      'Users',
      'a.html',
      'a b',
      '../secret',
      '%2e%2e',
      'x'.repeat(65),
    ])
      expect(routeDocumentFile(odd), odd).toBeNull();
  });
});

describe('the plugin in a Vite build', () => {
  let project: string;
  const out = (...parts: string[]) => path.join(project, 'dist', ...parts);
  const read = (...parts: string[]) => readFileSync(out(...parts), 'utf8');
  const manifest = () =>
    JSON.parse(read('.vite', 'manifest.json')) as Record<string, { file: string }>;

  async function buildProject(withPlugin: boolean, outDir: string) {
    await build({
      root: project,
      base: '/admin/',
      logLevel: 'silent',
      configFile: false,
      plugins: withPlugin ? [routeDocuments({ routes: ROUTES, hintRoutes: ['login', ''] })] : [],
      build: { outDir, sourcemap: 'hidden', manifest: true, modulePreload: false, minify: false },
    });
  }

  const ROUTES = {
    login: ['src/Login.ts'],
    '': ['src/Shell.ts', 'src/Dashboard.ts'],
    users: ['src/Shell.ts', 'src/Users.ts'],
  };

  beforeAll(async () => {
    project = mkdtempSync(path.join(tmpdir(), 'mg-route-docs-'));
    mkdirSync(path.join(project, 'src'));
    const write = (file: string, text: string) => writeFileSync(path.join(project, file), text);
    write(
      'index.html',
      '<!doctype html>\n<html>\n  <head>\n    <title>t</title>\n  </head>\n  <body>\n    <script type="module" src="/src/main.ts"></script>\n  </body>\n</html>\n',
    );
    write('src/font.woff2', 'not really a font, but an asset all the same '.repeat(200));
    write(
      'src/style.css',
      '@font-face { font-family: F; src: url(./font.woff2) format("woff2"); }',
    );
    // Long enough (over 4 KiB) to be hinted; the padding keeps each module its own.
    const pad = (name: string) =>
      `export const ${name}Text = ${JSON.stringify(`${name} `.repeat(2400))};\n`;
    write('src/ui.ts', `${pad('ui')}export function ui(s: string) { return '<' + s + '>'; }\n`);
    write('src/Shell.ts', `import { ui } from './ui';\nexport const Shell = () => ui('shell');\n`);
    write(
      'src/Dashboard.ts',
      `import { ui } from './ui';\n${pad('dash')}export const Dashboard = () => ui('dash');\n`,
    );
    write('src/Users.ts', `import { ui } from './ui';\nexport const Users = () => ui('users');\n`);
    write('src/Login.ts', `export const Login = () => 'login';\n`);
    write(
      'src/main.ts',
      `import './style.css';\n${pad('main')}const load = { shell: () => import('./Shell'), dashboard: () => import('./Dashboard'), users: () => import('./Users'), login: () => import('./Login') };\n(globalThis as Record<string, unknown>).load = [load, mainText];\n`,
    );
    await buildProject(true, 'dist');
    await buildProject(false, 'plain');
  }, 60_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it("writes a document per route that preloads the route's chunks, and none of another route's", () => {
    const m = manifest();
    const dashboard = read('routes', 'index.html');
    const users = read('routes', 'users.html');
    const login = read('routes', 'login.html');
    const link = (file: string) => `<link rel="modulepreload" crossorigin href="/admin/${file}">`;
    for (const src of ['src/Shell.ts', 'src/Dashboard.ts'])
      expect(dashboard).toContain(link(m[src]!.file));
    expect(dashboard).not.toContain(link(m['src/Users.ts']!.file));
    expect(users).toContain(link(m['src/Users.ts']!.file));
    expect(login).toContain(link(m['src/Login.ts']!.file));
    expect(login).not.toContain(link(m['src/Shell.ts']!.file));
    // The entry is loaded by its own script element, never preloaded again.
    expect(dashboard).not.toContain(link(m['index.html']!.file));
    // Each document is index.html plus its links.
    const index = read('index.html');
    expect(dashboard.replace(/\n\s*<link rel="modulepreload"[^>]*>/g, '')).toBe(index);
  });

  it('preloads the fonts from index.html and every route document', () => {
    const font =
      /<link rel="preload" as="font" type="font\/woff2" crossorigin href="\/admin\/assets\/font-[\w-]+\.woff2">/;
    for (const file of [['index.html'], ['routes', 'index.html'], ['routes', 'login.html']])
      expect(read(...file)).toMatch(font);
  });

  it('starts the start-up chunks of 8 KiB and more with the compile hint, inside the content hash and the source map', () => {
    const m = manifest();
    const plain = JSON.parse(
      readFileSync(path.join(project, 'plain', '.vite', 'manifest.json'), 'utf8'),
    ) as Record<string, { file: string }>;
    const hinted = (src: string) => read(m[src]!.file).startsWith(`${COMPILE_HINT}\n`);
    expect(hinted('index.html')).toBe(true); // the entry
    expect(hinted('src/Dashboard.ts')).toBe(true); // a hinted route's screen
    expect(hinted('src/Users.ts')).toBe(false); // not a hinted route
    expect(hinted('src/Shell.ts')).toBe(false); // under 8 KiB

    // Against the same build without the plugin: the hinted code gains the one line and a name
    // of its own (the line counts in the content hash, so a file name never changes bytes); every
    // mapping moves down that line (';' = an empty first line), so the hidden maps still map.
    const mappings = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { mappings: string }).mappings;
    for (const src of ['index.html', 'src/Dashboard.ts']) {
      const [file, plainFile] = [m[src]!.file, plain[src]!.file];
      expect(file).not.toBe(plainFile);
      // (The entry imports a hinted chunk, whose name differs: content hashes are left out.)
      const unhashed = (code: string) => code.replace(/-[\w-]{8}\.js/g, '-<hash>.js');
      expect(unhashed(read(file))).toBe(
        unhashed(
          `${COMPILE_HINT}\n${readFileSync(path.join(project, 'plain', plainFile), 'utf8')}`,
        ),
      );
      expect(mappings(out(`${file}.map`))).toBe(
        `;${mappings(path.join(project, 'plain', `${plainFile}.map`))}`,
      );
    }
    // A chunk without the hint is the same file in both builds.
    expect(m['src/Users.ts']!.file).toBe(plain['src/Users.ts']!.file);
  });
});
