import swagger from '@fastify/swagger';
import type { HttpApp } from './create-app.js';

/** The machine-readable contract's version label (spec section 9, rule 3). */
export const API_VERSION_LABEL = '2026-05-01-beta';

/**
 * Registers the OpenAPI 3.1 document, built from every route's own schema, and serves it at
 * `/openapi.json`. Registered before the routes, so that it sees each of them as it is added.
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
  });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
