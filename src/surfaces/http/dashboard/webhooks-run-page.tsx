import { CsrfField, Layout, Notice, fill, type PageContext } from '../pages/index.js';
import type { Webhook, WebhookRunDetail, WebhookRunTry } from '../../../service/webhooks/index.js';
import { shownTime } from './dashboard-time.js';
import { runState } from './webhooks-runs-table.js';

export interface WebhookRunPageProps {
  page: PageContext;
  webhook: Webhook;
  run: WebhookRunDetail;
  /** What a replay just did, as a sentence (done or problem). */
  replayed?: { ok: boolean; text: string };
}

/**
 * `/dashboard/webhooks/:id/runs/:run`: one delivery: its body, and each try's request headers,
 * result and the answer's first kilobyte; a replay for one that is not pending.
 */
export function WebhookRunPage({ page, webhook, run, replayed }: WebhookRunPageProps) {
  const w = page.words.webhooks;
  const base = `/dashboard/webhooks/${webhook.id}`;
  return (
    <Layout page={page} title={fill(w.runTitle, { trigger: run.trigger })} section="webhooks">
      {replayed ? <Notice kind={replayed.ok ? 'done' : 'problem'}>{replayed.text}</Notice> : null}
      <p>
        <a href={base}>{w.backToWebhook}</a>
      </p>
      <dl class="run-facts">
        <dt>{w.colUrl}</dt>
        <dd class="wrap-anywhere">
          <code>
            {webhook.method} {webhook.url}
          </code>
        </dd>
        <dt>{w.colTime}</dt>
        <dd>{shownTime(page, run.createdAt)}</dd>
        <dt>{w.colStatus}</dt>
        <dd>{runState(page, run)}</dd>
        <dt>{w.colAttempts}</dt>
        <dd>{run.attempts}</dd>
      </dl>
      {run.status === 'pending' ? (
        <p>{w.replayPending}</p>
      ) : (
        <form method="post" action={`${base}/runs/${run.deliveryId}/replay`} class="card">
          <CsrfField page={page} />
          <p>{w.replayText}</p>
          <button type="submit" class="secondary">
            {w.replay}
          </button>
        </form>
      )}
      <h2 id="body-title">{w.requestBody}</h2>
      <pre role="region" aria-labelledby="body-title" tabindex={0}>
        {prettyJson(run.body)}
      </pre>
      {run.tries.length === 0 ? <p>{w.noTries}</p> : null}
      {run.tries.map((t) => (
        <TrySection page={page} attempt={t} />
      ))}
    </Layout>
  );
}

function TrySection({ page, attempt: t }: { page: PageContext; attempt: WebhookRunTry }) {
  const w = page.words.webhooks;
  const id = `try-${t.attempt}`;
  const headers = Object.entries(t.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return (
    <section aria-labelledby={id} class="card">
      <h2 id={id}>
        {fill(w.tryTitle, { attempt: t.attempt })} · {shownTime(page, t.startedAt)}
      </h2>
      <p>
        {fill(w.tryResult, { status: t.status ?? '—', ms: t.durationMs })}
        {t.error ? ` · ${fill(w.error, { error: t.error })}` : ''}
      </p>
      <h3 id={`${id}-headers`}>{w.requestHeaders}</h3>
      {t.changedSince ? <p class="hint">{w.changedSince}</p> : null}
      <pre role="region" aria-labelledby={`${id}-headers`} tabindex={0}>
        {headers}
      </pre>
      <h3 id={`${id}-answer`}>{w.answer}</h3>
      {t.response === null ? (
        <p>{w.noAnswer}</p>
      ) : (
        <pre role="region" aria-labelledby={`${id}-answer`} tabindex={0}>
          {t.response}
        </pre>
      )}
    </section>
  );
}

/** The body as sent, indented for reading when it is JSON (it always is from docpipe). */
function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
