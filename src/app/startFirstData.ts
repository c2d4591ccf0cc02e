/**
 * Side effect, imported first by src/main.tsx so that it runs before the rest of the entry's own
 * chunk (React DOM, the route table, the start-up code) is evaluated: marks the moment
 * ('mg:entry', a User Timing mark read by bench/delivery.ts) and starts the opened screen's first
 * data (src/app/firstData.ts).
 */
import { startFirstData } from './firstData';

performance.mark('mg:entry');
startFirstData(window.location.pathname);
