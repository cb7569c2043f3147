import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DocpipeError } from '../../../base/errors/index.js';
import type { Preparer } from '../../../render/prepare/index.js';
import {
  isStorageUnavailableError,
  parseStoredDocumentKey,
  parseStoredDocumentUrl,
  readDocumentMeta,
  storedDocumentKey,
  storedDocumentUrl,
  writeDocumentMetaOnce,
  type Storage,
  type StoredDocumentType,
} from '../../../render/storage/index.js';
import { requireCompany } from '../common/auth.js';
import type { HttpApp } from '../common/create-app.js';
import { documentDownloadUrl } from '../convert/document-urls.js';
import { documentName } from '../common/files-disposition.js';
import { FileRefusal, fileErrorHandler } from '../common/files-errors.js';
import {
  CompanyParams,
  FileError,
  JsonUploadBody,
  MultipartUploadBody,
  PresignBody,
  PresignResponse,
  UploadResponse,
  V2ErrorList,
} from './files-schemas.js';
import type { SignedUrlCache, UploadRef } from './signed-url-cache.js';
import {
  isMultipartUpload,
  jsonUpload,
  multipartUpload,
  multipartUploadParser,
  refuseOtherMediaTypes,
  uploadFormLimits,
  UPLOAD_FIELD_BYTES,
  UPLOAD_FORM_PARTS,
  type UploadInput,
} from './uploads-body.js';

export interface FileRoutesOptions {
  /** Where uploads are kept (content-addressed, under the company's own key prefix). */
  storage: Storage;
  /** What decides what bytes are: the preparer's sniff (PreparePool, or InlinePreparer in tests). */
  preparer: Pick<Preparer, 'sniff'>;
  /** The signed URLs issued so far, shared by every HTTP server: RedisSignedUrlCache. */
  signedUrls: SignedUrlCache;
  /** config.http.publicUrl: the base of every URL docpipe issues. */
  publicUrl: string;
  /** config.signingSecret: the HMAC secret of signed download URLs. */
  signingSecret: string;
  /** config.http.signedUrlTtlSeconds: how long a signed URL works. */
  signedUrlTtlSeconds: number;
  /** config.limits.maxInputBytes: the largest document an upload may carry, in bytes. */
  maxUploadBytes: number;
  /** config.http.bodyLimitBytes: the largest request body (a JSON upload is base64). */
  bodyLimitBytes: number;
  /** The clock, for tests of expiry. @defaultValue the system clock */
  now?: () => Date;
}

const MEDIA_TYPES: Record<StoredDocumentType, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** Failures every file route may answer, each in the shape its answerer gives. */
const FAILURES = {
  400: FileError,
  401: V2ErrorList,
  413: FileError,
  415: FileError,
  429: V2ErrorList,
  500: FileError,
};

/**
 * The file endpoints (spec 4.3): `POST /v3/company/{company}/file/upload` and
 * `POST /v3/company/{company}/file/view-presigned-url`. Failures answer `{message}`; a company
 * that is not the key's answers the 7.1 company error. Put authenticateV2 in front.
 */
export async function fileRoutes(app: HttpApp, options: FileRoutesOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  // Each route's own limit: the upload's is bodyLimitBytes, the pre-signed URL's the server's small one.
  app.setErrorHandler(
    fileErrorHandler((request) => ({
      bodyLimit: request.routeOptions.bodyLimit ?? options.bodyLimitBytes,
    })),
  );
  // Multipart parsing in a context of its own: only the upload route takes form data.
  await app.register((uploads: HttpApp, _options, done) => {
    uploads.addContentTypeParser(
      'multipart/form-data',
      multipartUploadParser(uploadFormLimits(options.maxUploadBytes, options.bodyLimitBytes)),
    );
    uploadRoute(uploads, options);
    done();
  });
  app.post(
    '/v3/company/:company/file/view-presigned-url',
    {
      schema: {
        tags: ['v3 files'],
        operationId: 'viewPresignedUrl',
        summary: 'A signed, expiring download URL for a stored document',
        description:
          'The url is one an upload answered for this company. Asked again while the URL issued before has at least half its lifetime left, the same URL is answered with cached: true.',
        security: [{ bearer: [] }],
        params: CompanyParams,
        body: PresignBody,
        response: { 200: PresignResponse, ...FAILURES, 404: FileError },
      },
    },
    async (request, reply) => {
      if (!requireCompany(request, reply, request.params.company)) return reply;
      const upload = await ownedUpload(options, request.params.company, request.body.url);
      const { key } = upload;
      const ref = parseStoredDocumentKey(key)!;
      const ttlMs = options.signedUrlTtlSeconds * 1000;
      const issue = async () => ({
        // S3's own pre-signed URL on S3 storage, docpipe's signed /files/ URL otherwise.
        url: await documentDownloadUrl(
          options,
          key,
          new Date(now().getTime() + ttlMs),
          { mediaType: MEDIA_TYPES[ref.type], extension: ref.type },
          upload.name,
        ),
        // Reused for half its lifetime, so a cached URL always has at least half left.
        reuseForMs: Math.floor(ttlMs / 2),
      });
      const signed = await options.signedUrls
        .reuseOrIssue(upload, issue)
        .catch(async (err: unknown) => {
          if (isStorageUnavailableError(err)) throw err;
          // The cache only saves issuing: without Redis a fresh URL works just as well.
          request.log.warn({ err }, 'signed URL cache unavailable; issuing a fresh URL');
          return { url: (await issue()).url, cached: false };
        });
      return reply.send({ key, signedUrl: signed.url, type: ref.type, cached: signed.cached });
    },
  );
}

