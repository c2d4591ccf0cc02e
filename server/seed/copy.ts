/** PostgreSQL COPY text format (tab-separated) lines for the seed. */

/** A value of one COPY field. */
export type Field = string | number | boolean | null;

/** One field of PostgreSQL COPY text format: NULL is \\N; backslash, tab, newline and CR are escaped. */
export function copyField(value: Field): string {
  if (value === null) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

/** One COPY line (fields joined by tabs, newline-terminated). */
export function copyLine(fields: Field[]): string {
  return fields.map(copyField).join('\t') + '\n';
}
