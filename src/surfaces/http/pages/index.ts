import type { HttpSurface } from '../common/surface.js';
import { registerPages } from './pages-scope.js';
import { pageAssetRoutes, sharedPagesRoutes } from './shared-pages-routes.js';

export { registerPages, memberOf, sessionStoreOf, type Member } from './pages-scope.js';
export { sendPage, sendProblem, type ProblemPage } from './page-reply.js';
export { Layout, type Section } from './layout.js';
export {
  CheckboxField,
  CsrfField,
  ErrorSummary,
  Field,
  Notice,
  type FieldErrors,
} from './form-parts.js';
export { pageOf, pageCookies, cookieOptions, type PageContext } from './page-context.js';
export { fill, wordsOf, isLanguage, type Language, type Words } from './words.js';
export { localizedPaths } from './localized-paths.js';
export { LANGUAGE_COOKIE, pageLanguageOf } from './language.js';
export { PAGE_HEADERS } from './page-headers.js';
export { safeBack } from './shared-pages-routes.js';
export type { DashboardPages, DashboardPagesContext } from './page-group.js';

/** The routes every page shares: assets, the language switch, `/`. */
export const pagesSurface: HttpSurface = {
  name: 'pages',
  access: 'public',
  async register(scope, context) {
    pageAssetRoutes(scope);
    await registerPages(scope, context, sharedPagesRoutes(context.deps.db, context.deps.publicUrl));
  },
};
