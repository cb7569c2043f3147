import type { FastifySchema, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the route's trailing wildcard (`/files/*`) is called in the OpenAPI document
     * (`/files/{key}`). Fastify names it `*`, which no OpenAPI tool takes as a parameter name.
     * @defaultValue 'path'
     */
    wildcardName?: string;
  }
}

/** What a trailing wildcard is called in the OpenAPI document when its route names it not. */
export const DEFAULT_WILDCARD_NAME = 'path';

/** A route's path in OpenAPI's form: `/documents/:id` is `/documents/{id}`, `/files/*` `/files/{key}`. */
export function openApiPath(url: string, wildcardName = DEFAULT_WILDCARD_NAME): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, `{${wildcardName}}`);
}

/** The wildcard name a route gave in its config, or the default. */
export function wildcardNameOf(route: Pick<RouteOptions, 'config'>): string {
  return route.config?.wildcardName ?? DEFAULT_WILDCARD_NAME;
}

interface ObjectSchema {
  properties?: Record<string, unknown>;
  required?: string[];
}

/**
 * @fastify/swagger's route transform: a route ending in a wildcard is described with the
 * wildcard as a named path parameter (`/files/{key}`, its schema the one the route gave `*`), so
 * that the path and its parameters agree. Fastify still validates and routes with `*`; only the
 * description changes. Other routes pass unchanged.
 */
export function nameWildcard({
  schema,
  url,
  route,
}: {
  schema: FastifySchema;
  url: string;
  route: RouteOptions;
}): { schema: FastifySchema; url: string } {
  if (!url.endsWith('*')) return { schema, url };
  const name = wildcardNameOf(route);
  const params = (schema?.params ?? {}) as ObjectSchema;
  const { '*': wildcard = { type: 'string' }, ...others } = params.properties ?? {};
  const required = (params.required ?? []).filter((p) => p !== '*');
  return {
    url: url.replace(/\*$/, `{${name}}`),
    schema: {
      ...schema,
      params: {
        type: 'object',
        properties: { ...others, [name]: wildcard },
        // A path parameter is always there (OpenAPI requires it so).
        required: [...required, name],
      },
    },
  };
}
