/**
 * Forum workers for tests: startTestWorker runs a real ForumWorker on `deps`
 * (NOTIFY wake-ups, fast polling) so that actions answer with their forum outcome as in
 * production; stopTestWorkers (in afterEach) stops every one started. Tests only.
 */
import type { AppDeps } from '../context';
import { ForumWorker, type ForumWorkerOptions } from '../outbox/worker';

const running: ForumWorker[] = [];

/** Starts a worker on `deps` (poll 50 ms unless given) → it; stop it with stopTestWorkers. */
export async function startTestWorker(
  deps: AppDeps,
  opts: ForumWorkerOptions = {},
): Promise<ForumWorker> {
  const worker = new ForumWorker(deps, { pollMs: 50, ...opts });
  await worker.start();
  running.push(worker);
  return worker;
}

/** Stops every worker startTestWorker started (waiting for attempts in progress). */
export async function stopTestWorkers(): Promise<void> {
  const all = running.splice(0);
  await Promise.all(all.map((w) => w.stop()));
}
