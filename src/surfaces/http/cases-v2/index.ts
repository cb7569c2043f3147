import { caseServiceOf } from '../common/case-service.js';
import type { HttpSurface } from '../common/surface.js';
import { casesV2Routes } from './cases-v2-routes.js';

export { casesV2Routes, type CaseV2Api, type CasesV2RoutesOptions } from './cases-v2-routes.js';
export { casesV2ErrorHandler, v2CaseFailure, v2UntypedErrorHandler } from './cases-v2-errors.js';

/**
 * The v2 cases (spec 4.2): `POST /api/v2/{company}/case/create`, `GET .../cases/get`,
 * `GET .../cases/{case_ids}/get`, `GET .../case/{case_id}/get` and `GET .../case/{case_id}/delete`,
 * behind the v2 key check (the path's company must be the key's). The case service is the v3
 * surface's, built the same way: both surfaces read and write the same cases (spec 9). A
 * recipient's `cpr` is stored encrypted (the server's CPR key; without one, 503).
 */
export const casesV2Surface: HttpSurface = {
  name: 'v2 cases',
  access: 'v2',
  async register(scope, context) {
    const { deps } = context;
    await scope.register(casesV2Routes, {
      cases: await caseServiceOf(context),
      publicUrl: deps.publicUrl,
      bodyLimitBytes: deps.config.http.bodyLimitBytes,
    });
  },
};
