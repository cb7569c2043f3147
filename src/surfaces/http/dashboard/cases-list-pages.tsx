import { Type } from 'typebox';
import { searchCases } from '../../../service/cases/index.js';
import { FolderRepository } from '../../../service/companies/index.js';
import { fill, memberOf, pageOf, sendPage } from '../pages/index.js';
import type { DashboardPages } from '../pages/index.js';
import { CasesListPage } from './cases-list-page.js';
import { caseListFilters, caseSearchOf } from './cases-list-query.js';
import { takeFlash } from './home-flash.js';

/** Strings only, each bounded; what is not a filter is dropped by caseListFilters, never a 400. */
const QUERY = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 20 })),
    folder: Type.Optional(Type.String({ maxLength: 100 })),
    from: Type.Optional(Type.String({ maxLength: 20 })),
    to: Type.Optional(Type.String({ maxLength: 20 })),
    q: Type.Optional(Type.String({ maxLength: 1000 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: true },
);

/** The pages of the case list, /dashboard/cases (tabs by state, filters, search, paged by cursor) (issue 34). */
export const casesListPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const folders = new FolderRepository(db);
  scope.get(
    '/dashboard/cases',
    { schema: { hide: true, querystring: QUERY } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const query = request.query;
      const page = pageOf(request);
      // A case's page deletes, then comes here: its flash is the one this page shows.
      const flash = takeFlash(request, reply, publicUrl, {
        deleted: page.words.casePage.deleted,
      });
      const filters = caseListFilters(query);
      const [result, list] = await Promise.all([
        searchCases(db, member.companyId, caseSearchOf(filters, query.cursor, page.timeZone)),
        folders.list(member.companyId),
      ]);
      return sendPage(
        reply,
        <CasesListPage
          page={page}
          notice={flash && { kind: flash.kind, text: fill(flash.text, flash.values) }}
          filters={filters}
          folders={list}
          result={result}
          paged={Boolean(query.cursor)}
        />,
      );
    },
  );
};
