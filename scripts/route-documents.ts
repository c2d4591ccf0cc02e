/**
 * Route documents and start-up hints for the built console (issue 10 "Delivery", dashboard LCP).
 * A Vite plugin (build only) that:
 *
 * 0. plans the start-up chunks ({@link planStartChunks}): the code the sign-in page shares with
 *    the signed-in console in one chunk ('common', the libraries the entry shares with the screens
 *    included), and everything else the landing route (the shell and the dashboard, where sign-in
 *    leads) needs beyond the entry in another ('start'), instead of the dozen small chunks
 *    Rolldown's automatic splitting cuts by which lazy modules share a module; the libraries only
 *    the entry imports (React DOM) go to a third ('libs'), out of the entry's own chunk. Each
 *    script costs the main thread a request to start and a response to take in (about 10 ms each
 *    at 4× CPU, measured), so the dashboard starts with 5 scripts instead of 16, and the sign-in
 *    page with 5 instead of 10, loading no code it did not load before. Other screens keep their
 *    own chunks, and list and chart code stays out of all three;
 * 1. preloads the entry's own chunks from index.html (`<link rel="modulepreload">`), so the
 *    browser fetches them alongside the entry instead of after reading it, and writes
 *    `routes/<segment>.html` (`routes/index.html` for the dashboard, '';
 *    server/routeDocuments.ts) for every route of src/app/routeModules.ts: the built index.html
 *    plus `<link rel="modulepreload">` for each chunk the route's lazily loaded modules import
 *    statically (the entry's own chunks excepted: index.html already loads them). The browser then
 *    fetches the shell and the screen with the entry, instead of after evaluating it and one
 *    import level at a time; the reference server (server/static.ts) answers each address with
 *    its route's document;
 * 2. preloads the web fonts the stylesheet uses (its .woff2 files) from index.html and every route
 *    document, so the first layout already has them instead of requesting them and laying the
 *    text out again;
 * 3. starts the chunks that run at start-up with V8's explicit compile hint
 *    `//# allFunctionsCalledOnLoad` (Chrome 136 and later; other engines ignore the comment): the
 *    chunks holding a module that the entry, or a route of COMPILE_HINT_ROUTES, imports statically,
 *    directly or not, of at least {@link MIN_HINTED_CHUNK_BYTES}. Chrome then compiles their
 *    functions while it streams the file and keeps them in its code cache, instead of compiling
 *    about 950 functions one by one on the main thread when each is first called (the largest
 *    single cost of a repeat visit's first paint). The line is Rolldown's `postBanner`, added
 *    after minification: it counts in the chunk's content hash (a file name never changes bytes)
 *    and Rolldown shifts the chunk's source map by it.
 *
 * A module named in ROUTE_MODULES that the build does not load lazily (by `import()`), or a route
 * segment the server could not serve, fails the build, so the table cannot silently drift from
 * the router. Storybook's build (which reuses vite.config.ts) is left alone.
 */
import path from 'node:path';
import { normalizePath, type Plugin } from 'vite';
import { COMPILE_HINT_ROUTES, ROUTE_MODULES } from '../src/app/routeModules';
import { ROUTE_SEGMENT_PATTERN, routeDocumentFile } from '../server/routeDocuments';

/** V8's explicit compile hint for a whole file. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Chunks whose modules add up to less than this (bytes of rendered code, before minification)
 * are not hinted: they hold a handful of functions, and the hint line would cost more on the wire
 * than it saves (the sign-in page loads several such chunks).
 */
export const MIN_HINTED_CHUNK_BYTES = 8192;

/** The parts of an output chunk the plugin reads. */
export interface ChunkInfo {
  /** The chunk's file, relative to the output folder (e.g. 'assets/start-x1.js'). */
  fileName: string;
  /** Statically imported chunks' file names. */
  imports: readonly string[];
  /** True for the entry chunk (the one index.html loads). */
  isEntry: boolean;
  /** Absolute paths of the modules the chunk holds. */
  moduleIds: readonly string[];
}

/**
 * `start` and every node `next` leads to from them, directly or not, once each, depth first (a
 * node before what it leads to, in `next`'s order), through cycles; nodes `skip` rejects are left
 * out, and not followed. The one graph walk of this file: over chunks and over modules.
 */
export function reachable(
  start: Iterable<string>,
  next: (node: string) => Iterable<string> | undefined,
  skip: (node: string) => boolean = () => false,
): Set<string> {
  const seen = new Set<string>();
  const visit = (node: string) => {
    if (seen.has(node) || skip(node)) return;
    seen.add(node);
    for (const following of next(node) ?? []) visit(following);
  };
  for (const node of start) visit(node);
  return seen;
}

