/**
 * The console's CSV rules, shared by every export (ISR events, Audit): Papa Parse writes the text
 * (quoted where needed, CRLF line ends), and every text cell a spreadsheet would run as a formula
 * is neutralised first. Pure.
 */
import Papa from 'papaparse';

/** A cell a spreadsheet would run as a formula: starts with =, +, -, @, a tab or a CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises a text cell for spreadsheets: a leading =, +, -, @, tab or CR gets an apostrophe
 * in front ('=HYPERLINK(…)' → "'=HYPERLINK(…)"), so it opens as text. Other text is unchanged.
 */
export function neutraliseCsvCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * CSV text of a header line and one line per row, written by Papa Parse with CRLF line ends and
 * quotes only where needed. Cells are written as given: neutralise text cells first
 * ({@link neutraliseCsvCell}). No rows gives just the header line, with no trailing line break.
 */
export function csvText(fields: readonly string[], rows: readonly (readonly string[])[]): string {
  const csv = Papa.unparse(
    { fields: [...fields], data: rows.map((row) => [...row]) },
    { quotes: false, newline: '\r\n' },
  );
  // Papa Parse ends a header-only file with a line break; an empty export is just the header.
  return rows.length === 0 ? csv.replace(/\r\n$/, '') : csv;
}
