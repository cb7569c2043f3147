import type { HttpSurface } from '../common/surface.js';
import { convertRoutes } from './convert-routes.js';
import { documentUrlResolver, renderUrlSigner } from './document-urls.js';

export {
  convertRoutes,
  DEFAULT_CONVERT_OPTIONS,
  type ConvertRoutesOptions,
} from './convert-routes.js';
export { CallerGoneError, ConvertTimeoutError } from './convert-deadline.js';
export { convertErrorHandler } from './convert-errors.js';
export { convertInputs } from './convert-sources.js';

/** v2 convert (spec 4.3): `POST /api/v2/document/convert`, through the queue. */
export const convertSurface: HttpSurface = {
  name: 'v2 convert',
  access: 'v2',
  async register(scope, { deps, signingSecret }) {
    const urls = {
      publicUrl: deps.publicUrl,
      signingSecret,
      signedUrlTtlSeconds: deps.config.http.signedUrlTtlSeconds,
    };
    await scope.register(convertRoutes, {
      client: deps.client,
      storage: deps.storage,
      resolveDocumentUrl: documentUrlResolver({ ...urls, storage: deps.storage }),
      signedUrlFor: renderUrlSigner(urls),
      bodyLimitBytes: deps.config.http.bodyLimitBytes,
    });
  },
};
