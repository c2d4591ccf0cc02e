/**
 * The build's route documents, font preloads and compile hints (scripts/route-documents.ts; issue
 * 10 "Delivery", dashboard LCP): the graph helpers and the start-up chunk plan on hand-made
 * chunks and modules, and the plugin in a real Vite build of a small project (a shell, two
 * screens, a sign-in screen, a form part the sign-in screen shares with a screen, and a font).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPILE_HINT,
  insertIntoHead,
  planStartChunks,
  isPackageModule,
  routeDocuments,
  routePreloads,
  staticGraph,
  woff2In,
  type ChunkInfo,
  type ModuleNode,
  type RouteDocumentsOptions,
} from '../../../scripts/route-documents';
import { routeDocumentFile } from '../../../server/routeDocuments';

const chunk = (
  fileName: string,
  imports: string[],
  module: string | null = null,
  isEntry = false,
): [string, ChunkInfo] => [
  fileName,
  { fileName, imports, isEntry, moduleIds: module ? [`/root/${module}`] : [] },
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

  it('finds a module in a chunk that holds others too (a planned start-up chunk)', () => {
    const merged = new Map(chunks);
    merged.set('start.js', {
      fileName: 'start.js',
      imports: ['index.js', 'ui.js'],
      isEntry: false,
      moduleIds: ['/root/src/Shell.tsx', '/root/src/Dashboard.tsx'],
    });
    merged.delete('Shell.js');
    merged.delete('Dashboard.js');
    expect(
      routePreloads(merged, '/root', { '': ['src/Shell.tsx', 'src/Dashboard.tsx'] }).get(''),
    ).toEqual(['start.js', 'ui.js', 'form.js']);
  });

  it('fails, naming the table, when a module is in no chunk', () => {
    expect(() => routePreloads(chunks, '/root', { users: ['src/Users.tsx'] })).toThrow(
      /src\/Users\.tsx \(route 'users' in src\/app\/routeModules\.ts\) is in no chunk/,
    );
  });

  it('fails for a route segment the server would never serve a document for', () => {
    expect(() => routePreloads(chunks, '/root', { Login: ['src/Login.tsx'] })).toThrow(
      /route segment 'Login' .* is not one the server serves/,
    );
  });
});

describe('planStartChunks', () => {
  // main → react, client, dom (a package: React DOM); dom → react, scheduler (a package);
  // Login → form → client; Shell → layout → ui; Dashboard → ui, card; Users → form, ui, table;
  // card → react. '\0runtime' is a virtual module.
  const dom = '/app/node_modules/dom/client.js';
  const scheduler = '/app/node_modules/scheduler/index.js';
  const graph: Record<string, ModuleNode> = {
    main: { isEntry: true, importedIds: ['react', 'client', dom] },
    [dom]: { isEntry: false, importedIds: ['react', scheduler] },
    [scheduler]: { isEntry: false, importedIds: [] },
    react: { isEntry: false, importedIds: [] },
    client: { isEntry: false, importedIds: ['\0runtime'] },
    '\0runtime': { isEntry: false, importedIds: [] },
    Login: { isEntry: false, importedIds: ['form', 'loginArt'] },
    loginArt: { isEntry: false, importedIds: [] },
    form: { isEntry: false, importedIds: ['client'] },
    Shell: { isEntry: false, importedIds: ['layout', '\0runtime'] },
    layout: { isEntry: false, importedIds: ['ui'] },
    ui: { isEntry: false, importedIds: ['react'] },
    Dashboard: { isEntry: false, importedIds: ['ui', 'card'] },
    card: { isEntry: false, importedIds: ['react'] },
    Users: { isEntry: false, importedIds: ['form', 'ui', 'table'] },
    table: { isEntry: false, importedIds: [] },
  };
  const routes = {
    login: ['Login'],
    '': ['Shell', 'Dashboard'],
    users: ['Shell', 'Users'],
  };
  const plan = (r: Record<string, string[]> = routes) =>
    planStartChunks(Object.keys(graph), (id) => graph[id] ?? null, r);

  it('puts what the sign-in page shares with other routes in common (an entry module too), the rest of the landing route in start', () => {
    const { common, start } = plan();
    expect([...common].sort()).toEqual(['client', 'form']);
    expect([...start].sort()).toEqual(['Dashboard', 'Shell', 'card', 'layout', 'ui']);
  });

  it("puts the entry's other package modules in libs, whoever imports them", () => {
    expect([...plan().libs].sort()).toEqual([dom, scheduler]);
    // A package the sign-in page shares with other routes stays in common.
    const shared: Record<string, ModuleNode> = {
      ...graph,
      form: { isEntry: false, importedIds: ['client', scheduler] },
    };
    const { common, libs } = planStartChunks(
      Object.keys(shared),
      (id) => shared[id] ?? null,
      routes,
    );
    expect(common.has(scheduler)).toBe(true);
    expect([...libs]).toEqual([dom]);
    // Which modules are libraries is the caller's to say (default: a node_modules folder).
    expect(isPackageModule(dom) && isPackageModule('C:\\app\\node_modules\\dom\\a.js')).toBe(true);
    expect(isPackageModule('/app/src/node_modulesque.ts')).toBe(false);
    const none = planStartChunks(
      Object.keys(graph),
      (id) => graph[id] ?? null,
      routes,
      undefined,
      () => false,
    );
    expect(none.libs.size).toBe(0);
  });

  it("leaves the entry's other modules, virtual modules, sign-in-only code and other screens' code alone", () => {
    const { common, libs, start } = plan();
    for (const id of ['main', 'react', '\0runtime', 'Login', 'loginArt', 'Users', 'table'])
      expect(common.has(id) || libs.has(id) || start.has(id), id).toBe(false);
  });

  it('plans nothing for routes the table does not have', () => {
    const { common, start } = planStartChunks(Object.keys(graph), (id) => graph[id] ?? null, {
      users: ['Shell', 'Users'],
    });
    expect(common.size + start.size).toBe(0);
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

  /**
   * The chunk file (e.g. 'assets/start-x1.js') of the build in `dir` that holds the module `src`
   * (e.g. 'src/Shell.ts'), read from the chunks' hidden source maps.
   */
  const fileOf = (src: string, dir = 'dist') => {
    const assets = path.join(project, dir, 'assets');
    const maps = readdirSync(assets).filter((file) => file.endsWith('.js.map'));
    const found = maps.filter((map) =>
      (JSON.parse(readFileSync(path.join(assets, map), 'utf8')) as { sources: string[] }).sources
        .map((source) => path.resolve(assets, source))
        .includes(path.join(project, src)),
    );
    if (found.length !== 1) throw new Error(`${src} is in ${found.length} chunks of ${dir}`);
    return `assets/${found[0]!.replace(/\.map$/, '')}`;
  };
  const entryFile = (dir = 'dist') =>
    (
      JSON.parse(readFileSync(path.join(project, dir, '.vite', 'manifest.json'), 'utf8')) as Record<
        string,
        { file: string }
      >
    )['index.html']!.file;

  async function buildProject(options: RouteDocumentsOptions | null, outDir: string) {
    await build({
      root: project,
      base: '/admin/',
      logLevel: 'silent',
      configFile: false,
      plugins: options ? [routeDocuments({ routes: ROUTES, ...options })] : [],
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
    mkdirSync(path.join(project, 'node_modules', 'fakedom'), { recursive: true });
    const write = (file: string, text: string) => writeFileSync(path.join(project, file), text);
    // A package only the entry imports, as the console's entry alone imports React DOM.
    write(
      'node_modules/fakedom/package.json',
      JSON.stringify({ name: 'fakedom', type: 'module', main: 'index.js' }),
    );
    write(
      'node_modules/fakedom/index.js',
      `export function render(s) { return '{' + s + '}'; }\nexport const domText = ${JSON.stringify('dom '.repeat(2400))};\n`,
    );
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
    write('src/form.ts', `export function field(s: string) { return '[' + s + ']'; }\n`);
    write('src/Shell.ts', `import { ui } from './ui';\nexport const Shell = () => ui('shell');\n`);
    write(
      'src/Dashboard.ts',
      `import { ui } from './ui';\n${pad('dash')}export const Dashboard = () => ui('dash');\n`,
    );
    write(
      'src/Users.ts',
      `import { ui } from './ui';\nimport { field } from './form';\nexport const Users = () => ui('users') + field('q');\n`,
    );
    write(
      'src/Login.ts',
      `import { field } from './form';\nexport const Login = () => 'login' + field('email');\n`,
    );
    write(
      'src/main.ts',
      // The entry shares form.ts with the sign-in screen (as the console's entry shares React).
      `import './style.css';\nimport { render } from 'fakedom';\nimport { field } from './form';\n${pad('main')}const load = { shell: () => import('./Shell'), dashboard: () => import('./Dashboard'), users: () => import('./Users'), login: () => import('./Login') };\n(globalThis as Record<string, unknown>).load = [load, mainText, field, render];\n`,
    );
    await buildProject({ hintRoutes: ['login', ''] }, 'dist');
    await buildProject({ compileHints: false }, 'unhinted');
    await buildProject(null, 'plain');
  }, 60_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('plans the start-up chunks: the sign-in code other routes share in common, the landing route in start', () => {
    // Without the plugin, Rolldown cuts the shell, the dashboard and ui into chunks of their own.
    expect(
      new Set(['src/Shell.ts', 'src/Dashboard.ts', 'src/ui.ts'].map((src) => fileOf(src, 'plain')))
        .size,
    ).toBe(3);
    const start = fileOf('src/Shell.ts');
    expect(start).toMatch(/^assets\/start-[\w-]+\.js$/);
    expect(fileOf('src/Dashboard.ts')).toBe(start);
    expect(fileOf('src/ui.ts')).toBe(start);
    // form.ts, which the entry imports too, leaves the entry's chunk for common: the entry imports
    // common, and common imports nothing back.
    const common = fileOf('src/form.ts');
    expect(common).toMatch(/^assets\/common-[\w-]+\.js$/);
    expect(fileOf('src/form.ts', 'plain')).toBe(entryFile('plain'));
    expect(read(entryFile())).toContain(`./${path.posix.basename(common)}`);
    expect(read(common)).not.toMatch(/\bimport\b/);
    // The package only the entry imports leaves the entry's chunk for libs, which the entry
    // imports, and which imports nothing back.
    const libs = fileOf('node_modules/fakedom/index.js');
    expect(libs).toMatch(/^assets\/libs-[\w-]+\.js$/);
    expect(fileOf('node_modules/fakedom/index.js', 'plain')).toBe(entryFile('plain'));
    expect(read(entryFile())).toContain(`./${path.posix.basename(libs)}`);
    expect(read(libs)).not.toMatch(/\bimport\b/);
    // Sign-in-only code and other screens' code keep chunks of their own.
    for (const src of ['src/Login.ts', 'src/Users.ts'])
      expect([start, common, libs]).not.toContain(fileOf(src));
  });

  it("writes a document per route that preloads the route's chunks, and none of another route's", () => {
    const dashboard = read('routes', 'index.html');
    const users = read('routes', 'users.html');
    const login = read('routes', 'login.html');
    const index = read('index.html');
    const link = (file: string) => `<link rel="modulepreload" crossorigin href="/admin/${file}">`;
    const [start, common] = [fileOf('src/Shell.ts'), fileOf('src/form.ts')];
    // index.html preloads the entry's own chunks (common, which the entry imports).
    expect(index).toContain(link(common));
    expect(index).not.toContain(link(start));
    expect(dashboard).toContain(link(start));
    expect(dashboard).not.toContain(link(fileOf('src/Users.ts')));
    for (const file of [start, fileOf('src/Users.ts')]) expect(users).toContain(link(file));
    expect(login).toContain(link(fileOf('src/Login.ts')));
    expect(login).not.toContain(link(start));
    // The entry is loaded by its own script element, never preloaded again.
    expect(dashboard).not.toContain(link(entryFile()));
    // Each document is index.html plus its route's links, each chunk linked once.
    const links = (html: string) => html.match(/<link rel="modulepreload"[^>]*>/g) ?? [];
    const strip = (html: string) => html.replace(/\n\s*<link rel="modulepreload"[^>]*>/g, '');
    for (const doc of [dashboard, users, login]) {
      expect(strip(doc)).toBe(strip(index));
      expect(links(doc)).toEqual(expect.arrayContaining(links(index)));
      expect(new Set(links(doc)).size).toBe(links(doc).length);
    }
  });

  it('fails the build when a route names a module the build also imports statically', async () => {
    await expect(
      build({
        root: project,
        base: '/admin/',
        logLevel: 'silent',
        configFile: false,
        plugins: [routeDocuments({ routes: { users: ['src/ui.ts'] } })],
        build: { outDir: 'broken', write: false },
      }),
    ).rejects.toThrow(
      /src\/ui\.ts \(route 'users' in src\/app\/routeModules\.ts\) is not loaded lazily/,
    );
  });

  it('preloads the fonts from index.html and every route document', () => {
    const font =
      /<link rel="preload" as="font" type="font\/woff2" crossorigin href="\/admin\/assets\/font-[\w-]+\.woff2">/;
    for (const file of [['index.html'], ['routes', 'index.html'], ['routes', 'login.html']])
      expect(read(...file)).toMatch(font);
  });

  it('starts the start-up chunks of 8 KiB and more with the compile hint, inside the content hash and the source map', () => {
    const hinted = (file: string) => read(file).startsWith(`${COMPILE_HINT}\n`);
    expect(hinted(entryFile())).toBe(true); // the entry
    expect(hinted(fileOf('src/Dashboard.ts'))).toBe(true); // a hinted route's chunk
    expect(hinted(fileOf('src/Users.ts'))).toBe(false); // not a hinted route
    expect(hinted(fileOf('src/form.ts'))).toBe(false); // under 8 KiB

    // Against the same build without hints: the hinted code gains the one line and a name of its
    // own (the line counts in the content hash, so a file name never changes bytes); every
    // mapping moves down that line (';' = an empty first line), so the hidden maps still map.
    const mappings = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')) as { mappings: string }).mappings;
    const unhinted = (...parts: string[]) => path.join(project, 'unhinted', ...parts);
    // (A chunk importing a hinted chunk names a different file: content hashes are left out.)
    const unhashed = (code: string) => code.replace(/-[\w-]{8}\.js/g, '-<hash>.js');
    for (const [file, plainFile] of [
      [entryFile(), entryFile('unhinted')],
      [fileOf('src/Dashboard.ts'), fileOf('src/Dashboard.ts', 'unhinted')],
    ] as const) {
      expect(file).not.toBe(plainFile);
      expect(unhashed(read(file))).toBe(
        unhashed(`${COMPILE_HINT}\n${readFileSync(unhinted(plainFile), 'utf8')}`),
      );
      expect(mappings(out(`${file}.map`))).toBe(`;${mappings(unhinted(`${plainFile}.map`))}`);
    }
    // A chunk without the hint is the same code in both builds.
    expect(unhashed(read(fileOf('src/Users.ts')))).toBe(
      unhashed(readFileSync(unhinted(fileOf('src/Users.ts', 'unhinted')), 'utf8')),
    );
  });
});
