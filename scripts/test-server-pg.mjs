// Runs the server test suite against a real PostgreSQL: `npm run test:server:pg`.
//
// - TEST_DATABASE_URL set → uses that server (the tests create and drop one database per opened
//   test database on it; the URL's user needs CREATEDB).
// - otherwise starts a throw-away cluster with scripts/pg-test-cluster.sh (needs Debian's
//   `postgresql` package) and its streaming replica (TEST_DATABASE_REPLICA_URL, for the
//   read-replica tests), runs the suite, and stops and deletes the cluster again.
// - PostgreSQL not installed and no URL → fails (exit 1) saying what to install; it never passes
//   silently.
// Under CI it also writes reports/server-postgres.json for the closing summary (ci-summary.mjs).
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cluster = path.join(root, 'scripts', 'pg-test-cluster.sh');
const extra = process.argv.slice(2);

let url = process.env.TEST_DATABASE_URL?.trim() || '';
let replicaUrl = process.env.TEST_DATABASE_REPLICA_URL?.trim() || '';
let clusterEnv = null;
if (!url) {
  clusterEnv = { ...process.env, PG_TEST_DIR: path.join(tmpdir(), `mg-pgtest-run-${process.pid}`) };
  const started = spawnSync('bash', [cluster, 'start'], {
    cwd: root,
    env: clusterEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (started.status === 3) {
    console.error(
      "test:server:pg: PostgreSQL is not installed. Install Debian's postgresql package " +
        '(apt-get install -y postgresql) or set TEST_DATABASE_URL to a server the tests may create databases on.',
    );
    process.exit(1);
  }
  const line = /TEST_DATABASE_URL=(\S+)/.exec(started.stdout ?? '');
  if (started.status !== 0 || !line) {
    console.error('test:server:pg: could not start the throw-away PostgreSQL cluster');
    process.exit(1);
  }
  url = line[1];
  replicaUrl = /TEST_DATABASE_REPLICA_URL=(\S+)/.exec(started.stdout ?? '')?.[1] ?? '';
  console.log(`test:server:pg: throw-away PostgreSQL cluster at ${url}, replica at ${replicaUrl}`);
}

const stop = () => {
  if (clusterEnv) {
    spawnSync('bash', [cluster, 'stop'], { cwd: root, env: clusterEnv, stdio: 'inherit' });
    clusterEnv = null;
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stop();
    process.exit(130);
  });
}

const args = ['vitest', 'run', '--project', 'unit', 'server', ...extra];
if (process.env.CI) {
  args.push(
    '--reporter=default',
    '--reporter=json',
    '--outputFile.json=reports/server-postgres.json',
  );
}
const result = spawnSync('npx', args, {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    TZ: 'UTC',
    TEST_DATABASE_URL: url,
    ...(replicaUrl ? { TEST_DATABASE_REPLICA_URL: replicaUrl } : {}),
  },
});
stop();
process.exit(result.status ?? 1);
