/**
 * Pretty JSON text for display (two-space indent), or null when there is nothing to show.
 * A string holding JSON (a provider's raw payload is often stored as text) is parsed and
 * re-indented; any other string is shown as given. Never throws: values JSON cannot express
 * (cycles, BigInt, functions) fall back to their string form.
 */
export function prettyJson(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed === '') return null;
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (parsed !== null && typeof parsed === 'object') return JSON.stringify(parsed, null, 2);
    } catch {
      // Not JSON: shown as plain text below.
    }
    return value;
  }
  try {
    const json = JSON.stringify(value, null, 2);
    if (typeof json === 'string') return json;
  } catch {
    // Cyclic or BigInt-bearing value: fall through to its string form.
  }
  return String(value);
}
