import type { FormEvent, ReactNode } from 'react';
import { Button } from '../Button';
import { SelectField, TextField, type SelectOption } from '../Field';
import styles from './FilterRow.module.css';

/**
 * One field of a {@link FilterRow}, keyed by the filter it edits:
 * - `text`: a free-text input (the screen trims and debounces it, §4/§5);
 * - `select`: a native select over `options` ('' = the "any" option);
 * - `range`: a from/to pair of date (UTC day) or datetime-local (UTC) inputs, labelled
 *   '{label} from' / '{label} to'.
 */
export type FilterField<F> =
  | {
      kind: 'text';
      key: keyof F & string;
      label: string;
      /** 'search' shows the clear affordance; default 'text'. */
      type?: 'text' | 'search';
      /** e.g. 'numeric' for IDs (mobile keyboards). */
      inputMode?: 'text' | 'numeric';
      placeholder?: string;
    }
  | { kind: 'select'; key: keyof F & string; label: string; options: readonly SelectOption[] }
  | {
      kind: 'range';
      label: string;
      from: keyof F & string;
      to: keyof F & string;
      /** 'date' (YYYY-MM-DD) or 'datetime-local' (YYYY-MM-DDTHH:MM); both UTC. */
      input: 'date' | 'datetime-local';
    };

/** Select options with a leading "any" entry ('' value): e.g. Any, active, trialing… */
export function optionsWithAny(
  anyLabel: string,
  values: readonly string[],
  labels: Partial<Record<string, string>> = {},
): SelectOption[] {
  return [
    { value: '', label: anyLabel },
    ...values.map((value) => ({ value, label: labels[value] ?? value })),
  ];
}

/** Props of {@link FilterRow}. */
export interface FilterRowProps<F extends { [P in keyof F]: string }> {
  /** Accessible name of the search landmark, e.g. 'Users filters'. */
  label: string;
  /** The fields in display order (module scope: a stable table). */
  fields: readonly FilterField<F>[];
  /** Current values (controlled); '' means "any". */
  values: F;
  /** Called with the whole next set of raw values on every keystroke or choice. */
  onValuesChange: (next: F) => void;
  /** Clear: the owner resets every filter and returns to page 1. Omit to hide the button. */
  onClearAll?: () => void;
  /** A search form: Enter or the submit button applies (ISR). Omit for filters that apply as they change. */
  onSubmit?: () => void;
  /** The submit button's text (default 'Search'). */
  submitLabel?: string;
  /** Extra controls placed after the fields (e.g. Rows, Auto-refresh). */
  children?: ReactNode;
  /** Extra buttons placed after Search/Clear (e.g. Refresh, Export CSV). */
  actions?: ReactNode;
}

/**
 * A filter row driven by a field table (§2 filter rows of Users, Subscriptions, Logs and ISR):
 * labelled text, select and date-range fields that wrap onto as many lines as the width needs,
 * then the actions. Fully controlled: it reports raw values and never applies filters itself.
 */
export function FilterRow<F extends { [P in keyof F]: string }>({
  label,
  fields,
  values,
  onValuesChange,
  onClearAll,
  onSubmit,
  submitLabel = 'Search',
  children,
  actions,
}: FilterRowProps<F>) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Filters that apply as they change: Enter must not reload the page.
    event.preventDefault();
    onSubmit?.();
  };
  const set = (key: keyof F & string, value: string) => onValuesChange({ ...values, [key]: value });

  return (
    <form className={styles.row} role="search" aria-label={label} onSubmit={handleSubmit}>
      {fields.map((field) => {
        if (field.kind === 'text') {
          return (
            <TextField
              key={field.key}
              label={field.label}
              type={field.type ?? 'text'}
              inputMode={field.inputMode}
              placeholder={field.placeholder}
              autoComplete="off"
              value={values[field.key]}
              onValueChange={(value) => set(field.key, value)}
            />
          );
        }
        if (field.kind === 'select') {
          return (
            <SelectField
              key={field.key}
              label={field.label}
              options={field.options}
              value={values[field.key]}
              onValueChange={(value) => set(field.key, value)}
            />
          );
        }
        return (
          <fieldset key={field.from} className={styles.range} data-input={field.input}>
            <legend className="visually-hidden">{field.label} range (UTC)</legend>
            <TextField
              label={`${field.label} from`}
              type={field.input}
              value={values[field.from]}
              onValueChange={(value) => set(field.from, value)}
            />
            <TextField
              label={`${field.label} to`}
              type={field.input}
              value={values[field.to]}
              onValueChange={(value) => set(field.to, value)}
            />
          </fieldset>
        );
      })}
      {children}
      <div className={styles.actions}>
        {onSubmit ? (
          <Button type="submit" variant="primary">
            {submitLabel}
          </Button>
        ) : null}
        {onClearAll ? <Button onClick={onClearAll}>Clear</Button> : null}
        {actions}
      </div>
    </form>
  );
}