/**
 * The file names of `start` and every chunk they import statically, directly or not, in a stable
 * order (depth first, imports before importers' siblings). Unknown names are skipped.
 */
export function staticGraph(start: readonly string[], chunks: ReadonlyMap<string, ChunkInfo>) {
  return [
    ...reachable(
      start,
      (file) => chunks.get(file)?.imports,
      (file) => !chunks.has(file),
    ),
  ];
}

/** The entry chunk's file and every chunk it imports statically ({@link staticGraph}), entry first. */
export function entryGraph(chunks: ReadonlyMap<string, ChunkInfo>): string[] {
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('route documents: the bundle has no entry chunk');
  return staticGraph([entry.fileName], chunks);
}

/**
 * Per route segment, the chunk files its document preloads: the static graph of the chunks
 * holding its modules, less the entry's own graph. Throws when a segment could not be served
 * (ROUTE_SEGMENT_PATTERN) or a named module is in no chunk.
 */
export function routePreloads(
  chunks: ReadonlyMap<string, ChunkInfo>,
  root: string,
  routes: Readonly<Record<string, readonly string[]>> = ROUTE_MODULES,
): Map<string, string[]> {
  const loadedByEntry = new Set(entryGraph(chunks));
  const byModule = new Map<string, string>();
  for (const chunk of chunks.values()) {
    for (const id of chunk.moduleIds) byModule.set(relativeModule(root, id), chunk.fileName);
  }
  const preloads = new Map<string, string[]>();
  for (const [segment, modules] of Object.entries(routes)) {
    if (!ROUTE_SEGMENT_PATTERN.test(segment))
      throw new Error(
        `route documents: the route segment '${segment}' (src/app/routeModules.ts) is not one the server serves (${String(ROUTE_SEGMENT_PATTERN)})`,
      );
    const files = modules.map((module) => {
      const file = byModule.get(module);
      if (!file)
        throw new Error(
          `route documents: ${module} (route '${segment}' in src/app/routeModules.ts) is in no chunk of the build; keep ROUTE_MODULES in step with src/app/router.tsx`,
        );
      return file;
    });
    preloads.set(
      segment,
      staticGraph(files, chunks).filter((file) => !loadedByEntry.has(file)),
    );
  }
  return preloads;
}

/** What {@link planStartChunks} reads of a module: whether it is an entry, its static imports. */
export interface ModuleNode {
  isEntry: boolean;
  /** Absolute ids of the modules it imports statically (`import`, not `import()`). */
  importedIds: readonly string[];
}

/** The two routes the start-up chunks are planned for (segments of ROUTE_MODULES). */
export interface StartRoutes {
  /** The sign-in page's segment ('login'). */
  signIn: string;
  /** Where signing in leads, the signed-in console's first screen ('': the dashboard). */
  landing: string;
}

/** The default {@link StartRoutes}: the console's sign-in page and dashboard. */
export const START_ROUTES: StartRoutes = { signIn: 'login', landing: '' };

/** The chunk names of {@link planStartChunks}'s groups (`assets/<name>-<hash>.js`). */
export const START_CHUNK_NAMES = { common: 'common', libs: 'libs', start: 'start' } as const;

/** A module of an installed package (its id has a node_modules folder). */
export const isPackageModule = (id: string) => /[\\/]node_modules[\\/]/.test(id);

const PLANNED_CHUNKS = new Set<string>(Object.values(START_CHUNK_NAMES));

/**
 * The start-up chunk plan: which modules go to the 'common', 'libs' and 'start' chunks (absolute
 * module ids). A route's code is the static closure of its modules (what they import, directly or
 * not, by `import`, not `import()`):
 * - common: the sign-in route's code that some other route's needs too (React, React Router,
 *   TanStack Query, zod, the API client, the form parts), the entry's own modules among them. So
 *   the sign-in page loads nothing it does not use;
 * - libs: the entry's other package modules (`isLibrary`: React DOM and its scheduler), so the
 *   entry's own chunk keeps only the console's start-up code (about 8 KB instead of 214 KB). That
 *   chunk's top level is on the stack of what the start-up code does first (the first GET, React
 *   DOM's start-up), and a browser with developer tools attached, as Playwright is, records the
 *   stacks of requests and errors: V8 then parses each frame's function again for its source
 *   positions, the whole file for a top level (about 40 ms at 4× CPU for 214 KB, measured as
 *   V8.CollectSourcePositions in a trace; React DOM's own module function, the other large frame,
 *   is spared by scripts/react-sentinels.ts). Libraries apart also keep their
 *   chunk's name, and so its cached copy, across releases of the console's own code. common, libs
 *   and the entry are three scripts that compile side by side;
 * - start: the landing route's code (the shell, the dashboard) that is neither the entry's nor
 *   common.
 *
 * Virtual modules ('\0…') are left to Rolldown. Every other route loads all three too (each is
 * signed in and needs the shell); code only they need is chunked as before.
 */