function uploadRoute(app: HttpApp, options: FileRoutesOptions): void {
  app.post(
    '/v3/company/:company/file/upload',
    {
      bodyLimit: options.bodyLimitBytes,
      preParsing: refuseOtherMediaTypes,
      schema: {
        tags: ['v3 files'],
        operationId: 'uploadFile',
        summary: 'Store a PDF or .docx for later use as a document source',
        description: `The bytes decide what the document is (the declared type is not trusted); anything but a PDF or a real .docx is refused with the reason. Documents up to ${options.maxUploadBytes} bytes; request bodies up to ${options.bodyLimitBytes} bytes; a multipart form has one file part, at most ${UPLOAD_FORM_PARTS} parts and text fields up to ${UPLOAD_FIELD_BYTES} bytes. Past a limit the answer comes at once and the connection is closed.`,
        security: [{ bearer: [] }],
        params: CompanyParams,
        body: {
          content: {
            'application/json': { schema: JsonUploadBody },
            'multipart/form-data': { schema: MultipartUploadBody },
          },
        },
        response: { 200: UploadResponse, ...FAILURES },
      },
    },
    async (request, reply) => {
      const { company } = request.params;
      if (!requireCompany(request, reply, company)) return reply;
      const upload = isMultipartUpload(request)
        ? multipartUpload(request, request.body as { name?: string })
        : jsonUpload(request.body as { file: string; name: string });
      const stored = await store(options, request, company, upload);
      return reply.send(stored);
    },
  );
}

/** Sniffs and stores an upload; anything but a PDF or a real .docx is refused with the reason. */
async function store(
  options: FileRoutesOptions,
  request: FastifyRequest,
  company: string,
  upload: UploadInput,
): Promise<{ url: string; type: StoredDocumentType }> {
  if (upload.bytes.byteLength > options.maxUploadBytes)
    throw new FileRefusal(
      413,
      `the file is larger than the upload limit of ${options.maxUploadBytes} bytes (it has ${upload.bytes.byteLength}); send a smaller document`,
    );
  const sniffed = await options.preparer.sniff(upload.bytes);
  if (sniffed.kind === 'unsupported')
    throw new DocpipeError('unsupported-file-type', [
      {
        field: 'file',
        message: `${sniffed.reason}: ${sniffed.message}`,
      },
    ]);
  const type = sniffed.kind;
  const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
  const key = storedDocumentKey(company, sha256, type);
  // The bytes are stored once per company; the name is this upload's, carried by its URL, so a
  // later upload of the same bytes under another name never renames this one.
  const name = documentName(upload.name ?? `document.${type}`);
  await options.storage.put(key, upload.bytes, MEDIA_TYPES[type]);
  // For URLs issued before names were in URLs, which take their name from here.
  await writeDocumentMetaOnce(options.storage, key, { name });
  request.log.info({ key, bytes: upload.bytes.byteLength, type }, 'document uploaded');
  return { url: storedDocumentUrl(options.publicUrl, key, name), type };
}

/**
 * The upload a URL names, when the company may see it: its storage key and the name it was
 * uploaded under (an upload URL from before names were in URLs: the name stored beside it). A
 * URL docpipe did not issue is 400; one of another company and one of a missing document are
 * the same 404, so that no company learns what another has stored.
 */
async function ownedUpload(
  options: FileRoutesOptions,
  company: string,
  url: string,
): Promise<UploadRef> {
  const ref = parseStoredDocumentUrl(url, options.publicUrl);
  if (!ref)
    throw new DocpipeError('validation-failed', [
      {
        field: 'url',
        message: `not an upload's url: this renews the url an upload answered (${options.publicUrl}/v3/company/<company>/file/<id>); a conversion's file is renewed by sending the convert again, a case's document by reading the case (GET /v3/api/cases/{id})`,
      },
    ]);
  if (ref.company !== company || !(await options.storage.stat(ref.key)))
    throw new DocpipeError('document-not-found', [
      { field: 'url', message: `no stored document of company ${company} at this url` },
    ]);
  const name =
    ref.name ??
    (await readDocumentMeta(options.storage, ref.key))?.name ??
    `document.${parseStoredDocumentKey(ref.key)!.type}`;
  return { key: ref.key, name };
}
