/**
 * Whether a module is the program node was started with, for the `if (entry) main()` guard of a
 * module that is also imported (by tests, by the bench).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * True when `argv1` (process.argv[1], the path node was given) names the module at `moduleUrl`
 * (its import.meta.url). Node resolves the module to its real path while argv keeps the path as
 * given, so a server started through a symlink (a release folder linked as `current`, a linked
 * node_modules) compares real paths; a path that does not exist is compared as given.
 */
export function isEntryModule(argv1: string | undefined, moduleUrl: string): boolean {
  if (argv1 == null) return false;
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(argv1) === real(fileURLToPath(moduleUrl));
}
