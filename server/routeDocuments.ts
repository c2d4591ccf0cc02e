/**
 * Where the build puts the console's route documents and how they are named (issue 10
 * "Delivery"): scripts/route-documents.ts writes them, server/static.ts serves them; one module,
 * so the two never disagree (like server/compressible.ts).
 */

/** Folder of the route documents under the built console (dist/). */
export const ROUTE_DOCUMENTS_DIR = 'routes';

/** A route segment that can have a document: '' (the dashboard) or a plain lower-case name. */
export const ROUTE_SEGMENT_PATTERN = /^(?:|[a-z][a-z0-9-]{0,63})$/;

/**
 * The document of route `segment`, relative to the built console: `routes/index.html` for the
 * dashboard (''), `routes/<segment>.html` otherwise; null when `segment` does not match
 * {@link ROUTE_SEGMENT_PATTERN} (so no path can name another file).
 */
export function routeDocumentFile(segment: string): string | null {
  if (!ROUTE_SEGMENT_PATTERN.test(segment)) return null;
  return `${ROUTE_DOCUMENTS_DIR}/${segment === '' ? 'index' : segment}.html`;
}

/** The module script a built HTML document loads (its entry chunk's URL), or null. */
export function entryScriptOf(html: string): string | null {
  return /<script type="module"[^>]*\ssrc="([^"]+)"/.exec(html)?.[1] ?? null;
}
