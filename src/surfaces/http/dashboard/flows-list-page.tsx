import type { WebflowListPage } from '../../../service/webflows/index.js';
import { Layout, fill, type PageContext } from '../pages/index.js';
import { FLOWS_PATH, flowHref, flowStateText } from './flows-state.js';
import { When } from './home-when.js';

/** What the empty list shows as the way to start: the API call, as the API takes it. */
const START_EXAMPLE = `curl -X POST "$DOCPIPE_URL/v3/api/webflows" \\
  -H "Authorization: Bearer $DOCPIPE_KEY" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -H "Content-Type: application/json" \\
  -d '{"formId": "<form id>", "title": "<title>",
       "recipients": [{"name": "<name>", "email": "<e-mail>"}]}'`;

/**
 * /dashboard/flows: the company's web-flows newest first (title, form, state, answered of all
 * questions, people asked, created), paged by cursor as the case list is; empty, how to start
 * one over the API.
 */
export function FlowsListPage({
  page,
  result,
  paged,
}: {
  page: PageContext;
  result: WebflowListPage;
  /** A later page than the first: "Newest" leads back. */
  paged: boolean;
}) {
  const w = page.words.flows;
  const admin = page.session?.user?.admin === true;
  return (
    <Layout page={page} title={w.title} section="flows">
      <p>{w.intro}</p>
      {result.flows.length === 0 ? (
        paged ? (
          <p>{w.noFlows}</p>
        ) : (
          <section class="card" aria-labelledby="flows-start-title">
            <h2 id="flows-start-title">{w.noFlows}</h2>
            <p>{w.howToStart}</p>
            <pre
              id="flows-start-command"
              role="region"
              aria-label={w.howToStartCommand}
              tabindex={0}
            >
              {START_EXAMPLE}
            </pre>
            <p>
              {w.apiReference}{' '}
              <a href="/openapi.json">
                <code>/openapi.json</code>
              </a>
            </p>
            {admin ? (
              <p class="actions">
                <a href="/dashboard/settings/forms">{w.formsLink}</a>
                <a href="/dashboard/keys">{w.keysLink}</a>
              </p>
            ) : null}
          </section>
        )
      ) : (
        // Focusable and named: a table wider than its screen scrolls inside it; at 360 px its
        // rows stack instead, each cell under its column's name (data-label).
        <div class="table-wrap" role="region" aria-label={w.caption} tabindex={0}>
          <table class="stack-table">
            <caption class="visually-hidden">{w.caption}</caption>
            <thead>
              <tr>
                <th scope="col">{w.colTitle}</th>
                <th scope="col">{w.colForm}</th>
                <th scope="col">{w.colState}</th>
                <th scope="col">{w.colProgress}</th>
                <th scope="col">{w.colRecipients}</th>
                <th scope="col">{w.colCreated}</th>
              </tr>
            </thead>
            <tbody>
              {result.flows.map((f) => (
                <tr>
                  <td data-label={w.colTitle}>
                    <a href={flowHref(f.id)}>{f.title || w.untitled}</a>
                  </td>
                  <td data-label={w.colForm}>{f.formTitle || f.formId}</td>
                  <td data-label={w.colState}>{flowStateText(w, f.state)}</td>
                  <td data-label={w.colProgress}>
                    {fill(w.progress, { answered: f.answered, total: f.total })}
                  </td>
                  <td data-label={w.colRecipients}>{f.recipients}</td>
                  <td data-label={w.colCreated}>
                    <When at={f.createdAt} page={page} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {paged || result.next ? (
        <nav class="actions" aria-label={w.paging}>
          {paged ? <a href={FLOWS_PATH}>{w.newest}</a> : null}
          {result.next ? (
            <a href={`${FLOWS_PATH}?cursor=${encodeURIComponent(result.next)}`} rel="next">
              {w.older}
            </a>
          ) : null}
        </nav>
      ) : null}
    </Layout>
  );
}
