import { constants, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/**
 * The file types the build precompresses (scripts/compress-assets.ts writes .br and .gz copies)
 * and the server answers by Accept-Encoding with `Vary: Accept-Encoding` (server/static.ts); one
 * list, so the two never disagree (issue 10 "Delivery"). Images, audio and woff2 fonts are
 * compressed formats already; source maps are never served.
 */
export const COMPRESSIBLE_EXTENSIONS: ReadonlySet<string> = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.webmanifest',
  '.ttf',
  '.otf',
  '.ico',
]);

/**
 * Brotli settings of the compressed copies (the build's .br files, the documents the server
 * writes): best quality, with the input's size in bytes as a hint.
 */
export function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

/** Gzip settings of the compressed copies: level 9. */
export const GZIP_OPTIONS: ZlibOptions = { level: constants.Z_BEST_COMPRESSION };
