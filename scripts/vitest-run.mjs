// Runs one Vitest project; under CI it also writes a JSON report for the closing summary line.
import { spawnSync } from 'node:child_process';

const project = process.argv[2];
const extra = process.argv.slice(3);
const args = ['vitest', 'run', '--project', project, ...extra];
if (process.env.CI) {
  args.push('--reporter=default', '--reporter=json', `--outputFile.json=reports/${project}.json`);
}
const result = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TZ: 'UTC' } });
process.exit(result.status ?? 1);
