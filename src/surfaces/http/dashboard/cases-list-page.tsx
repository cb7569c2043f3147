import type { CaseListPage } from '../../../service/cases/index.js';
import { Layout, Notice, type PageContext } from '../pages/index.js';
import {
  CASE_LIST_PATH,
  CASE_LIST_TABS,
  MAX_SEARCH_CHARS,
  caseListHref,
  type CaseListFilters,
  type CaseListTab,
} from './cases-list-query.js';
import { CasesTable } from './home-cases-table.js';

/**
 * /dashboard/cases: tabs by state, a GET form of filters and search (it works without script,
 * and every list is a link), the cases newest first, and links to older pages and back.
 */
export function CasesListPage({
  page,
  filters,
  folders,
  result,
  paged,
  notice,
}: {
  page: PageContext;
  filters: CaseListFilters;
  folders: readonly { id: string; name: string }[];
  result: CaseListPage;
  /** A later page than the first: "Newest" leads back. */
  paged: boolean;
  /** The flash of a case just deleted. */
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
}) {
  const l = page.words.caseList;
  const h = page.words.home;
  const tabLabel: Record<CaseListTab, string> = {
    all: l.tabAll,
    draft: h.stateDraft,
    open: h.stateOpen,
    signed: h.stateSigned,
    denied: h.stateDenied,
    expired: h.stateExpired,
  };
  const filtered = Boolean(filters.folder || filters.from || filters.to || filters.q);
  return (
    <Layout page={page} title={l.title} section="cases">
      {notice ? (
        <Notice kind={notice.kind}>
          <p>{notice.text}</p>
        </Notice>
      ) : null}
      <div class="actions">
        <a class="button" href="/dashboard/cases/new">
          {l.newCase}
        </a>
      </div>
      <nav class="settings-nav" aria-label={l.tabs}>
        <ul>
          {CASE_LIST_TABS.map((tab) => (
            <li>
              <a
                href={caseListHref({ ...filters, tab })}
                aria-current={tab === filters.tab ? 'page' : undefined}
              >
                {tabLabel[tab]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <form method="get" action={CASE_LIST_PATH} class="case-list-filters" role="search">
        <fieldset>
          <legend>{l.filters}</legend>
          {filters.tab !== 'all' ? <input type="hidden" name="state" value={filters.tab} /> : null}
          <div class="field">
            <label for="case-list-q">{l.search}</label>
            <p class="hint" id="case-list-q-hint">
              {l.searchHint}
            </p>
            <input
              id="case-list-q"
              name="q"
              type="search"
              value={filters.q}
              maxlength={MAX_SEARCH_CHARS}
              aria-describedby="case-list-q-hint"
            />
          </div>
          <div class="field">
            <label for="case-list-folder">{l.folder}</label>
            <select id="case-list-folder" name="folder">
              <option value="">{l.anyFolder}</option>
              {folders.map((f) => (
                <option value={f.id} selected={f.id === filters.folder}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="case-list-from">{l.from}</label>
            <input id="case-list-from" name="from" type="date" value={filters.from} />
          </div>
          <div class="field">
            <label for="case-list-to">{l.to}</label>
            <input id="case-list-to" name="to" type="date" value={filters.to} />
          </div>
          <div class="actions">
            <button type="submit" class="button">
              {l.apply}
            </button>
            {filtered ? (
              <a
                class="button secondary"
                href={caseListHref({ ...filters, folder: '', from: '', to: '', q: '' })}
              >
                {l.clear}
              </a>
            ) : null}
          </div>
        </fieldset>
      </form>
      {result.cases.length === 0 ? (
        <p>{filtered || filters.tab !== 'all' || paged ? l.none : l.noCases}</p>
      ) : (
        <CasesTable page={page} cases={result.cases} caption={l.caption} full />
      )}
      {paged || result.next ? (
        <nav class="actions" aria-label={l.paging}>
          {paged ? <a href={caseListHref(filters)}>{l.newest}</a> : null}
          {result.next ? (
            <a href={caseListHref(filters, result.next)} rel="next">
              {l.older}
            </a>
          ) : null}
        </nav>
      ) : null}
    </Layout>
  );
}
