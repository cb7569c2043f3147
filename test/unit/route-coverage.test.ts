import { describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { openApiPath } from '../../src/surfaces/http/common/openapi-wildcard.js';
import {
  routeRecorder,
  undocumentedRoutes,
} from '../../src/surfaces/http/common/route-coverage.js';

describe('route coverage of the OpenAPI document', () => {
  it("writes Fastify's parameters as OpenAPI does, and its wildcard as a named parameter", () => {
    expect(openApiPath('/v3/company/:company/file/upload')).toBe(
      '/v3/company/{company}/file/upload',
    );
    expect(openApiPath('/files/*')).toBe('/files/{path}');
    expect(openApiPath('/files/*', 'key')).toBe('/files/{key}');
  });

  it('records every route but the hidden ones, and names the undescribed', () => {
    const recorder = routeRecorder();
    const route = (url: string, hide?: boolean, wildcardName?: string) =>
      ({
        url,
        method: 'GET',
        handler: () => undefined,
        schema: hide ? { hide } : {},
        ...(wildcardName ? { config: { wildcardName } } : {}),
      }) as RouteOptions;
    for (const r of [
      route('/a/:id'),
      route('/b'),
      route('/openapi.json', true),
      route('/b'),
      route('/files/*', false, 'key'),
    ])
      recorder.onRoute(r);
    expect([...recorder.routes]).toEqual(['/a/{id}', '/b', '/files/{key}']);
    expect(undocumentedRoutes(recorder.routes, ['/a/{id}', '/files/{path}'])).toEqual([
      '/b',
      '/files/{key}',
    ]);
    expect(undocumentedRoutes(recorder.routes, ['/b', '/files/{key}', '/a/{id}'])).toEqual([]);
  });
});
