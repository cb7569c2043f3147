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
    <div class="table-wrap" role="region" aria-labelledby="runs-title" tabindex={0}>
      <table class="runs-table">
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
                <th scope="row">
                  <a
                    href={`/dashboard/webhooks/${webhookId}/runs/${r.deliveryId}`}
                    aria-label={fill(w.runLabel, { trigger: r.trigger, time })}
                  >
                    {time}
                  </a>
                </th>
                <td>
                  <code>{r.trigger}</code>
                </td>
                <td>{runState(page, r)}</td>
                <td>{r.durationMs === null ? w.notTried : fill(w.ms, { ms: r.durationMs })}</td>
                <td>{r.attempts}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
