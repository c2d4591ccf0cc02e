/**
 * The schema library at the console's boundary: zod's tree-shakable `zod/mini` build, so each page
 * loads only the schemas it uses, with zod's English messages configured once, so a malformed
 * answer's issues (MalformedResponseError.issues, '<path>: <message>') read as the full build's
 * do. Import `z` from here, never from 'zod' directly, so the messages are always configured.
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * as z from 'zod/mini';
