/**
 * Precompressed copies of the built console (issue 10 "Delivery"): after `vite build` has written
 * dist/, every compressible file of at least {@link MIN_COMPRESS_BYTES} gets a brotli (`<file>.br`,
 * quality 11) and a gzip (`<file>.gz`, level 9) sibling, each kept only when it is smaller than
 * the file itself. The reference server (server/static.ts) picks one by `Accept-Encoding`, so
 * nothing is compressed per request. node:zlib only, no dependency.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { brotliOptions, COMPRESSIBLE_EXTENSIONS, GZIP_OPTIONS } from '../server/compressible';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Files below this size (bytes) are left alone: the `Content-Encoding` and `Vary` headers would
 * outweigh the saving. From here up, brotli saves about a third even of a small chunk.
 */
export const MIN_COMPRESS_BYTES = 256;

/** Extensions worth compressing (server/compressible.ts: one list with what the server negotiates). */
export { COMPRESSIBLE_EXTENSIONS };

/** What {@link compressDirectory} wrote: per file, its raw, brotli and gzip sizes in bytes. */
export interface CompressedFile {
  /** Path relative to the directory, with '/' separators. */
  file: string;
  raw: number;
  /** Size of the .br copy, or null when brotli was not smaller (no copy written). */
  br: number | null;
  /** Size of the .gz copy, or null when gzip was not smaller (no copy written). */
  gz: number | null;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    // Hidden folders (dist/.vite: the build manifest) are never served.
    if (entry.isDirectory() && !entry.name.startsWith('.')) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/** Writes `data` to `target` when it is smaller than `raw` bytes; its size, or null. */
async function keepIfSmaller(target: string, data: Buffer, raw: number): Promise<number | null> {
  if (data.length >= raw) return null;
  await writeFile(target, data);
  return data.length;
}

/**
 * Writes `.br` and `.gz` siblings of every compressible file under `dir` (recursively) of at least
 * `minBytes` bytes. Existing `.br`/`.gz` files are inputs never, outputs always (overwritten).
 * Resolves to what it wrote, sorted by path.
 */
export async function compressDirectory(
  dir: string,
  minBytes: number = MIN_COMPRESS_BYTES,
): Promise<CompressedFile[]> {
  const jobs: Promise<CompressedFile>[] = [];
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE_EXTENSIONS.has(path.extname(file).toLowerCase())) continue;
    const size = (await stat(file)).size;
    if (size < minBytes) continue;
    jobs.push(
      (async () => {
        const body = await readFile(file);
        const [br, gz] = await Promise.all([
          brotli(body, brotliOptions(body.length)).then((data) =>
            keepIfSmaller(`${file}.br`, data, body.length),
          ),
          gzipAsync(body, GZIP_OPTIONS).then((data) =>
            keepIfSmaller(`${file}.gz`, data, body.length),
          ),
        ]);
        return {
          file: path.relative(dir, file).split(path.sep).join('/'),
          raw: body.length,
          br,
          gz,
        };
      })(),
    );
  }
  return (await Promise.all(jobs)).sort((a, b) => a.file.localeCompare(b.file));
}

/**
 * Vite plugin (build only): once the bundle and the public files are written, compresses the
 * output folder with {@link compressDirectory} and logs a one-line summary.
 */
export function compressAssets(): Plugin {
  let outDir = 'dist';
  let enabled = true;
  return {
    name: 'mg:compress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      // `storybook build` reuses vite.config.ts: its static Storybook is not served by us.
      enabled = !config.plugins.some((plugin) => plugin.name.startsWith('storybook:'));
    },
    async closeBundle() {
      if (!enabled) return;
      const files = await compressDirectory(outDir);
      const sum = (key: 'raw' | 'br' | 'gz') => files.reduce((t, f) => t + (f[key] ?? f.raw), 0);
      const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      this.info(
        `precompressed ${files.length} files: ${kib(sum('raw'))} raw → ${kib(sum('br'))} brotli, ${kib(sum('gz'))} gzip`,
      );
    },
  };
}
