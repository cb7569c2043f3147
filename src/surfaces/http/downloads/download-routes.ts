import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  parseStorageKey,
  parseStoredDocumentKey,
  readDocumentMeta,
  readObjectStream,
  verifySignedUrl,
  type ByteRange,
  type Storage,
  type StoredObject,
} from '../../../render/storage/index.js';
import { isCaseDocumentKey } from '../../../service/cases/index.js';
import type { HttpApp } from '../common/create-app.js';
import { contentDisposition } from '../common/files-disposition.js';
import { FileRefusal, fileErrorHandler } from '../common/files-errors.js';
import { rangeOf } from './files-range.js';
import { fileError } from '../common/replies.js';
import {
  BinaryDocument,
  DownloadParams,
  DownloadQuery,
  FileError,
} from '../files/files-schemas.js';

export interface DownloadRoutesOptions {
  storage: Storage;
  /** config.signingSecret: the HMAC secret the signed URLs were made with. */
  signingSecret: string;
  /** The clock, for tests of expiry. @defaultValue the system clock */
  now?: () => Date;
}

/** Why a signed URL is refused, in words that say what to do. */
const REFUSALS = {
  malformed:
    'not a signed download URL: it lacks its expires or signature parameter; use the URL as it was given',
  'bad-signature':
    'the signature does not match this URL: it was changed or cut; ask for a new signed URL',
} as const;

/**
 * An expired URL's refusal says how to get a new one for what it named: each kind of document has
 * its own way, and only an upload's goes through view-presigned-url.
 */
function expiredRefusal(key: string): string {
  const stored = parseStorageKey(key);
  const expired = 'the signed URL has expired';
  if (stored?.kind === 'upload')
    return `${expired}; ask for a new one: POST /v3/company/${stored.company}/file/view-presigned-url with the url the upload answered`;
  if (stored?.kind === 'render')
    return `${expired}; send the same convert request again: it is answered from storage, without converting, with a new URL`;
  if (isCaseDocumentKey(key))
    return `${expired}; read the case again with GET /v3/api/cases/{id} (the same API key works): its documents carry new URLs`;
  return `${expired}; ask whoever gave it to you for a new one`;
}

const EXTENSION = /\.([a-z0-9]+)$/;

/**
 * `GET /files/<key>?expires&name&signature` (and HEAD): the route local storage's signed URLs
 * point at. The signature is the capability, so no API key is asked for: put no authentication
 * hook in front. Streams the object with its type, the name signed into the URL
 * (`Content-Disposition`), its content hash as `ETag`, and single byte ranges (206, 416).
 */
export function downloadRoutes(app: HttpApp, options: DownloadRoutesOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  app.setErrorHandler(fileErrorHandler(() => ({ bodyLimit: 0 })));
  const binary = { content: { 'application/octet-stream': { schema: BinaryDocument } } };
  app.get(
    '/files/*',
    {
      // `/files/{key}` in the OpenAPI document: the rest of the path is the storage key.
      config: { wildcardName: 'key' },
      schema: {
        tags: ['downloads'],
        operationId: 'downloadFile',
        summary: 'Download a stored document through a signed URL',
        description:
          'The URL comes from view-presigned-url or a conversion; it works until its expiry, for anyone who has it. Single byte ranges are served (206); a range past the end is 416.',
        // The signature is the capability: no key, no credential.
        security: [],
        params: DownloadParams,
        querystring: DownloadQuery,
        response: {
          200: binary,
          206: binary,
          304: { type: 'null', description: 'Not modified (If-None-Match)' },
          403: FileError,
          404: FileError,
          416: FileError,
          500: FileError,
        },
      },
    },
    async (request, reply) => {
      const { expires } = request.query;
      const check = verifySignedUrl(request.url, options.signingSecret, now());
      if (!check.ok)
        throw new FileRefusal(
          403,
          check.reason === 'expired' ? expiredRefusal(check.key) : REFUSALS[check.reason],
        );
      const name = check.name ?? (await unsignedName(options.storage, check.key));
      const object = await options.storage.stat(check.key);
      if (!object)
        throw new FileRefusal(
          404,
          'no stored document at this URL: it was removed; ask the sender again',
        );
      const seconds = Math.max(0, Math.floor(Number(expires) - now().getTime() / 1000));
      return serve(options.storage, object, name, request, reply, seconds);
    },
  );
  return Promise.resolve();
}

async function serve(
  storage: Storage,
  object: StoredObject,
  name: string,
  request: FastifyRequest,
  reply: FastifyReply,
  maxAgeSeconds: number,
): Promise<FastifyReply> {
  // A store that keeps the content hash beside the object (S3) saves reading it whole here.
  const etag = `"${object.sha256 ?? (await contentHash(storage, object.key))}"`;
  void reply
    .header('content-type', object.type)
    .header('content-disposition', contentDisposition(name, EXTENSION.exec(object.key)?.[1]))
    .header('etag', etag)
    // Private: the URL is someone's capability, never for a shared cache past its expiry.
    .header('cache-control', `private, max-age=${maxAgeSeconds}`)
    .header('accept-ranges', 'bytes');
  if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const ifRange = request.headers['if-range'];
  const answer =
    ifRange === undefined || ifRange === etag
      ? rangeOf(request.headers.range, object.bytes)
      : ({ kind: 'whole' } as const);
  if (answer.kind === 'unsatisfiable')
    return reply
      .code(416)
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-range', `bytes */${object.bytes}`)
      .send(fileError(`the range is outside the document's ${object.bytes} bytes`));
  const range: ByteRange | undefined = answer.kind === 'partial' ? answer.range : undefined;
  if (range) {
    void reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${object.bytes}`);
  }
  void reply.header('content-length', range ? range.end - range.start + 1 : object.bytes);
  // Fastify's HEAD keeps the length set here only for a stream, which it drains: an empty one.
  if (request.method === 'HEAD') return reply.send(Readable.from([]));
  const stream = await readObjectStream(storage, object.key, range);
  if (!stream) throw new FileRefusal(404, 'no stored document at this URL: it was removed');
  return reply.send(stream);
}

/**
 * The name of a URL issued before names were signed into URLs: an upload's is the name stored
 * beside it (written once, so no later upload changes it); a render has none kept.
 */
async function unsignedName(storage: Storage, key: string): Promise<string> {
  const upload = parseStoredDocumentKey(key);
  return (upload && (await readDocumentMeta(storage, key))?.name) ?? 'document';
}

/** `If-None-Match`: `*` or a list of entity tags, weak ones compared weakly (RFC 9110 13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The object's content hash, a strong validator for ranges. An upload's key is the sha256 of its
 * bytes, so it is read from the name; any other object (a render's key hashes its inputs, and a
 * render made again may differ in bytes) is hashed as read.
 */
async function contentHash(storage: Storage, key: string): Promise<string> {
  const named = parseStoredDocumentKey(key)?.id.split('.')[0];
  if (named) return named;
  const bytes = await storage.get(key);
  return createHash('sha256')
    .update(bytes ?? Buffer.alloc(0))
    .digest('hex');
}
