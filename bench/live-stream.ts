/**
 * Benchmark of the live event stream: a real server (startServer, in-memory
 * PGlite, real sockets) with N open `GET /api/admin/events/stream` connections read by fetch,
 * then BENCH_EVENTS events (default 1000) emitted one after another, each in its own transaction
 * (emitLiveEvent, as the webhooks and the access actions do). Prints, per N (BENCH_STREAMS,
 * default "1,50"):
 *
 * - **emit p50 / p95 ms**: the emitting transaction (insert + NOTIFY + commit);
 * - **delivery p50 / p95 / max ms**: from the start of the emitting transaction to the frame's
 *   arrival at each client (so it includes the commit), over every (event, stream) pair;
 * - **lost / duplicated**: frames that never arrived or arrived twice (should be 0 / 0).
 *
 * Server and clients share one Node process (and, on the CI machine, two cores with other
 * jobs), so the figures are an upper bound of what a separate browser sees. Measurements only;
 * no test asserts them.
 *
 *   npx tsx bench/live-stream.ts
 *   BENCH_STREAMS=1,50,200 BENCH_EVENTS=2000 npx tsx bench/live-stream.ts
 */
import { pino } from 'pino';
import { testSessionToken } from '../server/testing/deps';
import { emitLiveEvent } from '../server/live/emit';
import { startServer } from '../server/main';
import { testConfig } from '../server/testing/app';
import { SseReader } from '../server/testing/sse';
import { percentile } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1000);
const STREAMS = (process.env.BENCH_STREAMS ?? '1,50')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n > 0);

const fmt = (ms: number) => ms.toFixed(2).padStart(8);

async function measure(streams: number): Promise<void> {
  const config = testConfig({
    streamMaxPerSession: streams,
    streamMaxTotal: streams,
    streamHeartbeatMs: 15_000,
  });
  const running = await startServer(config, { seed: false, log: pino({ level: 'silent' }) });
  try {
    const token = await testSessionToken(running.deps.db, config, new Date());
    const url = `${running.url}${config.apiPrefix}/events/stream`;
    const readers: SseReader[] = [];
    for (let i = 0; i < streams; i++) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200 || !res.body) throw new Error(`stream ${i}: HTTP ${res.status}`);
      const reader = new SseReader(res.body);
      await reader.next(); // retry:
      readers.push(reader);
    }

    // NOTIFY reaches the hub during the commit, before the transaction's promise resolves:
    // the start time is recorded under the id the event will get (ids are sequential here).
    const next = await running.deps.db.query<{ id: number }>(
      'SELECT COALESCE(max(id), 0)::int + 1 AS id FROM live_events',
    );
    const firstId = next.rows[0]?.id ?? 1;
    const started = new Map<number, number>();
    const arrivals: number[][] = readers.map(() => []);
    const seen = readers.map(() => new Map<number, number>());
    let duplicated = 0;
    const consumers = readers.map(async (reader, i) => {
      for (;;) {
        const frame = await reader.nextEvent(10_000).catch(() => null);
        if (!frame?.id) return;
        const at = performance.now();
        const id = Number(frame.id);
        const count = (seen[i]!.get(id) ?? 0) + 1;
        seen[i]!.set(id, count);
        if (count > 1) duplicated++;
        else arrivals[i]!.push(id, at);
        if (seen[i]!.size === EVENTS) return;
      }
    });

    const emitMs: number[] = [];
    for (let n = 0; n < EVENTS; n++) {
      // Each event as its own macrotask, as webhook deliveries arrive: sockets get their turn.
      await new Promise((resolve) => setImmediate(resolve));
      const t0 = performance.now();
      const id = firstId + n;
      started.set(id, t0);
      const message = await running.deps.db.transaction((tx) =>
        emitLiveEvent(tx, {
          type: n % 10 === 0 ? 'subscription.renewal' : 'subscription.new',
          email: `buyer${n}@example.com`,
          provider: n % 2 === 0 ? 'lemonsqueezy' : 'clickbank',
          amount_cents: 1900 + n,
          currency: 'USD',
          at: new Date(),
        }),
      );
      emitMs.push(performance.now() - t0);
      if (message.id !== id) throw new Error(`expected id ${id}, got ${message.id}`);
    }
    await Promise.all(consumers);

    const latencies: number[] = [];
    let lost = 0;
    for (const list of arrivals) {
      for (let k = 0; k < list.length; k += 2) {
        const t0 = started.get(list[k]!);
        if (t0 !== undefined) latencies.push(list[k + 1]! - t0);
      }
      lost += EVENTS - list.length / 2;
    }
    console.log(
      `${String(streams).padStart(7)} ${String(EVENTS).padStart(6)} ${fmt(percentile(emitMs, 50))} ${fmt(percentile(emitMs, 95))}` +
        ` ${fmt(percentile(latencies, 50))} ${fmt(percentile(latencies, 95))} ${fmt(Math.max(...latencies))}` +
        ` ${String(lost).padStart(5)} ${String(duplicated).padStart(5)}`,
    );
    for (const r of readers) await r.cancel();
  } finally {
    await running.close();
  }
}

async function main() {
  console.log('streams events  emit50   emit95    del50    del95   delmax  lost   dup   (ms)');
  for (const n of STREAMS) await measure(n);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
