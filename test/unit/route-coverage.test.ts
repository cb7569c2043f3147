import { describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import {
  openApiPath,
  routeRecorder,
  undocumentedRoutes,
} from '../../src/surfaces/http/common/route-coverage.js';

describe('route coverage of the OpenAPI document', () => {
  it("writes Fastify's parameters and wildcard as OpenAPI does", () => {
    expect(openApiPath('/v3/company/:company/file/upload')).toBe(
      '/v3/company/{company}/file/upload',
    );
    expect(openApiPath('/files/*')).toBe('/files/{*}');
  });

  it('records every route but the hidden ones, and names the undescribed', () => {
    const recorder = routeRecorder();
    const route = (url: string, hide?: boolean) =>
      ({
        url,
        method: 'GET',
        handler: () => undefined,
        schema: hide ? { hide } : {},
      }) as RouteOptions;
    for (const r of [route('/a/:id'), route('/b'), route('/openapi.json', true), route('/b')])
      recorder.onRoute(r);
    expect([...recorder.routes]).toEqual(['/a/{id}', '/b']);
    expect(undocumentedRoutes(recorder.routes, ['/a/{id}'])).toEqual(['/b']);
    expect(undocumentedRoutes(recorder.routes, ['/b', '/a/{id}'])).toEqual([]);
  });
});
