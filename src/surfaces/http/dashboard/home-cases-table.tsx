import type { CaseState } from '../../../service/cases/index.js';
import { fill, type PageContext } from '../pages/index.js';
import type { RecentCase } from './home-recent-cases.js';
import { When } from './home-when.js';

/** A list of cases: title, state, signers who signed of all, created. */
export function CasesTable({
  page,
  cases,
  caption,
}: {
  page: PageContext;
  cases: readonly RecentCase[];
  caption: string;
}) {
  const w = page.words.home;
  const states: Record<CaseState, string> = {
    draft: w.stateDraft,
    open: w.stateOpen,
    signed: w.stateSigned,
    denied: w.stateDenied,
    expired: w.stateExpired,
  };
  return (
    // Focusable and named: at 360 px the table scrolls inside it, and a keyboard must reach it.
    <div class="table-wrap" role="region" aria-label={caption} tabindex={0}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{w.caseTitle}</th>
            <th scope="col">{w.caseState}</th>
            <th scope="col">{w.caseSigned}</th>
            <th scope="col">{w.caseCreated}</th>
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr>
              <td>{c.title}</td>
              <td>
                <span class={`case-state case-state-${c.state}`}>{states[c.state]}</span>
              </td>
              <td>{fill(w.signedOf, { signed: c.signed, all: c.signers })}</td>
              <td>
                <When at={c.createdAt} language={page.language} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
