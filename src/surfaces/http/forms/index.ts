import { readCprKeyFile } from '../../../app/config/index.js';
import { CaseService } from '../../../service/cases/index.js';
import { CprCipher } from '../../../service/cpr/index.js';
import { FormService } from '../../../service/forms/index.js';
import type { HttpSurface } from '../common/surface.js';
import { renderUrlSigner } from '../convert/document-urls.js';
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
    const key = deps.config.cprKey ?? (await readCprKeyFile(deps.config.dataDir));
    const forms = new FormService({
      db: deps.db,
      storage: deps.storage,
      cases,
      ...(key ? { cipher: new CprCipher(key) } : {}),
    });
    await scope.register(formsRoutes, {
      forms,
      publicUrl: deps.publicUrl,
      bodyLimitBytes: deps.config.http.bodyLimitBytes,
    });
  },
};
