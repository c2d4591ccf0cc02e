import { useId } from 'react';
import { CADENCES, MG_STATUS_FILTERS, PROVIDERS, PROVIDER_STATUSES } from '../../domain/types';
import type { UsersFilters } from '../../domain/types';
import { Button } from '../Button';
import { SelectField, TextField, type SelectOption } from '../Field';
import styles from './UsersFilterRow.module.css';

/** Props of {@link UsersFilterRow}. */
export interface UsersFilterRowProps {
  /** The current filter values (controlled); '' means "any". Dates are 'YYYY-MM-DD' UTC days. */
  filters: UsersFilters;
  /**
   * Called with the whole next filter object on every keystroke or choice. Values are raw:
   * the screen trims text, debounces it (§9: 300 ms) and resets to page 1 (§4 Lists and paging).
   */
  onFiltersChange: (next: UsersFilters) => void;
  /** Clear was pressed: the screen resets every filter and returns to page 1. */
  onClearAll: () => void;
}

/** Options with a leading "any" entry ('' value), e.g. Provider: All, lemonsqueezy, clickbank. */
function withAny(anyLabel: string, values: readonly string[]): SelectOption[] {
  return [{ value: '', label: anyLabel }, ...values.map((value) => ({ value, label: value }))];
}

/** §4 Users filter options; module scope so they are built once. */
const PROVIDER_OPTIONS = withAny('All', PROVIDERS);
const PROVIDER_STATUS_OPTIONS = withAny('Any', PROVIDER_STATUSES);
const MG_STATUS_OPTIONS = withAny('Any', MG_STATUS_FILTERS);
const CADENCE_OPTIONS = withAny('Any', CADENCES);

/**
 * The Users filter row (§2 Users screen): ID, Email, Provider, Provider ID, Provider Status,
 * MG Status, Cadence, the start-date and expiry-date ranges, and Clear. A search landmark named
 * 'Filters'; the fields wrap onto as many lines as the width needs.
 */
export function UsersFilterRow({ filters, onFiltersChange, onClearAll }: UsersFilterRowProps) {
  const headingId = useId();

  /** Emits the filters with one field changed; select values are the typed union members. */
  function handleChange<K extends keyof UsersFilters>(key: K) {
    return (value: string) => onFiltersChange({ ...filters, [key]: value as UsersFilters[K] });
  }

  return (
    <form
      role="search"
      aria-labelledby={headingId}
      className={styles.filters}
      // Filters apply as they change; Enter in a text field must not reload the page.
      onSubmit={(event) => event.preventDefault()}
    >
      <h2 id={headingId} className={styles.heading}>
        Filters
      </h2>
      <div className={styles.fields}>
        <TextField
          label="ID"
          inputMode="numeric"
          autoComplete="off"
          value={filters.rowId}
          onValueChange={handleChange('rowId')}
        />
        <TextField
          label="Email"
          autoComplete="off"
          value={filters.email}
          onValueChange={handleChange('email')}
        />
        <SelectField
          label="Provider"
          options={PROVIDER_OPTIONS}
          value={filters.provider}
          onValueChange={handleChange('provider')}
        />
        <TextField
          label="Provider ID"
          autoComplete="off"
          value={filters.providerId}
          onValueChange={handleChange('providerId')}
        />
        <SelectField
          label="Provider Status"
          options={PROVIDER_STATUS_OPTIONS}
          value={filters.providerStatus}
          onValueChange={handleChange('providerStatus')}
        />
        <SelectField
          label="MG Status"
          options={MG_STATUS_OPTIONS}
          value={filters.mgStatus}
          onValueChange={handleChange('mgStatus')}
        />
        <SelectField
          label="Cadence"
          options={CADENCE_OPTIONS}
          value={filters.cadence}
          onValueChange={handleChange('cadence')}
        />
        <TextField
          label="Start from"
          type="date"
          value={filters.startFrom}
          onValueChange={handleChange('startFrom')}
        />
        <TextField
          label="Start to"
          type="date"
          value={filters.startTo}
          onValueChange={handleChange('startTo')}
        />
        <TextField
          label="Expiry from"
          type="date"
          value={filters.expFrom}
          onValueChange={handleChange('expFrom')}
        />
        <TextField
          label="Expiry to"
          type="date"
          value={filters.expTo}
          onValueChange={handleChange('expTo')}
        />
        <div className={styles.actions}>
          <Button onClick={onClearAll}>Clear</Button>
        </div>
      </div>
    </form>
  );
}
