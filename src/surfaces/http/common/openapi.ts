import swagger from '@fastify/swagger';
import type { HttpApp } from './create-app.js';
import { nameWildcard } from './openapi-wildcard.js';

/** The machine-readable contract's version label (spec section 9, rule 3). */
export const API_VERSION_LABEL = '2026-05-01-beta';

/**
 * Registers the OpenAPI 3.1 document, built from every route's own schema, and serves it at
 * `/openapi.json`. Registered before the routes, so that it sees each of them as it is added.
 * Each route says its own `operationId`, `security` (`[]` when public) and 4xx answers: the
 * document passes Redocly's recommended rules, which test/unit/openapi-document.test.ts checks.
 */
export async function registerOpenApi(app: HttpApp, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'docpipe',
        description:
          "The document endpoints of the e-signing service's API: convert, upload, pre-signed URLs, the document library; and docpipe's own health, metrics and downloads.",
        version: API_VERSION_LABEL,
        // package.json's UNLICENSED: the service's own code, no licence granted to others.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The operator's credential (DOCPIPE_ADMIN_PASSWORD, user admin): metrics, dashboard.
          admin: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transform: nameWildcard,
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
