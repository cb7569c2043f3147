import { CASE_STATES, type CompanySummary } from '../../../service/companies/index.js';
import { fill, type PageContext } from '../pages/index.js';

/** A moment as the operator's pages write it: the same in both languages, in UTC. */
export function moment(date: Date | null | undefined, none: string): string {
  if (!date) return none;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A company's cases as one line: the total, then each state that has any (`3 in all: 2 open, 1 signed`). */
export function casesLine(page: PageContext, cases: CompanySummary['cases']): string {
  const w = page.words.admin;
  const total = CASE_STATES.reduce((n, state) => n + cases[state], 0);
  if (total === 0) return w.none;
  const states = CASE_STATES.filter((state) => cases[state] > 0).map(
    (state) => `${cases[state]} ${w[state]}`,
  );
  return `${fill(w.casesTotal, { count: total })}: ${states.join(', ')}`;
}

/** A company's keys as one line: how many work of how many there are. */
export function keysLine(page: PageContext, keys: CompanySummary['keys']): string {
  return keys.total === 0
    ? page.words.admin.none
    : fill(page.words.admin.keysCount, { working: keys.working, total: keys.total });
}
