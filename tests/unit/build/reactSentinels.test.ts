/**
 * React DOM's sentinel errors without a captured stack (scripts/react-sentinels.ts; issue 10
 * "Delivery", dashboard LCP): the transform on the installed React DOM's production client, what
 * the rewritten sentinels are, and the build failing on a React DOM that declares them otherwise.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  REACT_DOM_CLIENT_PRODUCTION,
  REACT_SENTINELS,
  STACKLESS_ERROR_HELPER,
  stacklessReactSentinels,
} from '../../../scripts/react-sentinels';

/** The installed file (not exported by the package, so found in node_modules). */
const reactDomClientFile = fileURLToPath(
  new URL('../../../node_modules/react-dom/cjs/react-dom-client.production.js', import.meta.url),
);
const reactDomClient = readFileSync(reactDomClientFile, 'utf8');

/** The helper of {@link STACKLESS_ERROR_HELPER}, as a function. */
const stacklessError = new Function(`${STACKLESS_ERROR_HELPER} return __mgStacklessError;`)() as (
  message: string,
) => Error;

describe('stacklessReactSentinels on the installed React DOM', () => {
  const rewritten = stacklessReactSentinels(reactDomClient);

  it('matches the production client file by its path', () => {
    expect(REACT_DOM_CLIENT_PRODUCTION.test(reactDomClientFile)).toBe(true);
    expect(
      REACT_DOM_CLIENT_PRODUCTION.test(reactDomClientFile.replace('.production', '.development')),
    ).toBe(false);
  });

  it('builds every module-level sentinel with the helper and no other Error', () => {
    for (const name of REACT_SENTINELS) {
      expect(reactDomClient).toMatch(
        new RegExp(`\\b${name} = Error\\(formatProdErrorMessage\\(\\d+\\)\\)`),
      );
      expect(rewritten).toMatch(
        new RegExp(`\\b${name} = __mgStacklessError\\(formatProdErrorMessage\\(\\d+\\)\\)`),
      );
      expect(rewritten).not.toMatch(new RegExp(`\\b${name} = Error\\(`));
    }
    // Errors built where they are thrown (inside functions) are left alone.
    const errorCalls = (code: string) => code.match(/\bError\(/g)?.length ?? 0;
    expect(errorCalls(rewritten)).toBe(errorCalls(reactDomClient) - REACT_SENTINELS.length);
  });

  it('keeps the strict mode directive first and every line where it was', () => {
    expect(rewritten.split('\n')).toHaveLength(reactDomClient.split('\n').length);
    const useStrictLine = reactDomClient.split('\n').findIndex((line) => line === '"use strict";');
    expect(rewritten.split('\n')[useStrictLine]).toBe(`"use strict"; ${STACKLESS_ERROR_HELPER}`);
    // Still valid code for a CommonJS wrapper (compiled here, not run).
    expect(() => new Function('exports', 'require', 'module', rewritten)).not.toThrow();
  });
});

describe('the stackless sentinel', () => {
  it('is an Error with its message, but no stack', () => {
    const sentinel = stacklessError('Minified React error #460');
    expect(sentinel).toBeInstanceOf(Error);
    expect(sentinel.name).toBe('Error');
    expect(sentinel.message).toBe('Minified React error #460');
    expect(String(sentinel)).toBe('Error: Minified React error #460');
    expect(Object.keys(sentinel)).toEqual([]);
    expect(sentinel.stack).toBeUndefined();
    expect(stacklessError('a')).not.toBe(stacklessError('a'));
  });
});

describe('stacklessReactSentinels on another React DOM', () => {
  it('fails, naming what changed, when a sentinel is declared otherwise', () => {
    const changed = reactDomClient.replace(
      'SuspenseException = Error(formatProdErrorMessage(460))',
      'SuspenseException = createSentinel(460)',
    );
    expect(() => stacklessReactSentinels(changed)).toThrow(
      /0 declarations of SuspenseException as "SuspenseException = Error\(formatProdErrorMessage\(<code>\)\)"/,
    );
  });

  it('fails when the module has no strict mode directive', () => {
    expect(() => stacklessReactSentinels(reactDomClient.replace('"use strict";', ''))).toThrow(
      /no "use strict" directive/,
    );
  });
});
