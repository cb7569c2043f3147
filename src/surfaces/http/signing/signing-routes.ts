import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { rasterizePdf, type RasterOptions } from '../../../formats/raster/index.js';
import { PageImageCache } from './page-image-cache.js';
import type { Storage } from '../../../render/storage/index.js';
import type { Database } from '../../../service/db/index.js';
import { DEFAULT_TIME_ZONE } from '../../../document/fill/index.js';
import {
  readSignedReceipt,
  readSigningSession,
  readUnsentLink,
} from '../../../service/signing/index.js';
import type { HttpApp } from '../common/create-app.js';
import { signingAssetRoutes } from './signing-assets-routes.js';
import { signingLogoRoute } from './signing-logo-route.js';
import type { SigningMisses } from './signing-misses.js';
import {
  MAX_SHOWN_PAGES,
  PAGE_HEADERS,
  messagePage,
  pageLanguage,
  receiptPage,
  unsentPage,
  signingPage,
} from './signing-page.js';

export interface SigningRoutesOptions {
  db: Kysely<Database>;
  storage: Storage;
  /**
   * Counts the requests whose token opens nothing per address, and refuses an address past its
   * allowance (the API's counter: a guesser gains nothing by asking the page instead).
   * @defaultValue undefined: nothing counted
   */
  misses?: SigningMisses;
  /** @defaultValue rasterizePdf (pdftoppm) */
  rasterize?: (pdf: Uint8Array, options: RasterOptions) => Promise<Buffer[]>;
  /** @defaultValue () => new Date() */
  now?: () => Date;
  /**
   * `DOCPIPE_TIME_ZONE`: the zone of the times a page shows (a used link's "you signed on").
   * @defaultValue DEFAULT_TIME_ZONE ('Europe/Copenhagen')
   */
  timeZone?: string;
}

/** Screen resolution: a page is about 800 pixels wide, readable and a few hundred KB at most. */
export const PAGE_IMAGE_DPI = 96;

const Token = Type.String({
  maxLength: 128,
  description: 'the token of the recipient’s signing link (its only credential)',
});
/** The PNG's bytes; typed so, as the route sends a Buffer. */
const PngBytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });
const html = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String() } },
});

/**
 * `GET /sign/{token}`: the recipient's signing page (a shell whose script asks the page's JSON
 * API, signing-api-routes.ts), `GET /sign/{token}/documents/{index}/pages/{page}`: its page
 * images, `GET /sign/{token}/logo`, and the page's assets and eID thank-you page. The token is
 * the capability, so no key is asked for; every token that opens nothing (wrong, used, of a
 * denied or expired case) gets the same 404 page, but for the link of a recipient who signed
 * with it: the page says so to its holder (signed-receipt.ts), counted as no miss.
 */
