import { RedisAdminAttempts } from '../common/admin-attempts.js';
import type { HttpSurface } from '../common/surface.js';
import { dashboardRoutes } from './dashboard-routes.js';
import { healthRoutes } from './health-routes.js';
import { metricsRoutes } from './metrics-routes.js';

export {
  dashboardRoutes,
  DASHBOARD_PATH,
  type DashboardRoutesOptions,
} from './dashboard-routes.js';
export { healthRoutes, type HealthRoutesOptions } from './health-routes.js';
export { metricsRoutes, observeHttpRequests, type MetricsRoutesOptions } from './metrics-routes.js';
export {
  databaseReady,
  officePoolReady,
  redisReady,
  storageWritable,
  type ReadinessCheck,
} from './readiness-checks.js';

/**
 * The operator's routes: `/healthz` and `/readyz` (public: a load balancer asks them), `/metrics`
 * and the queue dashboard (the admin credential, or this machine only).
 */
export const operationsSurface: HttpSurface = {
  name: 'operations',
  access: 'public',
  async register(scope, { deps }) {
    const { adminPassword, adminAttemptsPerMinute } = deps.config.http;
    // One count per address for the one credential, whichever route it is tried on.
    const adminAttempts =
      adminPassword === undefined || adminAttemptsPerMinute === 0
        ? undefined
        : new RedisAdminAttempts({
            redis: deps.redis,
            prefix: deps.config.queue.prefix,
            perMinute: adminAttemptsPerMinute,
            onRedisError: (err) =>
              deps.logger?.warn(
                { err },
                'admin credential tries are counted in this process until Redis answers again',
              ),
          });
    await scope.register(healthRoutes, { checks: deps.checks });
    await scope.register(metricsRoutes, { metrics: deps.metrics, adminPassword, adminAttempts });
    await scope.register(dashboardRoutes, { adminPassword, queues: deps.queues, adminAttempts });
  },
};
