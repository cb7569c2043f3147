import { caseServiceOf } from '../common/case-service.js';
import type { HttpSurface } from '../common/surface.js';
import { casesRoutes } from './cases-routes.js';

export { casesRoutes, type CaseApi, type CasesRoutesOptions } from './cases-routes.js';
export { casesErrorHandler } from './cases-errors.js';
export { parseCreatedAfter } from './created-after.js';

/**
 * The v3 cases (spec 2.2, 4.4): `POST /v3/api/cases`, `GET /v3/api/cases` and
 * `GET /v3/api/cases/{id}`, and `POST /v3/api/documents/{id}/cases`. The case service is built here from what the server already holds
 * (the database, the queue's producer, the storage, the library): its documents' download URLs
 * name the server's public URL, which is known only once the server is built.
 */
export const casesSurface: HttpSurface = {
  name: 'v3 cases',
  access: 'v3',
  async register(scope, context) {
    const { deps } = context;
    await scope.register(casesRoutes, {
      cases: await caseServiceOf(context),
      library: deps.library,
      publicUrl: deps.publicUrl,
      bodyLimitBytes: deps.config.http.bodyLimitBytes,
    });
  },
};
