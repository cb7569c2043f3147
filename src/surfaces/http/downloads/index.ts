import type { HttpSurface } from '../common/surface.js';
import { downloadRoutes } from './download-routes.js';

export { downloadRoutes, type DownloadRoutesOptions } from './download-routes.js';
export { rangeOf } from './files-range.js';

/** `GET /files/<key>`: what docpipe's signed URLs point at. The signature is the capability. */
export const downloadsSurface: HttpSurface = {
  name: 'downloads',
  access: 'public',
  async register(scope, { deps, signingSecret }) {
    await scope.register(downloadRoutes, { storage: deps.storage, signingSecret });
  },
};
