import { ISR_RANGE_DAYS, type IsrRangeDays, type LocalRange } from '../../domain/isr';
import { Button } from '../Button';
import { TextField } from '../Field';
import styles from './IsrRangeControls.module.css';

/** Props of {@link IsrRangeControls}. */
export interface IsrRangeControlsProps {
  /** The range as the two datetime-local inputs show it (UTC, 'YYYY-MM-DDTHH:MM[:SS]'). */
  range: LocalRange;
  /** The range button the range came from (pressed), or null for a hand-made range. */
  activeDays: IsrRangeDays | null;
  /** Something is loading: Refresh reads 'Refreshing…' and is disabled (§2). */
  isRefreshing: boolean;
  /** 7D / 14D / 30D chosen (§4: start of the day N−1 days ago through now). */
  onPresetChange: (days: IsrRangeDays) => void;
  /** A datetime-local input changed: the new range. */
  onRangeChange: (range: LocalRange) => void;
  /** Reload everything for the range. */
  onRefresh: () => void;
}

/**
 * The Integrated Tracking range controls (§2): 7D, 14D (default), 30D buttons, two UTC
 * datetime-local inputs and Refresh ('Refreshing…' while loading).
 */
export function IsrRangeControls({
  range,
  activeDays,
  isRefreshing,
  onPresetChange,
  onRangeChange,
  onRefresh,
}: IsrRangeControlsProps) {
  return (
    <div className={styles.controls} role="group" aria-label="Range">
      <div className={styles.presets}>
        {ISR_RANGE_DAYS.map((days) => (
          <Button
            key={days}
            size="small"
            variant={activeDays === days ? 'primary' : 'default'}
            aria-pressed={activeDays === days}
            onClick={() => onPresetChange(days)}
          >
            {days}D
          </Button>
        ))}
      </div>
      <TextField
        label="From (UTC)"
        type="datetime-local"
        step={1}
        value={range.from}
        onValueChange={(from) => onRangeChange({ ...range, from })}
      />
      <TextField
        label="To (UTC)"
        type="datetime-local"
        step={1}
        value={range.to}
        onValueChange={(to) => onRangeChange({ ...range, to })}
      />
      <Button onClick={onRefresh} aria-disabled={isRefreshing || undefined} disabled={isRefreshing}>
        {isRefreshing ? 'Refreshing…' : 'Refresh'}
      </Button>
    </div>
  );
}
