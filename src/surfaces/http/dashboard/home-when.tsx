import type { Language } from '../pages/index.js';
import { shownTime } from './dashboard-time.js';

/** A moment as the dashboard shows it (dashboard-time.ts), in a `<time>` whose `datetime` is exact. */
export function When({ at, language }: { at: Date; language: Language }) {
  return <time dateTime={at.toISOString()}>{shownTime(language, at)}</time>;
}
