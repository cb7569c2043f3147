/** What a v3 case gets when the body (and its preset) say nothing: spec 2.2, 3 and 4.4. */

/** spec 3: a v3 case lives 30 days (v2: 90). */
export const DEFAULT_EXPIRES_IN_DAYS = 30;

/** spec 2.2: the company's language, then Danish. */
export const DEFAULT_LANGUAGE = 'da';

/** The group of a recipient that names none: everybody signs together. */
export const DEFAULT_GROUP = 1;

/** The scheme every installation serves: a drawn signature needs no eID broker. */
export const DRAW_SCHEME = 'draw';

/** A page of GET /v3/api/cases: spec 8's v2 page size, and a ceiling that keeps a page cheap. */
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1000;

/** The event a new case writes into the outbox (spec 6's "case created"). */
export const CASE_CREATED = 'case.created';
/** A draft sent (POST /v3/api/cases/{id}/send). */
export const CASE_SENT = 'case.sent';
/** A case deleted (v2's delete): its rows are gone, its event carries the case as it was. */
export const CASE_DELETED = 'case.deleted';
