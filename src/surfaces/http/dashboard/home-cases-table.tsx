import type { CaseState } from '../../../service/cases/index.js';
import type { CaseSource } from '../../../service/db/index.js';
import { fill, type PageContext } from '../pages/index.js';
import { flowHref } from './flows-state.js';
import type { RecentCase } from './home-recent-cases.js';
import { When } from './home-when.js';

/**
 * A list of cases: title (a link to the case), state, signers who signed of all, created. `full`
 * (the case list) adds each case's active group, folder, creator and source; the home page keeps
 * it short.
 */
export function CasesTable({
  page,
  cases,
  caption,
  full,
}: {
  page: PageContext;
  cases: readonly RecentCase[];
  caption: string;
  full?: boolean;
}) {
  const w = page.words.home;
  const l = page.words.caseList;
  const states: Record<CaseState, string> = {
    draft: w.stateDraft,
    open: w.stateOpen,
    signed: w.stateSigned,
    denied: w.stateDenied,
    expired: w.stateExpired,
  };
  const sources: Record<CaseSource, string> = {
    v3: l.sourceV3,
    v2: l.sourceV2,
    form: l.sourceForm,
    dashboard: l.sourceDashboard,
  };
  const creator = ({ creator: c }: RecentCase) => {
    if (c === null) return l.creatorUnknown;
    if (c.kind === 'webflow') return <a href={flowHref(c.flowId)}>{l.creatorWebflow}</a>;
    return fill(c.kind === 'key' ? l.creatorKey : l.creatorMember, { name: c.name });
  };
  return (
    // Focusable and named: a table wider than its screen scrolls inside it, and a keyboard must
    // reach it. At 360 px its rows stack instead, each cell under its column's name (data-label).
    <div class="table-wrap" role="region" aria-label={caption} tabindex={0}>
      <table class="stack-table">
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{w.caseTitle}</th>
            <th scope="col">{w.caseState}</th>
            <th scope="col">{w.caseSigned}</th>
            {full ? <th scope="col">{l.colGroup}</th> : null}
            {full ? <th scope="col">{l.colFolder}</th> : null}
            <th scope="col">{w.caseCreated}</th>
            {full ? <th scope="col">{l.colCreator}</th> : null}
            {full ? <th scope="col">{l.colSource}</th> : null}
          </tr>
        </thead>
        <tbody>
          {cases.map((c) => (
            <tr>
              <td data-label={w.caseTitle}>
                <a href={`/dashboard/cases/${c.id}`}>{c.title}</a>
              </td>
              <td data-label={w.caseState}>
                <span class={`case-state case-state-${c.state}`}>{states[c.state]}</span>
              </td>
              <td data-label={w.caseSigned}>
                {fill(full ? l.signedOf : w.signedOf, { signed: c.signed, all: c.signers })}
              </td>
              {full ? <td data-label={l.colGroup}>{c.activeGroup ?? l.noGroup}</td> : null}
              {full ? <td data-label={l.colFolder}>{c.folderName}</td> : null}
              <td data-label={w.caseCreated}>
                <When at={c.createdAt} page={page} />
              </td>
              {full ? <td data-label={l.colCreator}>{creator(c)}</td> : null}
              {full ? (
                <td class="case-source" data-label={l.colSource}>
                  {c.source === null ? l.sourceUnknown : sources[c.source]}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
