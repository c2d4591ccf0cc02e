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
