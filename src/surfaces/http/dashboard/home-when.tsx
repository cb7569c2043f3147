import { shownTime, zoneName, type TimeReader } from './dashboard-time.js';

/**
 * A moment as the dashboard shows it (dashboard-time.ts), in a `<time>` whose `datetime` is
 * exact and whose title names the zone it is shown in.
 */
export function When(props: { at: Date; page: TimeReader }) {
  return (
    <time dateTime={props.at.toISOString()} title={zoneName(props.page)}>
      {shownTime(props.page, props.at)}
    </time>
  );
}
