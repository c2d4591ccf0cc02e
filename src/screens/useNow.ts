import { useEffect, useState } from 'react';

/**
 * The current time, re-read every `intervalMs` (default one minute) so that what depends on "now"
 * (the Scheduled badge, the active-on-page count, §4) never goes stale past midnight UTC while a
 * screen stays open. Returns a Date (an instant; display it in UTC).
 */
export function useNow(intervalMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
