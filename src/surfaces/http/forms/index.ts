import { FormService } from '../../../service/forms/index.js';
import { caseServiceOf, cprCipherOf } from '../common/case-service.js';
import type { HttpSurface } from '../common/surface.js';
import { formsRoutes } from './forms-routes.js';

export { formsRoutes, type FormApi, type FormsRoutesOptions } from './forms-routes.js';
export { formsErrorHandler, FORM_NOT_FOUND, NO_ID_PROVIDED } from './forms-errors.js';

/**
 * The v2 forms (spec 4.1): `GET /api/v2/{company}/forms/{form_id}/get`, `.../tags/get` and
 * `POST .../submit`, behind the v2 key check. Submit creates its case through the case service
 * the case surfaces build the same way. CPR numbers are encrypted with DOCPIPE_CPR_KEY, else
 * with the key a `docpipe start` keeps in the data folder; with neither, a submit that carries
 * one is refused (CprKeyMissingError) and everything else works.
 */
export const formsSurface: HttpSurface = {
  name: 'v2 forms',
  access: 'v2',
  async register(scope, context) {
    const { deps } = context;
    const cipher = await cprCipherOf(deps);
    const forms = new FormService({
      db: deps.db,
      storage: deps.storage,
      cases: await caseServiceOf(context),
      ...(cipher ? { cipher } : {}),
      valueLimits: deps.config.values,
    });
    await scope.register(formsRoutes, {
      forms,
      publicUrl: deps.publicUrl,
      bodyLimitBytes: deps.config.http.bodyLimitBytes,
    });
  },
};
