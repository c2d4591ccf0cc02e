/**
 * The `SET LOCAL` statements of TransactionOptions.settings (server/db/types.ts), shared by the
 * PGlite and the PostgreSQL Db.
 */
import type { TransactionOptions } from './types';

const NAME = /^[a-z_]+$/;
const VALUE = /^[A-Za-z0-9_.]+$/;

/**
 * `settings` as one parameterless batch, `SET LOCAL a = 'x'; SET LOCAL b = 'y'`, or '' when there
 * are none. Throws (a programming error: settings come from code) on a name or value outside
 * NAME / VALUE, so nothing but a setting can reach the batch.
 */
export function setLocalSql(settings: TransactionOptions['settings']): string {
  if (!settings) return '';
  return Object.entries(settings)
    .map(([name, value]) => {
      if (!NAME.test(name) || !VALUE.test(value))
        throw new Error(
          `Not a transaction setting: ${JSON.stringify(name)} = ${JSON.stringify(value)}`,
        );
      return `SET LOCAL ${name} = '${value}'`;
    })
    .join('; ');
}
