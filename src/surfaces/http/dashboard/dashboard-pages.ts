import type { SessionStore } from '../../../service/accounts/index.js';
import type { HttpApp } from '../common/create-app.js';
import type { SurfaceContext } from '../common/surface.js';
import { keysPages } from './keys-routes.js';
import { webhooksPages } from './webhooks-routes.js';
import { securityPages } from './security-pages.js';
import { accountSettingsPages } from './account-settings-pages.js';

/** What each group of dashboard pages is registered with. */
export interface DashboardPagesContext {
  context: SurfaceContext;
  sessions: SessionStore;
}

export type DashboardPages = (
  scope: HttpApp,
  options: DashboardPagesContext,
) => void | Promise<void>;

/**
 * Every group of dashboard pages, one line each (keys, webhooks, members, settings, ...). A new
 * group is a file beside this one exporting its registration, and one line here.
 */
export const DASHBOARD_PAGES: readonly DashboardPages[] = [
  securityPages,
  keysPages,
  webhooksPages,
  accountSettingsPages,
];
