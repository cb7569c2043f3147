import { Type } from 'typebox';
import type { HttpApp } from '../common/create-app.js';
import { LANGUAGE_COOKIE } from './language.js';
import { PAGE_ASSETS_PATH, pageAssets } from './page-assets.js';
import { cookieOptions, pageCookies, pageOf } from './page-context.js';
import type { SessionStore } from '../../../service/accounts/index.js';
import { isLanguage } from './words.js';
import { sendProblem } from './page-reply.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../../service/db/index.js';

/** Where the language switch may send a browser back to: a path of this server, never `//x`. */
export function safeBack(back: unknown, fallback = '/'): string {
  return typeof back === 'string' && /^\/(?![/\\])[^\s]*$/.test(back) && back.length <= 2000
    ? back
    : fallback;
}

/**
 * The pages' assets (`/assets/{name}`, compressed, cached for a year under their version), outside
 * the pages' scope: a stylesheet needs no session.
 */
export function pageAssetRoutes(scope: HttpApp): void {
  const assets = pageAssets();
  scope.get(
    `${PAGE_ASSETS_PATH}/:name`,
    {
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ maxLength: 64 }) }),
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    },
    async (request, reply) => {
      const asset = assets.get(request.params.name);
      if (!asset) return reply.code(404).type('text/plain').send('no such asset');
      const etag = `"${asset.version}"`;
      void reply.headers({
        'cache-control':
          request.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'no-cache',
        etag,
        vary: 'accept-encoding',
        'x-content-type-options': 'nosniff',
      });
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      const accepted = String(request.headers['accept-encoding'] ?? '');
      void reply.type(asset.contentType);
      if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(asset.brotli);
      if (/\bgzip\b/.test(accepted))
        return reply.header('content-encoding', 'gzip').send(asset.gzip);
      return reply.send(asset.body);
    },
  );
}

/**
 * The routes every page shares: its assets (`/assets/{name}`, compressed, cached for a year
 * under their version), the language switch (`POST /language`: the visitor's cookie, and the
 * account's choice when logged in) and `/`, which leads to the dashboard or the log-in page.
 */
export function sharedPagesRoutes(
  db: Kysely<Database>,
  publicUrl: string,
): (scope: HttpApp, sessions: SessionStore) => void {
  return (scope) => {
    const cookies = pageCookies(publicUrl);
    scope.post(
      '/language',
      {
        schema: {
          hide: true,
          body: Type.Object({
            lang: Type.String({ maxLength: 8 }),
            back: Type.Optional(Type.String({ maxLength: 2000 })),
            _csrf: Type.Optional(Type.String({ maxLength: 128 })),
          }),
        },
      },
      async (request, reply) => {
        const { lang, back } = request.body;
        const page = pageOf(request);
        if (isLanguage(lang)) {
          void reply.setCookie(LANGUAGE_COOKIE, lang, {
            ...cookieOptions(cookies, 365 * 24 * 3600),
            httpOnly: false,
          });
          if (page.session)
            await db
              .updateTable('logins')
              .set({ language: lang })
              .where('id', '=', page.session.loginId)
              .execute();
        }
        // A locale-prefixed page (/en/user/register) comes back under the chosen prefix.
        const target = safeBack(back).replace(
          /^\/(da|en)(?=\/|$)/,
          isLanguage(lang) ? `/${lang}` : '/$1',
        );
        return reply.redirect(target, 303);
      },
    );

    // Any other path of the pages' areas is the not-found page, in the visitor's language.
    for (const area of ['/dashboard/*', '/user/*', '/da/*', '/en/*'])
      scope.get(area, { schema: { hide: true } }, (request, reply) =>
        sendProblem(reply, pageOf(request), 'notFound'),
      );

    scope.get('/', { schema: { hide: true } }, async (request, reply) =>
      reply.redirect(pageOf(request).session ? '/dashboard' : '/user/login', 303),
    );
  };
}
