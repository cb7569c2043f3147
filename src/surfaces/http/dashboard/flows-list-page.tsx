import type { WebflowListPage } from '../../../service/webflows/index.js';
import { Layout, fill, type PageContext } from '../pages/index.js';
import { FLOWS_PATH, flowHref, flowStateText } from './flows-state.js';
import { FlowsStartBox, type FlowStartForm } from './flows-start-box.js';
import { When } from './home-when.js';

/**
 * /dashboard/flows: the company's web-flows newest first (title, form, state, answered of all
 * questions, people asked, created), paged by cursor as the case list is; how to start one
 * over the API above it (the whole page while there is none).
 */
export function FlowsListPage({
  page,
  result,
  paged,
  command,
  form,
}: {
  page: PageContext;
  result: WebflowListPage;
  /** A later page than the first: "Newest" leads back. */
  paged: boolean;
  /** The curl command that starts a web-flow (flows-start-command.ts). */
  command: string;
  /** The form the command names; undefined while no form can start a web-flow. */
  form: FlowStartForm | undefined;
}) {
  const w = page.words.flows;
  const empty = result.flows.length === 0;
  return (
    <Layout page={page} title={w.title} section="flows">
      <p>{w.intro}</p>
      {paged ? null : <FlowsStartBox page={page} command={command} form={form} empty={empty} />}
      {empty ? (
        paged ? (
          <p>{w.noFlows}</p>
        ) : null
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
