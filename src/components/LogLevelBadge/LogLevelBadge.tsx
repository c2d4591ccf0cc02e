import { DASH } from '../../domain/format';
import { logLevelTone } from '../../domain/status';
import { Badge } from '../Badge';

/** Props of {@link LogLevelBadge}. */
export interface LogLevelBadgeProps {
  /** The entry's level as sent (§9: trace, debug, info, warn, error, fatal); others grey, missing a dash. */
  level: string | null | undefined;
}

/**
 * A log level pill (§2 Logs): trace and debug grey, info blue, warn yellow, error red, fatal
 * purple. The text is the level itself, so colour is never the only cue.
 */
export function LogLevelBadge({ level }: LogLevelBadgeProps) {
  const text = String(level ?? '').trim();
  return <Badge tone={logLevelTone(text)}>{text ? text.toLowerCase() : DASH}</Badge>;
}
