import type { SessionStore } from '../../../service/accounts/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';

/** What each group of pages (account, dashboard, operator) is registered with. */
export interface DashboardPagesContext {
  context: SurfaceContext;
  sessions: SessionStore;
}

/**
 * A group of pages: a file of routes that registers them in the pages' scope. Its own file, apart
 * from the lists of groups (dashboard-pages.ts, account-pages.ts, operator-pages.ts), so that a
 * group and the list that names it do not import each other.
 */
export type DashboardPages = (
  scope: HttpApp,
  options: DashboardPagesContext,
) => void | Promise<void>;
