import type { HttpSurface } from '../common/surface.js';
import { signingRoutes } from './signing-routes.js';

export { signingRoutes, PAGE_IMAGE_DPI, type SigningRoutesOptions } from './signing-routes.js';
export {
  escapeHtml,
  messagePage,
  signingPage,
  MAX_SHOWN_PAGES,
  PAGE_HEADERS,
} from './signing-page.js';

/**
 * The recipients' signing pages (`/sign/{token}`, issue 22): public, the link's token being the
 * only credential. Until signing lands they show the case and its documents.
 */
export const signingSurface: HttpSurface = {
  name: 'signing pages',
  access: 'public',
  async register(scope, { deps }) {
    await scope.register(signingRoutes, { db: deps.db, storage: deps.storage });
  },
};
