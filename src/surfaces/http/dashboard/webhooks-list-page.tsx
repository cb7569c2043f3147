import {
  CsrfField,
  ErrorSummary,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type PageContext,
} from '../pages/index.js';
import type { Webhook } from '../../../service/webhooks/index.js';
import { WebhookFields, type WebhookFormValues } from './webhooks-form.js';

export interface WebhooksListProps {
  page: PageContext;
  companyName: string;
  webhooks: readonly Webhook[];
  values: WebhookFormValues;
  errors?: FieldErrors;
  /** Whether the form offers the partner trigger (an active partner with webhookEnabled). */
  partnerTrigger: boolean;
  /** A webhook was just removed. */
  removed?: boolean;
}

/** `/dashboard/webhooks`: the company's webhooks and the form that adds one. */
export function WebhooksListPage(props: WebhooksListProps) {
  const { page } = props;
  const w = page.words.webhooks;
  const errors = props.errors ?? {};
  return (
    <Layout page={page} title={w.title} section="webhooks">
      {props.removed ? <Notice kind="done">{w.removed}</Notice> : null}
      <ErrorSummary page={page} errors={errors} />
      <p>{fill(w.intro, { company: props.companyName })}</p>
      <h2 id="webhooks-title">{w.listTitle}</h2>
      {props.webhooks.length === 0 ? (
        <p>{w.none}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="webhooks-title" tabindex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{w.colUrl}</th>
                <th scope="col">{w.colMethod}</th>
                <th scope="col">{w.colTriggers}</th>
                <th scope="col">{w.colActive}</th>
              </tr>
            </thead>
            <tbody>
              {props.webhooks.map((h) => (
                <tr>
                  <th scope="row" class="wrap-anywhere">
                    <a href={`/dashboard/webhooks/${h.id}`}>{h.url}</a>
                  </th>
                  <td>{h.method}</td>
                  <td>{h.triggers.join(', ')}</td>
                  <td>{h.active ? page.words.common.yes : page.words.common.no}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section class="card" aria-labelledby="add-webhook-title">
        <h2 id="add-webhook-title">{w.addTitle}</h2>
        <form method="post" action="/dashboard/webhooks" novalidate>
          <CsrfField page={page} />
          <WebhookFields
            page={page}
            values={props.values}
            errors={errors}
            partnerTrigger={props.partnerTrigger}
          />
          <button type="submit">{w.add}</button>
        </form>
      </section>
    </Layout>
  );
}
