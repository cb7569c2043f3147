import { fill, type PageContext } from '../pages/index.js';
import type { WebhookRunSummary } from '../../../service/webhooks/index.js';
import { shownTime } from './dashboard-time.js';

/** A run's state as a person reads it: delivered or failed with the last status, or pending. */
export function runState(page: PageContext, run: WebhookRunSummary): string {
  const w = page.words.webhooks;
  const word = { succeeded: w.succeeded, failed: w.failed, pending: w.pending }[run.status];
  return run.lastStatus === null ? word : `${word} (${run.lastStatus})`;
}

/** "Recent runs": one row a delivery, newest first, each opening its own page. */
export function WebhookRunsTable({
  page,
  webhookId,
  runs,
}: {
  page: PageContext;
  webhookId: string;
  runs: readonly WebhookRunSummary[];
}) {
  const w = page.words.webhooks;
  return (
    // At 360 px its rows stack, each cell under its column's name (app.css's .stack-table).
    <div class="table-wrap" role="region" aria-labelledby="runs-title" tabindex={0}>
      <table class="runs-table stack-table">
        <thead>
          <tr>
            <th scope="col">{w.colTime}</th>
            <th scope="col">{w.colTrigger}</th>
            <th scope="col">{w.colStatus}</th>
            <th scope="col">{w.colDuration}</th>
            <th scope="col">{w.colAttempts}</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => {
            const time = shownTime(page, r.createdAt);
            return (
              <tr class={`run-${r.status}`}>
                <th scope="row" data-label={w.colTime}>
                  <a
                    href={`/dashboard/webhooks/${webhookId}/runs/${r.deliveryId}`}
                    aria-label={fill(w.runLabel, { trigger: r.trigger, time })}
                  >
                    {time}
                  </a>
                </th>
                <td data-label={w.colTrigger}>
                  <code>{r.trigger}</code>
                </td>
                <td data-label={w.colStatus}>{runState(page, r)}</td>
                <td data-label={w.colDuration}>
                  {r.durationMs === null ? w.notTried : fill(w.ms, { ms: r.durationMs })}
                </td>
                <td data-label={w.colAttempts}>{r.attempts}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
