import type { FormEvent } from 'react';
import {
  CADENCES,
  PROVIDER_STATUSES,
  PROVIDERS,
  type Cadence,
  type Provider,
  type ProviderStatus,
  type SubscriptionsFilters,
} from '../../domain/types';
import { Button } from '../Button';
import { SelectField, TextField, type SelectOption } from '../Field';
import styles from './SubscriptionsFilterRow.module.css';

/** Props of {@link SubscriptionsFilterRow}. */
export interface SubscriptionsFilterRowProps {
  /** Current filter values (controlled); '' means "any". Dates are 'YYYY-MM-DD' UTC days. */
  filters: SubscriptionsFilters;
  /** Called with the whole new filter set on every change (the screen trims, debounces, resets page). */
  onFiltersChange: (filters: SubscriptionsFilters) => void;
  /** Clear: the screen resets every filter and returns to page 1 (§2). */
  onClearAll: () => void;
}

/** Provider select (§2): All, then the two provider values. */
const PROVIDER_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'All' },
  ...PROVIDERS.map((provider) => ({ value: provider, label: provider })),
];
/** Status select (§2): Any, then active, trialing, paused, past_due, cancelled. */
const STATUS_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Any' },
  ...PROVIDER_STATUSES.map((status) => ({ value: status, label: status })),
];
const CADENCE_LABELS: Record<Cadence, string> = { monthly: 'Monthly', yearly: 'Yearly' };
/** Cadence select (§2): Any, Monthly, Yearly (values monthly / yearly). */
const CADENCE_OPTIONS: readonly SelectOption[] = [
  { value: '', label: 'Any' },
  ...CADENCES.map((cadence) => ({ value: cadence, label: CADENCE_LABELS[cadence] })),
];

/** The four date ranges of §2, in display order: label prefix and the two filter keys. */
const DATE_RANGES = [
  { label: 'Start', from: 'startFrom', to: 'startTo' },
  { label: 'Renew', from: 'renewFrom', to: 'renewTo' },
  { label: 'Expire', from: 'expireFrom', to: 'expireTo' },
  { label: 'Updated', from: 'updatedFrom', to: 'updatedTo' },
] as const satisfies readonly {
  label: string;
  from: keyof SubscriptionsFilters;
  to: keyof SubscriptionsFilters;
}[];

/** Narrows a select's raw value to one of the allowed values, else '' ("any"). */
function pick<T extends string>(allowed: readonly T[], value: string): '' | T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : '';
}

/**
 * The Subscriptions filter row (§2): ID, Email, Provider, Sub ID, Status, Cadence, the start, renew,
 * expire and updated date ranges, and Clear. Fully controlled; it never applies filters itself.
 */
export function SubscriptionsFilterRow({
  filters,
  onFiltersChange,
  onClearAll,
}: SubscriptionsFilterRowProps) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => event.preventDefault();
  const set = <K extends keyof SubscriptionsFilters>(key: K, value: SubscriptionsFilters[K]) =>
    onFiltersChange({ ...filters, [key]: value });

  return (
    <form
      className={styles.row}
      role="search"
      aria-label="Subscription filters"
      onSubmit={handleSubmit}
    >
      <TextField
        label="ID"
        inputMode="numeric"
        value={filters.rowId}
        onValueChange={(value) => set('rowId', value)}
      />
      <TextField
        label="Email"
        type="search"
        value={filters.email}
        onValueChange={(value) => set('email', value)}
      />
      <SelectField
        label="Provider"
        options={PROVIDER_OPTIONS}
        value={filters.provider}
        onValueChange={(value) => set('provider', pick<Provider>(PROVIDERS, value))}
      />
      <TextField
        label="Sub ID"
        value={filters.providerId}
        onValueChange={(value) => set('providerId', value)}
      />
      <SelectField
        label="Status"
        options={STATUS_OPTIONS}
        value={filters.status}
        onValueChange={(value) => set('status', pick<ProviderStatus>(PROVIDER_STATUSES, value))}
      />
      <SelectField
        label="Cadence"
        options={CADENCE_OPTIONS}
        value={filters.cadence}
        onValueChange={(value) => set('cadence', pick<Cadence>(CADENCES, value))}
      />
      {DATE_RANGES.map((range) => (
        <fieldset key={range.label} className={styles.range}>
          <legend className="visually-hidden">{range.label} date range (UTC)</legend>
          <TextField
            label={`${range.label} from`}
            type="date"
            value={filters[range.from]}
            onValueChange={(value) => set(range.from, value)}
          />
          <TextField
            label={`${range.label} to`}
            type="date"
            value={filters[range.to]}
            onValueChange={(value) => set(range.to, value)}
          />
        </fieldset>
      ))}
      <div className={styles.actions}>
        <Button onClick={onClearAll}>Clear</Button>
      </div>
    </form>
  );
}
