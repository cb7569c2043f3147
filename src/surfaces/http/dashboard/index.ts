import type { HttpSurface } from '../common/surface.js';
import { registerPages } from '../pages/index.js';
import { DASHBOARD_PAGES } from './dashboard-pages.js';

/**
 * The company's dashboard (`/dashboard/...`): its members log in and manage keys, webhooks,
 * members and settings (issue 33), then cases (issue 34). Pages, not API: no route is in the
 * OpenAPI document; every handler starts with memberOf() and reads only its company's things.
 */
export const dashboardSurface: HttpSurface = {
  name: 'dashboard',
  access: 'public',
  async register(scope, context) {
    await registerPages(scope, context, async (pages, sessions) => {
      for (const routes of DASHBOARD_PAGES) await routes(pages, { context, sessions });
    });
  },
};
