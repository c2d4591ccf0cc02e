/**
 * One customer, whole, and find-anything search (docs/api.md "Customers", "Search"):
 * GET /customers/:email, GET /customers/:email/timeline, POST
 * /customers/:email/forum-jobs/:id/retry (support and up) and GET /search. The work is in
 * server/customers/; this router validates the input (zod, 400 with issues) and maps an unknown
 * customer to 404 `{error:'not_found', ok:false, code:'NOT_FOUND', message}`.
 *
 * `:email` is the URL-encoded address, matched case-insensitively (addresses are stored lower
 * case); one that is not an address is a 400.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { readDbOf, type AppDeps } from '../context';
import { recordAudit, requestActor } from '../audit/audit';
import { requireRole } from '../auth/roles';
import { ApiError } from '../errors';
import { validate } from '../http/body';
import { emailField, intParam, plainText, rowIdParam } from '../http/fields';
import { retryForumJob } from '../customers/forum';
import { customerRecord, findCustomer } from '../customers/record';
import {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LENGTH,
  SEARCH_MAX_LIMIT,
  search,
} from '../customers/search';
import {
  TIMELINE_DEFAULT_LIMIT,
  TIMELINE_KINDS,
  TIMELINE_MAX_LIMIT,
  customerTimeline,
  decodeCursor,
  type TimelineCursor,
  type TimelineKind,
} from '../customers/timeline';

/** 404 for an email no customer has, in the shape the console reads (code NOT_FOUND). */
function customerNotFound(email: string): ApiError {
  return new ApiError(404, 'not_found', `No customer with email ${email}`, {
    ok: false,
    code: 'NOT_FOUND',
  });
}

/** The `:email` path parameter → the lower-case address (400 when it is not one). */
const emailPath = z.object({ email: emailField('email') });

/** A query text: absent or blank → undefined, else trimmed, without control characters. */
const queryText = (name: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    plainText(name)
      .transform((t) => t.trim())
      .pipe(z.string().max(max, { error: `${name} must be at most ${max} characters` }))
      .optional(),
  );

/** GET /customers/:email/timeline's query: kind (comma list), before (cursor), limit. */
export const timelineQuery = z.object({
  kind: queryText('kind', 200).transform((t, ctx): TimelineKind[] => {
    if (t === undefined) return [];
    const words = t
      .split(',')
      .map((w) => w.trim().toLowerCase())
      .filter((w) => w !== '');
    const unknown = words.filter((w) => !(TIMELINE_KINDS as readonly string[]).includes(w));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `kind must be a comma-separated list of ${TIMELINE_KINDS.join(', ')} (got '${unknown[0]}')`,
        input: t,
      });
      return z.NEVER;
    }
    return TIMELINE_KINDS.filter((k) => words.includes(k));
  }),
  before: queryText('before', 200).transform((t, ctx): TimelineCursor | null => {
    if (t === undefined) return null;
    const cursor = decodeCursor(t);
    if (cursor === null) {
      ctx.addIssue({
        code: 'custom',
        message: 'before must be a next_before value of an earlier page',
        input: t,
      });
      return z.NEVER;
    }
    return cursor;
  }),
  limit: intParam('limit', 1, TIMELINE_MAX_LIMIT, TIMELINE_DEFAULT_LIMIT),
});

/** GET /search's query: q (trimmed, 1..200 characters) and limit. */
export const searchQuery = z.object({
  q: z
    .unknown()
    .refine((v) => typeof v === 'string' && v.trim() !== '', {
      error: 'q is required (1 to 200 characters)',
      abort: true,
    })
    .pipe(plainText('q'))
    .transform((t) => t.trim())
    .pipe(
      z
        .string()
        .max(SEARCH_MAX_LENGTH, { error: `q must be at most ${SEARCH_MAX_LENGTH} characters` }),
    ),
  limit: intParam('limit', 1, SEARCH_MAX_LIMIT, SEARCH_DEFAULT_LIMIT),
});

/** The retry path's job id. */
const jobPath = z.object({ id: rowIdParam('id') });

/** Builds the customers and search router (paths relative to the API prefix). */
export function customersRoutes(deps: AppDeps): Hono {
  const r = new Hono();

  r.get('/customers/:email', async (c) => {
    const { email } = validate(emailPath, { email: c.req.param('email') });
    const record = await customerRecord(deps, email);
    if (!record) throw customerNotFound(email);
    return c.json(record);
  });

  r.get('/customers/:email/timeline', async (c) => {
    const { email } = validate(emailPath, { email: c.req.param('email') });
    const q = validate(timelineQuery, c.req.query());
    const customer = await findCustomer(deps.db, email);
    if (!customer) throw customerNotFound(email);
    return c.json(
      await customerTimeline(deps.db, {
        customerId: customer.id,
        email,
        kinds: q.kind,
        before: q.before,
        limit: q.limit,
      }),
    );
  });

  r.post('/customers/:email/forum-jobs/:id/retry', requireRole('support'), async (c) => {
    const { email } = validate(emailPath, { email: c.req.param('email') });
    const { id } = validate(jobPath, { id: c.req.param('id') });
    if (id === undefined) throw new ApiError(400, 'bad_request', 'id must be a job id');
    if (!(await findCustomer(deps.db, email))) throw customerNotFound(email);
    const actor = requestActor(c, deps);
    try {
      const job = await retryForumJob(deps, email, id, actor);
      return c.json({ ok: true, job });
    } catch (err) {
      // A refusal changes nothing, so it is written on its own.
      if (err instanceof ApiError && err.status === 409) {
        await recordAudit(
          deps.db,
          actor,
          {
            action: 'forum.retry',
            target: email,
            outcome: 'refused',
            detail: { job_id: id, reason: err.message.slice(0, 200) },
          },
          deps.now(),
        );
      }
      throw err;
    }
  });

  r.get('/search', async (c) => {
    const q = validate(searchQuery, c.req.query());
    return c.json({ results: await search(readDbOf(deps), q.q, q.limit) });
  });

  return r;
}
