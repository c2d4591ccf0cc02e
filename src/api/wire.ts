/**
 * Lenient zod building blocks for wire JSON (snake_case answers of docs/api.md). Fields are
 * optional and nullable, numeric strings are accepted as numbers, numbers as strings; a field of
 * the wrong kind reads as null rather than failing the whole answer. Structure (an object where
 * an object is due, a list where a list is due, a row's id) is still checked.
 */
import { z } from './zod';
import { readNumber } from '../domain/stats';

/** Any value → string | null: strings as sent (blank → null), finite numbers stringified. */
export const wireString = z.pipe(
  z.optional(z.unknown()),
  z.transform((v): string | null => {
    if (typeof v === 'string') return v.trim() ? v : null;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    return null;
  }),
);

/** Any value → whole number | null (rounded): counts and integer cents. */
export const wireInt = z.pipe(
  z.optional(z.unknown()),
  z.transform((v): number | null => {
    const n = readNumber(v);
    return n === null ? null : Math.round(n) + 0;
  }),
);

/** Any value → boolean | null: true/false, 1/0, 'true'/'false', '1'/'0'. */
export const wireBool = z.pipe(
  z.optional(z.unknown()),
  z.transform((v): boolean | null => {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === '1' || v === 'true') return true;
    if (v === 0 || v === '0' || v === 'false') return false;
    return null;
  }),
);

/** A required number: a finite number or a numeric string ('17'). */
export const wireId = z.pipe(
  z.transform((v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v)),
  z.number(),
);

/** A JSON object (any keys) — the permissive shape of answers later screens build on. */
export const wireObject = z.record(z.string(), z.unknown());
/** A JSON object of any keys. */
export type WireObject = z.infer<typeof wireObject>;

/** Any value → a plain object, or null when it is not one. */
export function asObject(value: unknown): WireObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as WireObject)
    : null;
}

/** Any value → a list of plain objects (non-objects skipped); not a list → []. */
export function asObjectList(value: unknown): WireObject[] {
  return Array.isArray(value) ? value.map(asObject).filter((o): o is WireObject => o !== null) : [];
}

/** A string value or null (blank → null) — for reading already-validated bags. */
export function readString(value: unknown): string | null {
  return wireString.parse(value);
}

/** A whole number or null — for reading already-validated bags. */
export function readInt(value: unknown): number | null {
  return wireInt.parse(value);
}

/** A boolean or null — for reading already-validated bags. */
export function readBool(value: unknown): boolean | null {
  return wireBool.parse(value);
}
