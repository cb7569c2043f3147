import { Type } from 'typebox';
import type { HttpApp } from '../common/create-app.js';
import { signingAssets } from './signing-assets.js';
import { ASSETS_PATH, PAGE_HEADERS, donePage, messagePage, pageLanguage } from './signing-page.js';

/** `lang` when it is one the page speaks, else the browser's first choice of them, else English. */
/**
 * `GET /sign/assets/{name}`: the signing page's script, stylesheet and signature pad, and
 * `GET /sign/done?lang=da|en&eid=...`: the page an eID login comes back to when it has no
 * signing page to go back to (signing-page.ts donePage). Neither is part of the
 * API a caller embeds, so neither is in the OpenAPI document. The assets are revalidated on each
 * visit (ETag), so that a new version reaches a recipient whose browser kept the old one.
 */
export function signingAssetRoutes(app: HttpApp): void {
  const assets = signingAssets();

  app.get(
    `${ASSETS_PATH}/:name`,
    { schema: { hide: true, params: Type.Object({ name: Type.String({ maxLength: 64 }) }) } },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset)
        return reply
          .code(404)
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(messagePage('notFound'));
      void reply.headers({ ...PAGE_HEADERS, 'cache-control': 'no-cache', etag: asset.etag });
      if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
      return reply.type(asset.contentType).send(asset.body);
    },
  );

  app.get(
    '/sign/done',
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          lang: Type.Optional(Type.String({ maxLength: 12 })),
          eid: Type.Optional(Type.String({ maxLength: 32 })),
        }),
      },
    },
    async (request, reply) =>
      reply
        .headers(PAGE_HEADERS)
        .type('text/html; charset=utf-8')
        .send(
          donePage(
            pageLanguage(request.query.lang, request.headers['accept-language']),
            request.query.eid,
          ),
        ),
  );
}
