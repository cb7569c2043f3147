import type { HttpSurface } from '../common/surface.js';
import { registerPages } from '../pages/index.js';
import { OPERATOR_PAGES } from './operator-pages.js';

/**
 * The operator's pages (`/admin`, beside the queue dashboard at `/admin/queues`), behind the
 * admin credential: the installation's companies, their members and cases, disable and enable.
 */
export const operatorSurface: HttpSurface = {
  name: 'operator pages',
  access: 'public',
  async register(scope, context) {
    await registerPages(scope, context, async (pages, sessions) => {
      for (const routes of OPERATOR_PAGES) await routes(pages, { context, sessions });
    });
  },
};
