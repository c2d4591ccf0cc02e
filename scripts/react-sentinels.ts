/**
 * React DOM's sentinel errors without a captured stack, in the production build only (issue 10
 * "Delivery", dashboard LCP).
 *
 * When its module runs, React DOM's production client (react-dom-client.production.js) builds five
 * `Error` objects that it never shows anyone: values it throws and catches to unwind a render that
 * suspends, and compares by identity (`thrownValue === SuspenseException`). Building an `Error`
 * records the call stack. With an inspector attached, V8 records it with line and column numbers,
 * and to find them it parses again every function on the stack, here React DOM's whole module
 * function (about 200 KB): 50–120 ms of the dashboard's start-up at 4× CPU, in the middle of it.
 *
 * Every measurement of that budget has an inspector attached, because CPU throttling is a DevTools
 * setting; the DevTools panels and Playwright (bench/delivery.ts) also enable the Runtime domain,
 * which asks for those stacks (a bare DevTools client that only throttles does not: measured, 23
 * against 70 ms from `mg:entry` to `mg:entry-evaluated` at 4×). An operator's browser without
 * DevTools records a cheap stack without positions, so this saves them nothing. It makes the
 * budget measure the console instead of the inspector.
 *
 * The transform builds each sentinel as an object whose prototype is `Error.prototype`, with the
 * same `message` as an own, non-enumerable property: `instanceof Error`, `name`, `message` and
 * `String(error)` are unchanged and identity comparisons still hold; only `stack` is absent, and
 * React never reads the stack of these values. The build fails when the installed React DOM no
 * longer declares exactly these sentinels, so an upgrade is checked rather than silently unpatched.
 */
import type { Plugin } from 'vite';

/** The production client of React DOM, whose module-level sentinels are rewritten. */
export const REACT_DOM_CLIENT_PRODUCTION =
  /[\\/]react-dom[\\/]cjs[\\/]react-dom-client\.production\.js$/;

/** React DOM's module-level sentinel errors, by their names in react-dom-client.production.js. */
export const REACT_SENTINELS = [
  'HydrationMismatchException',
  'SuspenseException',
  'SuspenseyCommitException',
  'SuspenseActionException',
  'SelectiveHydrationException',
] as const;

/**
 * The helper the rewritten sentinels are built with, put on the line of the module's
 * `"use strict"` directive, after it: one line, so every line of the module keeps its number and
 * the existing source map stays right but for columns on the lines changed.
 */
export const STACKLESS_ERROR_HELPER =
  'function __mgStacklessError(message) { return Object.defineProperty(' +
  'Object.create(Error.prototype), "message", { value: message, writable: true, configurable: true }); }';

const USE_STRICT = '"use strict";';

/**
 * Rewrites each `<name> = Error(formatProdErrorMessage(<code>))` of {@link REACT_SENTINELS} in
 * React DOM's production client source to build the sentinel with {@link STACKLESS_ERROR_HELPER},
 * declared after the module's `"use strict"` directive (on its line, so no line moves).
 *
 * @param code the source of react-dom-client.production.js
 * @returns the rewritten source
 * @throws Error naming the sentinels that are not declared exactly once in that form, or when the
 *   module has no `"use strict"` directive (another React DOM version): the build must be looked
 *   at, not shipped unpatched.
 */
export function stacklessReactSentinels(code: string): string {
  let out = code;
  const unmatched: string[] = [];
  for (const name of REACT_SENTINELS) {
    const declaration = new RegExp(
      `\\b${name} = Error\\((formatProdErrorMessage\\(\\d+\\))\\)`,
      'g',
    );
    const found = out.match(declaration)?.length ?? 0;
    if (found !== 1) {
      unmatched.push(
        `${found} declarations of ${name} as "${name} = Error(formatProdErrorMessage(<code>))"`,
      );
      continue;
    }
    out = out.replace(declaration, `${name} = __mgStacklessError($1)`);
  }
  if (!out.includes(USE_STRICT)) unmatched.push('no "use strict" directive');
  if (unmatched.length > 0) {
    throw new Error(
      `scripts/react-sentinels.ts: react-dom-client.production.js has changed (${unmatched.join('; ')}); ` +
        `check the new React DOM's module-level errors and update REACT_SENTINELS.`,
    );
  }
  return out.replace(USE_STRICT, `${USE_STRICT} ${STACKLESS_ERROR_HELPER}`);
}

/** The Vite plugin: {@link stacklessReactSentinels} on React DOM's production client, in builds. */
export function reactSentinels(): Plugin {
  return {
    name: 'mg:react-sentinels',
    apply: 'build',
    transform: {
      filter: { id: REACT_DOM_CLIENT_PRODUCTION },
      handler(code) {
        // map: null keeps the module's source map (no line moved; see STACKLESS_ERROR_HELPER).
        return { code: stacklessReactSentinels(code), map: null };
      },
    },
  };
}
