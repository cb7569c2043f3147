import {
  CsrfField,
  ErrorSummary,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import type {
  Webhook,
  WebhookRunSummary,
  WebhookRunsPage,
} from '../../../service/webhooks/index.js';
import { WebhookFields, type WebhookFormValues } from './webhooks-form.js';
import { WebhookRunsTable } from './webhooks-runs-table.js';

export interface WebhookPageProps {
  page: PageContext;
  webhook: Webhook;
  values: WebhookFormValues;
  errors?: FieldErrors;
  /** Whether the form offers the partner trigger (an active partner with webhookEnabled). */
  partnerTrigger: boolean;
  runs: WebhookRunsPage;
  /** Whether this is a later page of runs (then a link leads back to the newest). */
  older: boolean;
  saved?: boolean;
  /** The test event just sent, as its run stands. */
  tested?: WebhookRunSummary;
}

/**
 * `/dashboard/webhooks/:id`: its settings (the add form's fields), a test event, its recent runs
 * (25 a page, by cursor), and the ways to rotate its secret and remove it.
 */
export function WebhookPage(props: WebhookPageProps) {
  const { page, webhook } = props;
  const w = page.words.webhooks;
  const base = `/dashboard/webhooks/${webhook.id}`;
  const errors = props.errors ?? {};
  const tested = props.tested;
  return (
    <Layout page={page} title={fill(w.webhookTitle, { url: webhook.url })} section="webhooks">
      {props.saved ? <Notice kind="done">{w.saved}</Notice> : null}
      {tested ? (
        tested.status === 'succeeded' ? (
          <Notice kind="done">
            {fill(w.testDelivered, {
              status: tested.lastStatus ?? '',
              ms: tested.durationMs ?? 0,
            })}
          </Notice>
        ) : (
          <Notice kind="problem">
            {fill(w.testFailed, { error: tested.lastError ?? tested.status })}
          </Notice>
        )
      ) : null}
      <ErrorSummary page={page} errors={errors} />
      <p>
        <a href="/dashboard/webhooks">{w.backToWebhooks}</a>
      </p>
      <section aria-labelledby="test-title" class="card">
        <h2 id="test-title">{w.testTitle}</h2>
        <p>{w.testText}</p>
        <form method="post" action={`${base}/test`}>
          <CsrfField page={page} />
          <button type="submit">{w.sendTest}</button>
        </form>
      </section>
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">{w.runsTitle}</h2>
        {props.runs.runs.length === 0 ? (
          <p>{w.noRuns}</p>
        ) : (
          <WebhookRunsTable page={page} webhookId={webhook.id} runs={props.runs.runs} />
        )}
        {props.older || props.runs.next ? (
          <nav class="actions" aria-label={w.runsTitle}>
            {props.older ? <a href={`${base}#runs-title`}>{w.newestRuns}</a> : null}
            {props.runs.next ? (
              <a href={`${base}?after=${props.runs.next}#runs-title`}>{w.olderRuns}</a>
            ) : null}
          </nav>
        ) : null}
      </section>
      <section aria-labelledby="edit-title" class="card">
        <h2 id="edit-title">{w.editTitle}</h2>
        <form method="post" action={base} novalidate>
          <CsrfField page={page} />
          <WebhookFields
            page={page}
            values={props.values}
            errors={errors}
            partnerTrigger={props.partnerTrigger}
          />
          <button type="submit">{w.save}</button>
        </form>
      </section>
      <section aria-labelledby="secret-section-title" class="card">
        <h2 id="secret-section-title">{w.secretSection}</h2>
        <p>{w.rotateText}</p>
        <form method="get" action={`${base}/rotate`}>
          <button type="submit" class="secondary">
            {w.rotate}
          </button>
        </form>
      </section>
      <section aria-labelledby="remove-title" class="card">
        <h2 id="remove-title">{w.removeSection}</h2>
        <p>{w.removeText}</p>
        {/* The confirmation is a page of its own (GET), with or without script. */}
        <form method="get" action={`${base}/remove`}>
          <button type="submit" class="danger">
            {w.remove}
          </button>
        </form>
      </section>
    </Layout>
  );
}
