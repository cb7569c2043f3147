import type { HttpSurface } from '../common/surface.js';
import { registerPages } from '../pages/index.js';
import { ACCOUNT_PAGES } from './account-pages.js';

/**
 * The pages of a person's account, before and around the dashboard: sign-up (`/user/register`,
 * also under `/da` and `/en`), log-in and log-out, the e-mail's confirmation, a forgotten
 * password, an invitation taken, the second factor, the company chooser.
 */
export const accountSurface: HttpSurface = {
  name: 'account pages',
  access: 'public',
  async register(scope, context) {
    await registerPages(scope, context, async (pages, sessions) => {
      for (const routes of ACCOUNT_PAGES) await routes(pages, { context, sessions });
    });
  },
};