export function planStartChunks(
  moduleIds: Iterable<string>,
  moduleInfo: (id: string) => ModuleNode | null,
  routeModuleIds: Readonly<Record<string, readonly string[]>>,
  { signIn, landing }: StartRoutes = START_ROUTES,
  isLibrary: (id: string) => boolean = isPackageModule,
): { common: Set<string>; libs: Set<string>; start: Set<string> } {
  const closure = (start: Iterable<string>) =>
    reachable(
      start,
      (id) => moduleInfo(id)?.importedIds,
      (id) => id.startsWith('\0'),
    );
  const entry = closure([...moduleIds].filter((id) => moduleInfo(id)?.isEntry));
  const others = closure(
    Object.entries(routeModuleIds)
      .filter(([segment]) => segment !== signIn)
      .flatMap(([, modules]) => modules),
  );
  const common = new Set([...closure(routeModuleIds[signIn] ?? [])].filter((id) => others.has(id)));
  const libs = new Set([...entry].filter((id) => isLibrary(id) && !common.has(id)));
  const start = new Set(
    [...closure(routeModuleIds[landing] ?? [])].filter((id) => !entry.has(id) && !common.has(id)),
  );
  return { common, libs, start };
}

/** `id` (an absolute module path) relative to `root`, with '/' separators. */
function relativeModule(root: string, id: string): string {
  return path.relative(root, id).split(path.sep).join('/');
}

/**
 * `html` with `tags` inserted at the end of its head, one a line, indented one step deeper than
 * `</head>`. Throws when there is no `</head>`.
 */
export function insertIntoHead(html: string, tags: readonly string[]): string {
  const close = /([ \t]*)<\/head>/.exec(html);
  if (!close) throw new Error('route documents: index.html has no </head>');
  const indent = close[1] ?? '';
  const lines = tags.map((tag) => `${indent}  ${tag}\n`).join('');
  return html.slice(0, close.index) + lines + html.slice(close.index);
}

/** The .woff2 files a stylesheet's `url(…)`s name, by base name (e.g. 'inter-400-x1.woff2'). */
export function woff2In(css: string): string[] {
  return [...css.matchAll(/url\(\s*["']?([^"')]+\.woff2)["']?\s*\)/g)].map((m) =>
    path.posix.basename(m[1]!),
  );
}

/** `<link rel="modulepreload">` for a chunk, as Vite writes the entry's own. */
export const modulePreloadTag = (href: string) =>
  `<link rel="modulepreload" crossorigin href="${href}">`;

/** `<link rel="preload">` for a woff2 font (fonts are fetched in CORS mode, hence crossorigin). */
export const fontPreloadTag = (href: string) =>
  `<link rel="preload" as="font" type="font/woff2" crossorigin href="${href}">`;

/** Options of {@link routeDocuments} (tests build small projects of their own). */
export interface RouteDocumentsOptions {
  /** Per route segment, the lazily loaded modules it starts with (default: the app's ROUTE_MODULES). */
  routes?: Readonly<Record<string, readonly string[]>>;
  /** The routes whose start-up chunks get the compile hint (default: COMPILE_HINT_ROUTES). */
  hintRoutes?: readonly string[];
  /** The routes of the start-up chunk plan (default: START_ROUTES); null leaves chunking alone. */
  startRoutes?: StartRoutes | null;
  /** False writes no compile hint at all, the entry's included (default true). */
  compileHints?: boolean;
}

