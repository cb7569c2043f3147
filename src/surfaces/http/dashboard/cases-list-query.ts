import type { CaseSearch } from '../../../service/cases/index.js';

/** The case list's query string: every filter, the search and the cursor are here, so a link is the list. */
export interface CaseListQuery {
  state?: string;
  folder?: string;
  from?: string;
  to?: string;
  q?: string;
  cursor?: string;
}

export const CASE_LIST_PATH = '/dashboard/cases';

/** The tabs, in order; `all` is no state. */
export const CASE_LIST_TABS = ['all', 'draft', 'open', 'signed', 'denied', 'expired'] as const;
export type CaseListTab = (typeof CASE_LIST_TABS)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Long enough for any title or address, short enough that a search stays a search. */
export const MAX_SEARCH_CHARS = 200;

/** The filters as given, each dropped when it is not one (a bad date or state is no filter). */
export interface CaseListFilters {
  tab: CaseListTab;
  folder: string;
  from: string;
  to: string;
  q: string;
}

export function caseListFilters(query: CaseListQuery): CaseListFilters {
  const tab = (CASE_LIST_TABS as readonly string[]).includes(query.state ?? '')
    ? (query.state as CaseListTab)
    : 'all';
  return {
    tab,
    folder: query.folder ?? '',
    from: DAY.test(query.from ?? '') ? query.from! : '',
    to: DAY.test(query.to ?? '') ? query.to! : '',
    q: (query.q ?? '').trim().slice(0, MAX_SEARCH_CHARS),
  };
}

export function caseSearchOf(
  filters: CaseListFilters,
  cursor: string | undefined,
  timeZone: string,
): CaseSearch {
  return {
    timeZone,
    state: filters.tab === 'all' ? undefined : filters.tab,
    folderId: filters.folder || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
    q: filters.q || undefined,
    cursor: cursor || undefined,
  };
}

/** The list's address for these filters (empty ones left out) and, for a later page, a cursor. */
export function caseListHref(filters: CaseListFilters, cursor?: string): string {
  const params = new URLSearchParams();
  if (filters.tab !== 'all') params.set('state', filters.tab);
  if (filters.folder) params.set('folder', filters.folder);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  if (filters.q) params.set('q', filters.q);
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `${CASE_LIST_PATH}?${text}` : CASE_LIST_PATH;
}
