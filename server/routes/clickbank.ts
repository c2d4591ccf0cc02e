/**
 * GET /clickbank/orders?email=… (specification §7 "/api/admin/clickbank/orders", i.e. under the
 * API prefix; §3 Marketplace order record; §2 "Order details"): the customer's ClickBank order
 * records, newest first, as `{local: {clickbank_details: [...]}}`. Without a valid email → 400;
 * an email with no orders answers an empty list (the console then says no local records exist).
 */
import { Hono } from 'hono';
import type { AppDeps } from '../context';
import { ordersByEmail, type OrderJson } from '../access/detail';
import { z } from 'zod';
import { badRequest } from '../errors';
import { parseQuery } from '../http/body';
import { emailParam } from '../http/fields';

/** The GET /clickbank/orders answer. */
export interface ClickbankOrdersJson {
  local: { clickbank_details: OrderJson[] };
}

/** The query string of GET /clickbank/orders: `email` (required; checked in the handler for its own message). */
export const clickbankOrdersQuery = z.object({ email: emailParam('email') });

/** Builds the ClickBank router (paths relative to the API prefix): GET /clickbank/orders. */
export function clickbankRoutes(deps: AppDeps): Hono {
  const r = new Hono();
  r.get('/clickbank/orders', async (c) => {
    const { email } = parseQuery(c, clickbankOrdersQuery);
    if (email === undefined)
      throw badRequest('email is required', [{ path: 'email', message: 'email is required' }]);
    const answer: ClickbankOrdersJson = {
      local: { clickbank_details: await ordersByEmail(deps.db, email) },
    };
    return c.json(answer);
  });
  return r;
}
