import type { Language } from '../pages/index.js';
import { shownTime, zoneName, type TimeReader } from './dashboard-time.js';

/**
 * A moment as the dashboard shows it (dashboard-time.ts), in a `<time>` whose `datetime` is
 * exact and whose title names the zone it is shown in. `language` alone is a caller not yet
 * given the zone (shown in UTC).
 */
export function When(props: { at: Date } & ({ page: TimeReader } | { language: Language })) {
  const reader = 'page' in props ? props.page : props.language;
  return (
    <time dateTime={props.at.toISOString()} title={zoneName(reader)}>
      {shownTime(reader, props.at)}
    </time>
  );
}
