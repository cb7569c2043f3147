import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { healthRoutes } from '../../src/surfaces/http/operations/index.js';
import { servedOpenApi } from '../helpers/served-openapi.js';

/**
 * The document at /openapi.json as tools take it: Redocly's recommended rules find nothing in it,
 * not a warning. The document is the one the composed server serves, so a route added without
 * an operationId, a security requirement or a 4xx answer fails here.
 */

type Doc = Record<string, unknown> & {
  paths: Record<string, Record<string, Record<string, unknown>>>;
};
let doc: Doc;
beforeAll(async () => {
  doc = (await servedOpenApi()) as Doc;
});

/** Redocly's recommended rules on a document: each problem as severity, rule, where and what. */
async function lint(document: unknown): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: '/openapi.json',
    config,
  });
  return problems.map(
    (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? '#'}: ${p.message}`,
  );
}

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    expect(Object.keys(doc.paths).length).toBeGreaterThanOrEqual(9);
    expect(await lint(doc)).toEqual([]);
  });

  it('fails those rules for a route without an operationId or a security requirement', async () => {
    // The check above can fail: the same document less what each public route now says.
    const worse = structuredClone(doc);
    delete worse.paths['/healthz']!.get!.operationId;
    delete worse.paths['/healthz']!.get!.security;
    const problems = await lint(worse);
    expect(problems).toEqual([
      expect.stringMatching(/^warn operation-operationId #\/paths\/~1healthz\/get/),
      expect.stringMatching(/^error security-defined #\/paths\/~1healthz\/get/),
    ]);
  });

  it("names the download route's wildcard as the storage key, a path parameter", () => {
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/files/{key}');
    expect(paths.filter((p) => p.includes('*'))).toEqual([]);
    const parameters = doc.paths['/files/{key}']!.get!.parameters as Record<string, unknown>[];
    expect(parameters.filter((p) => p.in === 'path')).toEqual([
      expect.objectContaining({ name: 'key', required: true, schema: { type: 'string' } }),
    ]);
  });

  it('says public routes need no credential, and names every operation once', () => {
    const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
    const security = Object.fromEntries(
      Object.entries(doc.paths).map(([path, item]) => [path, item.get?.security]),
    );
    expect(security).toMatchObject({
      '/healthz': [],
      '/readyz': [],
      '/files/{key}': [],
      '/v3/api/documents': [{ bearer: [] }],
    });
    const ids = operations.map((o) => o.operationId);
    expect(ids).toHaveLength(operations.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.info).toMatchObject({ license: { name: 'Proprietary' } });
  });

  it("answers /healthz with the 431 it documents when a request's headers are too large", async () => {
    // The probes' one documented client error comes from Node's HTTP server: check it is real.
    expect(doc.paths['/healthz']!.get!.responses).toHaveProperty('431');
    const app = createHttpApp({ bodyLimit: 1024 });
    onTestFinished(() => app.close());
    await app.register(healthRoutes, { checks: {} });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request({
        host: '127.0.0.1',
        port,
        path: '/healthz',
        headers: { 'x-big': 'x'.repeat(20_000) },
      })
        .on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(431);
  });
});
