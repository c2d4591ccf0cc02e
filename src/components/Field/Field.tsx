import { useId, type InputHTMLAttributes, type SelectHTMLAttributes } from 'react';
import styles from './Field.module.css';

/** One option of a {@link SelectField}: value sent, label shown. */
export interface SelectOption {
  value: string;
  label: string;
}

/** Props of {@link TextField}: a labelled native input. */
export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  /** Visible label, also the accessible name. */
  label: string;
  /** Current value (controlled). */
  value: string;
  /** Called with the new raw value on every keystroke. */
  onValueChange: (value: string) => void;
}

/** A labelled input (text, email, password, date, datetime-local…). */
export function TextField({ label, value, onValueChange, id, className, ...rest }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <input
        id={inputId}
        className={styles.control}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...rest}
      />
    </div>
  );
}

/** Props of {@link SelectField}: a labelled native select. */
export interface SelectFieldProps extends Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'onChange'
> {
  /** Visible label, also the accessible name. */
  label: string;
  /** Current value (controlled); '' is the "any" option when one is offered. */
  value: string;
  /** The options in display order. */
  options: readonly SelectOption[];
  /** Called with the chosen option's value. */
  onValueChange: (value: string) => void;
}

/** A labelled select. Native, so it is keyboard- and screen-reader-friendly everywhere. */
export function SelectField({
  label,
  value,
  options,
  onValueChange,
  id,
  className,
  ...rest
}: SelectFieldProps) {
  const autoId = useId();
  const selectId = id ?? autoId;
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      <label className={styles.label} htmlFor={selectId}>
        {label}
      </label>
      <select
        id={selectId}
        className={styles.control}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
