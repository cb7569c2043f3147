import { CaseService } from '../../../service/cases/index.js';
import type { HttpSurface } from '../common/surface.js';
import { renderUrlSigner } from '../convert/document-urls.js';
import { casesV2Routes } from './cases-v2-routes.js';

export { casesV2Routes, type CaseV2Api, type CasesV2RoutesOptions } from './cases-v2-routes.js';
export { casesV2ErrorHandler, v2CaseFailure } from './cases-v2-errors.js';

/**
 * The v2 cases (spec 4.2): `POST /api/v2/{company}/case/create`, `GET .../cases/get`,
 * `GET .../cases/{case_ids}/get`, `GET .../case/{case_id}/get` and `GET .../case/{case_id}/delete`,
 * behind the v2 key check (the path's company must be the key's). The case service is the v3
 * surface's, built the same way: both surfaces read and write the same cases (spec 9).
 */
export const casesV2Surface: HttpSurface = {
  name: 'v2 cases',
  access: 'v2',
  async register(scope, { deps, signingSecret }) {
    const cases = new CaseService({
      db: deps.db,
      client: deps.client,
      storage: deps.storage,
      library: deps.library,
      documentUrl: renderUrlSigner({
        publicUrl: deps.publicUrl,
        signingSecret,
        signedUrlTtlSeconds: deps.config.http.signedUrlTtlSeconds,
      }),
    });
    await scope.register(casesV2Routes, {
      cases,
      publicUrl: deps.publicUrl,
      bodyLimitBytes: deps.config.http.bodyLimitBytes,
    });
  },
};
