import type { CompanyPage } from '../../../service/companies/index.js';
import { fill, type PageContext } from '../pages/index.js';
import { OperatorFrame, OPERATOR_PATH } from './operator-frame.js';
import { casesLine, keysLine, moment } from './operator-format.js';

export interface CompanyListProps {
  page: PageContext;
  list: CompanyPage;
  search: string;
  /** Whether this is a page after the first (it links back to the first). */
  paged: boolean;
}

/** The link to a company's operator page. */
export function companyHref(id: string): string {
  return `${OPERATOR_PATH}/companies/${encodeURIComponent(id)}`;
}

/**
 * `/admin`: the installation's companies, a page at a time by cursor, searchable by id or name
 * with a plain GET form, each row with its members, cases by state and keys counted.
 */
export function CompanyListPage({ page, list, search, paged }: CompanyListProps) {
  const w = page.words.admin;
  const next =
    list.nextCursor === undefined
      ? undefined
      : `${OPERATOR_PATH}?${new URLSearchParams({
          ...(search ? { q: search } : {}),
          cursor: list.nextCursor,
        }).toString()}`;
  return (
    <OperatorFrame page={page} title={w.companies} current="companies">
      <form method="get" action={OPERATOR_PATH} class="operator-search" role="search">
        <div class="field">
          <label for="field-q">{w.searchLabel}</label>
          <p class="hint" id="field-q-hint">
            {w.searchHint}
          </p>
          <input
            id="field-q"
            name="q"
            type="search"
            value={search}
            maxLength={200}
            aria-describedby="field-q-hint"
          />
        </div>
        <button type="submit">{w.search}</button>
      </form>
      {list.companies.length === 0 ? (
        <p>{search ? fill(w.noMatches, { search }) : w.noCompanies}</p>
      ) : (
        <div class="table-wrap" role="region" aria-labelledby="companies-caption" tabindex={0}>
          <table class="operator-table">
            <caption id="companies-caption" class="visually-hidden">
              {w.companiesTable}
            </caption>
            <thead>
              <tr>
                <th scope="col">{w.id}</th>
                <th scope="col">{w.name}</th>
                <th scope="col">{w.cvr}</th>
                <th scope="col">{w.created}</th>
                <th scope="col">{w.madeBy}</th>
                <th scope="col">{w.status}</th>
                <th scope="col">{w.members}</th>
                <th scope="col">{w.cases}</th>
                <th scope="col">{w.apiKeys}</th>
              </tr>
            </thead>
            <tbody>
              {list.companies.map((c) => (
                <tr data-company={c.id}>
                  <td>
                    <a href={companyHref(c.id)}>
                      <code>{c.id}</code>
                    </a>
                  </td>
                  <td>{c.name}</td>
                  <td>{c.cvr ?? '–'}</td>
                  <td>{moment(c.createdAt, '–')}</td>
                  <td>{c.createdBySignup ? w.bySignup : w.byCli}</td>
                  <td>
                    {c.disabled ? (
                      <strong class="operator-disabled">{w.disabled}</strong>
                    ) : (
                      w.enabled
                    )}
                  </td>
                  <td data-count="members">{c.members}</td>
                  <td data-count="cases">{casesLine(page, c.cases)}</td>
                  <td data-count="keys">{keysLine(page, c.keys)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="actions">
        {paged || search ? (
          <a class="button secondary" href={OPERATOR_PATH}>
            {search ? w.showAll : w.firstPage}
          </a>
        ) : null}
        {next ? (
          <a class="button" href={next} rel="next">
            {w.nextPage}
          </a>
        ) : null}
      </div>
    </OperatorFrame>
  );
}
