import { cprCipherOf } from '../common/case-service.js';
import type { HttpSurface } from '../common/surface.js';
import { webflowsRoutes } from './webflows-routes.js';

export { webflowsRoutes, type WebflowsRoutesOptions } from './webflows-routes.js';

/** The v3 web-flows (issue 36): `POST /v3/api/webflows` and `GET /v3/api/webflows/{id}`. */
export const webflowsSurface: HttpSurface = {
  name: 'v3 webflows',
  access: 'v3',
  async register(scope, { deps, signingSecret }) {
    const cipher = await cprCipherOf(deps);
    await scope.register(webflowsRoutes, {
      db: deps.db,
      signingSecret,
      storage: deps.storage,
      ...(cipher ? { cipher } : {}),
    });
  },
};
