/**
 * Request-body discipline for the API (docs/api.md "Errors"): a request that carries a body must
 * say `Content-Type: application/json` and hold well-formed JSON, else a clear 400 before any
 * route runs. The parsed body stays cached, so routes call `c.req.json()` as usual.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import { bodyLimit } from 'hono/body-limit';
import { ApiError, badRequest } from '../errors';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Largest accepted JSON body, in bytes. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Middleware: for POST/PUT/PATCH/DELETE with a non-empty body, requires a JSON content type
 * (400 'Content-Type must be application/json, got "…"') and valid JSON (400 'Malformed JSON
 * body: …'). An empty body passes (e.g. POST /auth/logout). Size is capped by `jsonBodyLimit`.
 */
export function jsonBodyGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (!METHODS_WITH_BODY.has(c.req.method)) return next();
    const text = await c.req.text();
    if (text.trim() === '') return next();
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== 'application/json' && !/^application\/[a-z0-9.+-]*\+json$/.test(type)) {
      throw badRequest(`Content-Type must be application/json, got "${type || 'none'}"`);
    }
    try {
      JSON.parse(text);
    } catch (err) {
      throw badRequest(
        `Malformed JSON body: ${err instanceof Error ? err.message : 'cannot parse'}`,
      );
    }
    return next();
  };
}

/** Middleware: refuses bodies over MAX_JSON_BODY_BYTES with 413 `{error:'payload_too_large', message}` (streams, never buffers more). */
export function jsonBodyLimit(): MiddlewareHandler {
  return bodyLimit({
    maxSize: MAX_JSON_BODY_BYTES,
    onError: () => {
      throw new ApiError(
        413,
        'payload_too_large',
        `Request body exceeds ${MAX_JSON_BODY_BYTES} bytes`,
      );
    },
  });
}

/**
 * Parses the JSON body with a zod schema; an empty body counts as `{}`. Throws ZodError, which
 * the app answers as 400 `{error:'bad_request', message, issues}`.
 */
export async function parseJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<z.infer<S>> {
  const text = await c.req.text();
  return schema.parse(text.trim() === '' ? {} : JSON.parse(text)) as z.infer<S>;
}

/** Parses the query string (single values) with a zod schema; throws ZodError → 400 like parseJsonBody. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return schema.parse(c.req.query()) as z.infer<S>;
}
