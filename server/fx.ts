/**
 * Conversion into the reporting currency (REPORTING_CURRENCY, FX_RATES): one rule for the
 * dashboard (/stats, /status), the metrics overview and the ISR figures.
 */
import type { ServerConfig } from './context';

/**
 * The rate of `currency` into the reporting currency (1 unit of `currency` = rate units): 1 for
 * the reporting currency itself, the configured FX_RATES entry, or null when there is none (the
 * caller leaves that money out and says which currencies it left out).
 */
export function reportingRate(
  config: Pick<ServerConfig, 'fxRates' | 'reportingCurrency'>,
  currency: string,
): number | null {
  if (currency === config.reportingCurrency) return 1;
  const rate = config.fxRates[currency];
  return rate != null && Number.isFinite(rate) ? rate : null;
}
