/**
 * "Sessions of operator N ended" travels through the database's NOTIFY, so every server instance
 * ends that operator's open event streams at once instead of at its next heartbeat check
 * (server/live/stream.ts re-checks each of the operator's streams when told).
 */
import type { Queryable } from '../db/types';

/** The NOTIFY channel; the payload is the operator's id. */
export const SESSIONS_ENDED_CHANNEL = 'admin_sessions_ended';

/** Announces, when `q`'s transaction commits, that sessions of `operatorId` ended. */
export async function notifySessionsEnded(q: Queryable, operatorId: number): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [SESSIONS_ENDED_CHANNEL, String(operatorId)]);
}
