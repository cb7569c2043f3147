import type { RouteOptions } from 'fastify';

/** A route as the server serves it: its path in OpenAPI's form (`/documents/{id}`, `/files/{*}`). */
export function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}');
}

/**
 * Records every route a server adds, unless its schema hides it from the OpenAPI document on
 * purpose (the document itself, the dashboard's pages). Register before the routes.
 */
export function routeRecorder(): { routes: Set<string>; onRoute: (route: RouteOptions) => void } {
  const routes = new Set<string>();
  return {
    routes,
    onRoute(route) {
      if (!route.schema?.hide) routes.add(openApiPath(route.url));
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
