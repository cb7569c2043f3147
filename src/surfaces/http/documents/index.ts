import type { HttpSurface } from '../common/surface.js';
import { documentsRoutes } from './documents-routes.js';

export { documentsRoutes, type DocumentsRoutesOptions } from './documents-routes.js';
export { BrokenLibraryDocumentError, documentsErrorHandler } from './documents-errors.js';

/** The v3 document library: `GET /v3/api/documents` and `/v3/api/documents/{id}`. */
export const documentsSurface: HttpSurface = {
  name: 'v3 documents',
  access: 'v3',
  async register(scope, { deps }) {
    await scope.register(documentsRoutes, { library: deps.library, preparer: deps.preparer });
  },
};
