import type { RouteOptions } from 'fastify';
import { openApiPath, wildcardNameOf } from './openapi-wildcard.js';

/**
 * Records every route a server adds, in the OpenAPI document's form of its path (see
 * openapi-wildcard.ts), unless its schema hides it from the document on purpose (the document
 * itself, the dashboard's pages). Register before the routes.
 */
export function routeRecorder(): { routes: Set<string>; onRoute: (route: RouteOptions) => void } {
  const routes = new Set<string>();
  return {
    routes,
    onRoute(route) {
      if (!route.schema?.hide) routes.add(openApiPath(route.url, wildcardNameOf(route)));
    },
  };
}

/**
 * The routes served without a description in the OpenAPI document: a server with any is wired
 * wrongly (a route without a schema is a contract nobody can read), so it refuses to start.
 */
export function undocumentedRoutes(
  served: Iterable<string>,
  documented: Iterable<string>,
): string[] {
  const known = new Set(documented);
  return [...served].filter((path) => !known.has(path)).sort();
}
