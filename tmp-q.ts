import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const db = new PGlite(process.argv[2]!, { extensions: { pg_trgm } });
await db.waitReady;
async function time(label: string, q: string, n=4) {
  for (let i=0;i<n;i++){ const t=performance.now(); const r = await db.query(q); console.log(label, r.rows.length, (performance.now()-t).toFixed(0),'ms', i==0? JSON.stringify(r.rows[0]).slice(0,300):''); }
}
await time('size', `SELECT pg_size_pretty(pg_relation_size('subscriptions')) a, pg_size_pretty(pg_total_relation_size('subscriptions')) b`,1);
await db.exec(`CREATE INDEX IF NOT EXISTS sx ON subscriptions (status, ends_at) INCLUDE (provider, plan, source, cadence)`);
let t=performance.now(); await db.exec(`VACUUM ANALYZE subscriptions`); console.log('vacuum', performance.now()-t);
const q = `SELECT s.provider, s.plan, count(*) FROM subscriptions s WHERE (s.status IN ('active','trialing','past_due') OR (s.status='cancelled' AND s.ends_at > now())) GROUP BY 1,2`;
await time('active pies', q);
await time('explain', `EXPLAIN ANALYZE ${q}`,1);
const r = await db.query(`EXPLAIN ANALYZE ${q}`); console.log(r.rows.map((x:any)=>x['QUERY PLAN']).join('\n'));
await db.close();
