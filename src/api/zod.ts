/**
 * The schema library at the console's boundary: zod's tree-shakable `zod/mini` build (issue 10
 * "Delivery": the full `zod` build was a 34 KiB gzip chunk on every page), with zod's English
 * messages configured once, so a malformed answer's issues (MalformedResponseError.issues,
 * '<path>: <message>') read exactly as they did with the full build. Import `z` from here, never
 * from 'zod' directly, so the messages are always configured.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * as z from 'zod/mini';
