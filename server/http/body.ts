/**
 * Request-body discipline for the API (docs/api.md "Errors"): a request that carries a body must
 * say `Content-Type: application/json` and hold well-formed JSON, else a clear 400 before any
 * route runs. Routes then read their input through `parseJsonBody` / `parseQuery` / `validate`
 * with zod schemas (fields in server/http/fields.ts): every bad input answers 400
 * `{error:'bad_request', message, issues:[{path, message}]}`.
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

/** One field problem of a 400 answer: the dotted field path ('' for the whole input) and a sentence. */
export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * The 400 ApiError for a failed zod parse: `issues` lists every field problem as {path, message};
 * `message` joins them with '; ', each prefixed with its path unless the sentence already starts
 * with the field's name (the fields of server/http/fields.ts name themselves).
 */
export function validationError(err: z.ZodError): ApiError {
  const issues: FieldIssue[] = err.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
  }));
  const sentences = issues.map((i) => {
    const field = i.path.split('.').pop() ?? '';
    return field === '' || i.message.startsWith(field) ? i.message : `${i.path}: ${i.message}`;
  });
  return badRequest(sentences.length > 0 ? sentences.join('; ') : 'Invalid request', issues);
}

/**
 * Parses `input` with `schema` → its output; throws the 400 of validationError when it does not
 * fit. The one entry point of request validation (queries, bodies, path parameters).
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * Reads and validates the JSON body with `schema` → its output. An empty body counts as `{}`
 * unless `required` (then 400 'A JSON object body is required'); otherwise 400 'The body is not
 * valid JSON', 'The body must be a JSON object', or the schema's field issues (validationError).
 * (Behind server/app.ts, jsonBodyGuard already refused malformed JSON and non-JSON types.)
 */
export async function parseJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  opts: { required?: boolean } = {},
): Promise<z.output<S>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() === '') {
    if (opts.required) throw badRequest('A JSON object body is required');
  } else {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest('The body is not valid JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      throw badRequest('The body must be a JSON object');
  }
  return validate(schema, value);
}

/** Validates the query string (single values, `c.req.query()`) with `schema` → its output, or the 400 of validationError. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return validate(schema, c.req.query());
}
