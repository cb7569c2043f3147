import { Layout, Notice, fill, type PageContext } from '../pages/index.js';
import type { CreatedKey } from '../../../service/keys/index.js';
import { CopyButton } from './dashboard-copy-button.js';

export interface KeyCreatedProps {
  page: PageContext;
  created: CreatedKey;
  companyId: string;
  publicUrl: string;
}

/**
 * The answer of the create form: the new key, once. It is the POST's own answer (no redirect
 * that a reload or the history could show again), never cached (the pages' no-store), and the
 * key is in no URL and no log.
 */
export function KeyCreatedPage({ page, created, companyId, publicUrl }: KeyCreatedProps) {
  const w = page.words.keys;
  const base = publicUrl.replace(/\/+$/, '');
  const example = [
    `DOCPIPE_KEY='${created.key}'`,
    `curl -H "Authorization: Bearer $DOCPIPE_KEY" ${base}/v3/api/cases`,
    `curl -H "Authorization: Bearer $DOCPIPE_KEY" -F file=@contract.pdf \\`,
    `  ${base}/v3/company/${companyId}/file/upload`,
  ].join('\n');
  return (
    <Layout page={page} title={w.createdTitle} section="keys">
      <Notice kind="problem">{w.createdWarning}</Notice>
      <h2 id="new-key-title">{fill(w.keyLabel, { name: created.name })}</h2>
      <code id="new-key" class="secret">
        {created.key}
      </code>
      <CopyButton page={page} target="new-key" />
      <h2 id="how-title">{w.howTitle}</h2>
      <p>{fill(w.howText, { company: companyId })}</p>
      <pre id="key-example" role="region" aria-labelledby="how-title" tabindex={0}>
        {example}
      </pre>
      <CopyButton page={page} target="key-example" />
      <p class="actions">
        <a class="button secondary" href="/dashboard/keys">
          {w.backToKeys}
        </a>
      </p>
    </Layout>
  );
}