export function signingRoutes(app: HttpApp, options: SigningRoutesOptions): Promise<void> {
  const rasterize = options.rasterize ?? rasterizePdf;
  const pageImages = new PageImageCache();
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const { misses } = options;
  const notFound = (reply: FastifyReply, language?: string) =>
    reply
      .code(404)
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(messagePage('notFound', language));
  /** The session, or undefined after answering 404 or 429 (a miss counted). */
  const sessionOr = async (request: FastifyRequest, reply: FastifyReply, token: string) => {
    const session = await readSigningSession(options.db, token, now());
    if (session) return session;
    if (!misses || !(await misses.missed(request, reply)))
      await notFound(reply, pageLanguage(undefined, request.headers['accept-language']));
    return undefined;
  };
  // The counter answers 429 in the API's JSON; a person opening a page gets it as a page.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode !== 429) return payload;
    void reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8');
    return messagePage('tooMany');
  });
  // Whatever fails (the database, storage, poppler) is the same page with no details: the log
  // has them, without the token (the request serializer redacts /sign/ URLs).
  app.setErrorHandler((err, request, reply) => {
    const invalid = (err as { validation?: unknown }).validation !== undefined;
    if (invalid) return notFound(reply);
    request.log.error({ err }, 'the signing page failed');
    return reply
      .code(500)
      .headers(PAGE_HEADERS)
      .type('text/html; charset=utf-8')
      .send(messagePage('failed'));
  });

  app.get(
    '/sign/:token',
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingPage',
        summary: 'The recipient’s signing page',
        description:
          'The page a recipient’s signingUrl opens: a page whose script shows the case, the documents page by page with the recipient’s places, and the ways to sign or deny, through the signing API (`/sign/{token}/api`). Once its recipient has signed with it, the link shows a page saying so, when, and how the signed copy comes, in the case’s language (while the case waits for others or is sealed; its API, sign and deny still answer 404). A token that opens nothing (wrong, used to deny, of a denied or expired case) is a 404 page.',
        security: [],
        params: Type.Object({ token: Token }),
        response: {
          200: html('The signing page, or the receipt of a link its recipient signed with'),
          404: html('The link opens nothing'),
          429: html('Too many links that open nothing from this address'),
          500: html('The page could not be made'),
        },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const session = await readSigningSession(options.db, token, now());
      if (session)
        return reply
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(signingPage(session));
      // Only the link itself opens its receipt, so it is no miss: nothing a guesser could use.
      const receipt = await readSignedReceipt(options.db, token, now());
      if (receipt)
        return reply
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(receiptPage(receipt, timeZone));
      // A draft's link, likewise: it opens the case once the draft is sent.
      const unsent = await readUnsentLink(options.db, token);
      if (unsent)
        return reply
          .headers(PAGE_HEADERS)
          .type('text/html; charset=utf-8')
          .send(unsentPage(unsent));
      if (!misses || !(await misses.missed(request, reply)))
        await notFound(reply, pageLanguage(undefined, request.headers['accept-language']));
      return reply;
    },
  );

  // A browser opening a signing page asks for /favicon.ico on its own; a 404 there is an error
  // in the recipient's console on every visit. The page has no icon: nothing, successfully. Not
  // part of the API, so not in the OpenAPI document.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.code(204).headers(PAGE_HEADERS).send(),
  );

  app.get(
    '/sign/:token/documents/:index/pages/:page',
    {
      schema: {
        tags: ['signing'],
        operationId: 'signingPageImage',
        summary: 'A page of a case document, as an image, for its signing page',
        description: `One page drawn as PNG at ${PAGE_IMAGE_DPI} dpi; the first ${MAX_SHOWN_PAGES} pages of a document are served.`,
        security: [],
        params: Type.Object({
          token: Token,
          index: Type.String({
            pattern: '^(0|[1-9][0-9]{0,3})$',
            description: 'the document, from 0',
          }),
          page: Type.String({
            pattern: '^[1-9][0-9]{0,3}\\.png$',
            description: 'the page, from 1, then .png (1.png)',
          }),
        }),
        response: {
          200: {
            description: 'The page',
            content: { 'image/png': { schema: PngBytes } },
          },
          404: html('The link opens nothing, or no such document or page'),
          429: html('Too many links that open nothing from this address'),
          500: html('The page could not be drawn'),
        },
      },
    },
    async (request, reply) => {
      const view = await sessionOr(request, reply, request.params.token);
      if (!view) return reply;
      const index = Number(request.params.index);
      const page = Number.parseInt(request.params.page, 10);
      const document = view.documents.find((d) => d.index === index);
      if (
        !document?.storageKey ||
        !document.pages ||
        page > Math.min(document.pages, MAX_SHOWN_PAGES)
      )
        return notFound(reply, view.language);
      const storageKey = document.storageKey;
      const png = await pageImages.get(`${storageKey}#${page}`, async () => {
        const pdf = await options.storage.get(storageKey);
        if (!pdf) return undefined;
        const [drawn] = await rasterize(pdf, {
          dpi: PAGE_IMAGE_DPI,
          firstPage: page,
          lastPage: page,
          maxPages: 1,
          field: `documents[${index}]`,
        });
        return drawn;
      });
      if (!png) return notFound(reply, view.language);
      return reply.headers(PAGE_HEADERS).type('image/png').send(png);
    },
  );

  signingLogoRoute(app, { db: options.db, misses, now, notFound });
  signingAssetRoutes(app);
  return Promise.resolve();
}
