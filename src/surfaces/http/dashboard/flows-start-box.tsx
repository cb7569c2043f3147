import { fill, type PageContext } from '../pages/index.js';
import { CopyButton } from './dashboard-copy-button.js';

/** The form the example starts a web-flow with: the company's first that can. */
export interface FlowStartForm {
  id: string;
  title: string;
}

const COMMAND_ID = 'flows-start-command';

/**
 * How to start a web-flow over the API: a command that runs as pasted (the server's URL, a real
 * form's id, the reader as the person asked), its Copy button, and what the optional `case`
 * member does. While the company has no flow it is the page's card; once it has one, a closed
 * details element above the list, so the way to start another is never gone.
 */
export function FlowsStartBox({
  page,
  command,
  form,
  empty,
}: {
  page: PageContext;
  command: string;
  form: FlowStartForm | undefined;
  /** The company has no flow yet: the box is the page's main content, open. */
  empty: boolean;
}) {
  const w = page.words.flows;
  const admin = page.session?.user?.admin === true;
  const body = (
    <>
      <p>{w.howToStart}</p>
      <p>{form ? fill(w.startFormUsed, { form: form.title, id: form.id }) : w.startNoForm}</p>
      <pre id={COMMAND_ID} role="region" aria-label={w.howToStartCommand} tabindex={0}>
        {command}
      </pre>
      <CopyButton page={page} target={COMMAND_ID} label={w.copyCommand} />
      <p>{w.startCase}</p>
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
    </>
  );
  return empty ? (
    <section class="card" aria-labelledby="flows-start-title">
      <h2 id="flows-start-title">{w.noFlows}</h2>
      {body}
    </section>
  ) : (
    <details class="card flows-start">
      <summary>{w.startTitle}</summary>
      {body}
    </details>
  );
}