/** The Vite plugin: start-up preloads, route documents and compile hints (see the file comment). */
export function routeDocuments({
  routes = ROUTE_MODULES,
  hintRoutes = COMPILE_HINT_ROUTES,
  startRoutes = START_ROUTES,
  compileHints = true,
}: RouteDocumentsOptions = {}): Plugin {
  let root = process.cwd();
  let base = '/';
  let enabled = true;
  /** Modules that run at start-up: the static imports of the entry and of the hinted routes. */
  let startUpModules = new Set<string>();
  /** The start-up chunk plan ({@link planStartChunks}), made once the module graph is known. */
  let startChunks: ReturnType<typeof planStartChunks> = {
    common: new Set(),
    libs: new Set(),
    start: new Set(),
  };
  return {
    name: 'mg:route-documents',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
      enabled = !config.plugins.some((plugin) => plugin.name.startsWith('storybook:'));
    },
    buildEnd(error) {
      if (!enabled || error) return;
      const routeModuleIds = Object.fromEntries(
        Object.entries(routes).map(([segment, modules]) => [
          segment,
          modules.map((module) => {
            const id = normalizePath(path.resolve(root, module));
            const info = this.getModuleInfo(id);
            if (!info?.dynamicImporters.length || info.importers.length)
              throw new Error(
                `route documents: ${module} (route '${segment}' in src/app/routeModules.ts) is not loaded lazily (by import() only) in the build; keep ROUTE_MODULES in step with src/app/router.tsx`,
              );
            return id;
          }),
        ]),
      );
      if (startRoutes)
        startChunks = planStartChunks(
          this.getModuleIds(),
          (id) => this.getModuleInfo(id),
          routeModuleIds,
          startRoutes,
        );
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      const hinted = hintRoutes.flatMap((segment) => routeModuleIds[segment] ?? []);
      startUpModules = reachable(
        [...entries, ...hinted],
        (id) => this.getModuleInfo(id)?.importedIds,
      );
    },
    outputOptions(options) {
      if (!enabled) return null;
      const codeSplitting = typeof options.codeSplitting === 'object' ? options.codeSplitting : {};
      // Read when Rolldown chunks the bundle, after buildEnd has made the plan.
      const planned = (group: keyof typeof startChunks) => (id: string) =>
        startChunks[group].has(id);
      return {
        ...options,
        // One group per planned chunk, ahead of the configured groups, and with only the planned
        // modules: their dependencies are the entry's or another planned group's.
        codeSplitting:
          startRoutes && options.codeSplitting !== false
            ? {
                ...codeSplitting,
                groups: [
                  ...(Object.keys(START_CHUNK_NAMES) as (keyof typeof startChunks)[]).map(
                    (group) => ({
                      name: START_CHUNK_NAMES[group],
                      test: planned(group),
                      includeDependenciesRecursively: false,
                    }),
                  ),
                  ...(codeSplitting.groups ?? []),
                ],
              }
            : options.codeSplitting,
        postBanner: (chunk) => {
          const startsUp = chunk.moduleIds.some((id) => startUpModules.has(id));
          const size = Object.values(chunk.modules).reduce((t, m) => t + m.renderedLength, 0);
          // No banner is `undefined`: Rolldown writes an empty line for '' (its type asks for a
          // string). tests/unit/build/routeDocuments.test.ts holds an unhinted chunk to the
          // code of a build without hints.
          return compileHints && startsUp && size >= MIN_HINTED_CHUNK_BYTES
            ? COMPILE_HINT
            : (undefined as unknown as string);
        },
      };
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!enabled || index?.type !== 'asset') return;
      const chunks = new Map<string, ChunkInfo>();
      const fontFiles = new Map<string, string>();
      const stylesheets: string[] = [];
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks.set(output.fileName, output);
        else if (output.fileName.endsWith('.woff2'))
          fontFiles.set(path.posix.basename(output.fileName), output.fileName);
        else if (output.fileName.endsWith('.css')) stylesheets.push(String(output.source));
      }
      // The plan moves modules out of the entry and groups them without their dependencies: a
      // planned chunk that imported itself back would run its modules out of order.
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || !PLANNED_CHUNKS.has(output.name)) continue;
        if (staticGraph(output.imports, chunks).includes(output.fileName))
          throw new Error(
            `route documents: the planned '${output.name}' chunk (${output.fileName}) imports itself back through its imports (${output.imports.join(', ')}); see planStartChunks`,
          );
      }
      const fonts = [...new Set(stylesheets.flatMap(woff2In))]
        .map((name) => fontFiles.get(name))
        .filter((file): file is string => file !== undefined)
        .sort()
        .map((file) => fontPreloadTag(`${base}${file}`));
      const entryChunks = entryGraph(chunks)
        .slice(1)
        .map((file) => modulePreloadTag(`${base}${file}`));
      const html = insertIntoHead(String(index.source), [...entryChunks, ...fonts]);
      index.source = html;

      for (const [segment, files] of routePreloads(chunks, root, routes)) {
        this.emitFile({
          type: 'asset',
          fileName: routeDocumentFile(segment)!,
          source: insertIntoHead(
            html,
            files.map((file) => modulePreloadTag(`${base}${file}`)),
          ),
        });
      }
    },
  };
}
