import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { DocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import { rasterizePdf } from '../../../formats/raster/index.js';
import {
  CasePlaceSchema,
  readCasePlaces,
  saveDraftPlaces,
  storedCaseDocument,
  type CasePlace,
  type CasePlaces,
} from '../../../service/cases/index.js';
import { memberOf, pageOf, sendPage, sendProblem, type PageContext } from '../pages/index.js';
import type { DashboardPages } from '../pages/index.js';
import { PAGE_HEADERS } from '../pages/index.js';
import { PAGE_IMAGE_DPI, PageImageCache } from '../signing/index.js';
import { MAX_PLACES_PAGES, PlacesClosedPage, PlacesPage } from './places-page.js';

const CaseParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ImageParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  index: Type.String({ maxLength: 8 }),
  page: Type.String({ maxLength: 8 }),
});
const SaveBody = Type.Object({
  _csrf: Type.Optional(Type.String({ maxLength: 128 })),
  places: Type.Optional(Type.String({ maxLength: 60_000 })),
});

/** What the editor posts: each place with the index of its document. */
const PostedPlaces = Type.Array(
  Type.Object(
    { document: Type.Integer({ minimum: 0 }), ...CasePlaceSchema.properties },
    { additionalProperties: false },
  ),
  { maxItems: 2_000 },
);

/**
 * `/dashboard/cases/{id}/places` (issue 34): a draft's places editor, its page images, and the
 * save, checked by the case service's own place check (the v3 `documents[i].places` one). The
 * problems shown are those sending would answer. Another company's case is not found.
 */
export const placesPages: DashboardPages = (scope, { context }) => {
  const { db, storage } = context.deps;
  const images = new PageImageCache();

  const read = async (company: string, id: string): Promise<CasePlaces | undefined> => {
    try {
      return await readCasePlaces(db, storage, company, id);
    } catch (err) {
      if (err instanceof DocpipeError && err.slug === 'case-not-found') return undefined;
      throw err;
    }
  };

  /** The member and their case's places, or undefined once the answer (log-in, not found) is sent. */
  const placesOf = async (request: FastifyRequest, reply: FastifyReply, id: string) => {
    const member = await memberOf(request, reply);
    if (!member) return undefined;
    const page = pageOf(request);
    const places = await read(member.companyId, id);
    if (!places) {
      await sendProblem(reply, page, 'notFound');
      return undefined;
    }
    return { member, page, places };
  };

  const show = (
    reply: FastifyReply,
    page: PageContext,
    places: CasePlaces,
    extra: { problems?: FailureDetail[]; saved?: boolean },
    status = 200,
  ) => {
    if (places.state !== 'draft')
      return sendPage(reply, <PlacesClosedPage page={page} places={places} />, status);
    return sendPage(
      reply,
      <PlacesPage
        page={page}
        places={places}
        problems={extra.problems ?? places.problems}
        {...(extra.saved ? { saved: true } : {})}
      />,
      status,
    );
  };

  scope.get(
    '/dashboard/cases/:id/places',
    { schema: { hide: true, params: CaseParams } },
    async (request, reply) => {
      const opened = await placesOf(request, reply, request.params.id);
      if (!opened) return reply;
      const { page, places } = opened;
      const saved = (request.query as { saved?: string } | undefined)?.saved === '1';
      return show(reply, page, places, { saved });
    },
  );

  scope.get(
    '/dashboard/cases/:id/documents/:index/pages/:page',
    { schema: { hide: true, params: ImageParams } },
    async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const { id } = request.params;
      const index = /^\d{1,4}$/.test(request.params.index) ? Number(request.params.index) : -1;
      const number = /^\d{1,4}$/.test(request.params.page) ? Number(request.params.page) : 0;
      const stored = await storedCaseDocument(db, member.companyId, id, index);
      if (!stored || number < 1 || number > Math.min(stored.pages, MAX_PLACES_PAGES))
        return sendProblem(reply, page, 'notFound');
      const key = stored.storageKey;
      const png = await images.get(`${key}#${number}`, async () => {
        const pdf = await storage.get(key);
        if (!pdf) return undefined;
        const [drawn] = await rasterizePdf(pdf, {
          dpi: PAGE_IMAGE_DPI,
          firstPage: number,
          lastPage: number,
          maxPages: 1,
          field: `documents[${index}]`,
        });
        return drawn;
      });
      if (!png) return sendProblem(reply, page, 'notFound');
      return reply.headers(PAGE_HEADERS).type('image/png').send(png);
    },
  );

  scope.post(
    '/dashboard/cases/:id/places',
    { schema: { hide: true, params: CaseParams, body: SaveBody } },
    async (request, reply) => {
      const { id } = request.params;
      const opened = await placesOf(request, reply, id);
      if (!opened) return reply;
      const { member, page, places } = opened;
      if (places.state !== 'draft') return show(reply, page, places, {}, 409);
      const posted = parsePosted(request.body.places ?? '');
      if (!posted)
        return show(
          reply,
          page,
          places,
          { problems: [{ field: 'places', message: page.words.places.badBody }] },
          400,
        );
      // Every document is saved: one the editor left empty has its places removed.
      const byDocument = new Map<number, CasePlace[]>(
        places.documents.filter((d) => d.pages.length > 0).map((d) => [d.index, []]),
      );
      for (const { document, ...place } of posted)
        byDocument.set(document, [...(byDocument.get(document) ?? []), place]);
      try {
        await saveDraftPlaces(db, storage, member.companyId, id, byDocument);
      } catch (err) {
        if (!(err instanceof DocpipeError) || err.slug !== 'validation-failed') throw err;
        // The page shows what was posted, so that a refused save loses none of the work.
        const after = {
          ...places,
          documents: places.documents.map((d) => ({
            ...d,
            places: byDocument.get(d.index) ?? d.places,
          })),
        };
        return show(reply, page, after, { problems: err.details }, 400);
      }
      return reply.redirect(`/dashboard/cases/${encodeURIComponent(id)}/places?saved=1`, 303);
    },
  );
};

/** The posted JSON as places with their document, or undefined when it is not that. */
function parsePosted(text: string): (CasePlace & { document: number })[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return Value.Check(PostedPlaces, value) ? value : undefined;
}
