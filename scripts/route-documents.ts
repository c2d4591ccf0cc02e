/**
 * Route documents and start-up hints for the built console (issue 10 "Delivery", dashboard LCP).
 * A Vite plugin (build only) that, once the bundle is complete:
 *
 * 1. writes `routes/<segment>.html` (`routes/index.html` for the dashboard, '') for every route
 *    of src/app/routeModules.ts: the built index.html plus `<link rel="modulepreload">` for each
 *    chunk the route's lazily loaded modules import statically (the entry's own chunks excepted:
 *    index.html already loads them). The browser then fetches the shell and the screen with the
 *    entry, instead of after evaluating it and one import level at a time; the reference server
 *    (server/static.ts) answers each address with its route's document;
 * 2. preloads the web fonts (every .woff2 the stylesheet uses) from index.html and every route
 *    document, so the first layout already has them instead of requesting them and laying the
 *    text out again;
 * 3. marks the chunks that run at start-up (the entry's, and those of COMPILE_HINT_ROUTES) of at
 *    least {@link MIN_HINTED_CHUNK_BYTES} with V8's explicit compile hint `//# allFunctionsCalledOnLoad`:
 *    V8 then compiles their functions while it streams the file, on a background thread, instead
 *    of one by one on the main thread when each is first called (about 950 functions at start-up,
 *    the largest single cost of the dashboard's first paint). Other engines ignore the comment. The
 *    hidden source map of a marked chunk is shifted by the added line, so it still maps exactly.
 *
 * A module named in ROUTE_MODULES that is not a lazily loaded chunk of the build fails the build,
 * so the table cannot silently drift from the router. Storybook's build (which reuses
 * vite.config.ts) is left alone.
 */
import path from 'node:path';
import type { Plugin } from 'vite';
import { COMPILE_HINT_ROUTES, ROUTE_MODULES } from '../src/app/routeModules';

/** V8's explicit compile hint for a whole file (V8 12.x; Chrome 136 and later). */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * Chunks smaller than this (bytes) are not marked: they hold a handful of functions, and the hint
 * line would cost more on the wire than it saves (the sign-in page loads several such chunks).
 */
export const MIN_HINTED_CHUNK_BYTES = 4096;

/** Folder of the route documents, under the output folder (served by server/static.ts). */
export const ROUTE_DOCUMENTS_DIR = 'routes';

/** The file name of the route document of `segment` ('' = the dashboard → index). */
export function routeDocumentName(segment: string): string {
  return `${segment === '' ? 'index' : segment}.html`;
}

/** The parts of an output chunk the plugin reads. */
export interface ChunkInfo {
  fileName: string;
  /** Statically imported chunks' file names. */
  imports: readonly string[];
  isEntry: boolean;
  /** Absolute path of the module the chunk stands for (a lazily loaded module's own chunk), if any. */
  facadeModuleId: string | null;
}

/**
 * The file names of `start` and every chunk they import statically, directly or not, in a stable
 * order (depth first, imports before importers' siblings). Unknown names are skipped.
 */
export function staticGraph(start: readonly string[], chunks: ReadonlyMap<string, ChunkInfo>) {
  const seen = new Set<string>();
  const visit = (file: string) => {
    const chunk = chunks.get(file);
    if (!chunk || seen.has(file)) return;
    seen.add(file);
    for (const imported of chunk.imports) visit(imported);
  };
  for (const file of start) visit(file);
  return [...seen];
}

/**
 * Per route segment, the chunk files its document preloads: the static graph of the chunks of its
 * ROUTE_MODULES, less the entry's own graph. Throws when a named module has no chunk of its own.
 */
export function routePreloads(
  chunks: ReadonlyMap<string, ChunkInfo>,
  root: string,
  routes: Readonly<Record<string, readonly string[]>> = ROUTE_MODULES,
): Map<string, string[]> {
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('route documents: the bundle has no entry chunk');
  const loadedByEntry = new Set(staticGraph([entry.fileName], chunks));
  const byModule = new Map<string, string>();
  for (const chunk of chunks.values()) {
    if (chunk.facadeModuleId)
      byModule.set(
        path.relative(root, chunk.facadeModuleId).split(path.sep).join('/'),
        chunk.fileName,
      );
  }
  const preloads = new Map<string, string[]>();
  for (const [segment, modules] of Object.entries(routes)) {
    const files = modules.map((module) => {
      const file = byModule.get(module);
      if (!file)
        throw new Error(
          `route documents: ${module} (route '${segment}' in src/app/routeModules.ts) is not a lazily loaded chunk of the build; keep ROUTE_MODULES in step with src/app/router.tsx`,
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
}

/** The Vite plugin: route documents, font preloads and compile hints (see the file comment). */
export function routeDocuments({
  routes = ROUTE_MODULES,
  hintRoutes = COMPILE_HINT_ROUTES,
}: RouteDocumentsOptions = {}): Plugin {
  let root = process.cwd();
  let base = '/';
  let enabled = true;
  return {
    name: 'mg:route-documents',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
      enabled = !config.plugins.some((plugin) => plugin.name.startsWith('storybook:'));
    },
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!enabled || index?.type !== 'asset') return;
      const chunks = new Map<string, ChunkInfo>();
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks.set(output.fileName, output);
      }

      const fonts = Object.values(bundle)
        .filter((output) => output.type === 'asset' && output.fileName.endsWith('.woff2'))
        .map((output) => fontPreloadTag(`${base}${output.fileName}`))
        .sort();
      const html = insertIntoHead(String(index.source), fonts);
      index.source = html;

      const preloads = routePreloads(chunks, root, routes);
      for (const [segment, files] of preloads) {
        this.emitFile({
          type: 'asset',
          fileName: `${ROUTE_DOCUMENTS_DIR}/${routeDocumentName(segment)}`,
          source: insertIntoHead(
            html,
            files.map((file) => modulePreloadTag(`${base}${file}`)),
          ),
        });
      }

      const entry = [...chunks.values()].find((chunk) => chunk.isEntry)!;
      const startUp = new Set(staticGraph([entry.fileName], chunks));
      for (const segment of hintRoutes) {
        for (const file of preloads.get(segment) ?? []) startUp.add(file);
      }
      for (const file of startUp) {
        const chunk = bundle[file];
        if (chunk?.type !== 'chunk' || Buffer.byteLength(chunk.code) < MIN_HINTED_CHUNK_BYTES)
          continue;
        chunk.code = `${COMPILE_HINT}\n${chunk.code}`;
        // One more line at the top: every mapping moves down a line (';' = an empty first line).
        if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
        const mapAsset = bundle[`${file}.map`];
        if (mapAsset?.type === 'asset') {
          const map = JSON.parse(String(mapAsset.source)) as { mappings: string };
          map.mappings = `;${map.mappings}`;
          mapAsset.source = JSON.stringify(map);
        }
      }
    },
  };
}
