/** Types of scripts/build-server.mjs (plain JavaScript, so the build needs no TypeScript runner). */
/** Bundles server/main.ts into `<outdir>/main.js` and copies the migrations to `<outdir>/migrations`. */
export function buildServer(outdir: string): Promise<{ outfile: string; migrations: number }>;
