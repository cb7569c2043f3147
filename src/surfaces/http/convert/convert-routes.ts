import { OUTAGES } from '../../../base/errors/index.js';
import type {
  DocumentJobResult,
  DocpipeClient,
  RequestOptions,
} from '../../../jobs/queue/index.js';
import type { Storage } from '../../../render/storage/index.js';
import { apiKeyOf } from '../common/api-key.js';
import type { HttpApp } from '../common/create-app.js';
import { stopSignalOf } from '../common/stopping.js';
import { convertSignal } from './convert-deadline.js';
import { convertErrorHandler } from './convert-errors.js';
import { convertBodySchema, ConvertReplySchema, V2ErrorListSchema } from './convert-schema.js';
import { convertInputs, type ResolveDocumentUrl } from './convert-sources.js';

export interface ConvertRoutesOptions {
  /** The queue's producer: every conversion runs on docpipe's workers. */
  client: Pick<DocpipeClient, 'render' | 'renderDocumentSet'>;
  /** The storage docpipe-issued URLs point into (uploads, produced PDFs). */
  storage: Storage;
  /** A docpipe-issued upload or signed URL to its storage key; undefined for any other URL. */
  resolveDocumentUrl: ResolveDocumentUrl;
  /**
   * The signed download URL of a stored PDF, named `name` when downloaded (a promise when the
   * signer writes the name down beside the object first).
   */
  signedUrlFor: (key: string, name: string) => string | Promise<string>;
  /**
   * How long a request waits for its documents before answering 503; its jobs that have not
   * started are withdrawn. Keep it under the client's own timeoutMs. @defaultValue 60 000 ms
   */
  timeoutMs?: number;
  /**
   * Retry-After of a 503 for the queue's outages (no Redis, no worker, no answer in time).
   * @defaultValue the outage table's (OUTAGES in src/base/errors): 30 s
   */
  retryAfterSeconds?: number;
  /** Documents one request may convert. @defaultValue 100 */
  maxDocuments?: number;
  /**
   * The largest request body (config.http.bodyLimitBytes): documents travel in it as base64,
   * far past the server's small default. @defaultValue the instance's body limit
   */
  bodyLimitBytes?: number;
}

type Limits = Required<
  Pick<ConvertRoutesOptions, 'timeoutMs' | 'retryAfterSeconds' | 'maxDocuments'>
>;

export const DEFAULT_CONVERT_OPTIONS: Readonly<Limits> = Object.freeze({
  timeoutMs: 60_000,
  retryAfterSeconds: OUTAGES['queue-unavailable'].retryAfterSeconds,
  maxDocuments: 100,
});

/**
 * `POST /api/v2/document/convert` (spec 4.3): each document (base64, or a URL docpipe issued)
 * converted to PDF through the queue with the request's tags filled in, as one document set: every
 * document's result, or one answer listing every failing document's problems. The answer's
 * `file` is a signed download URL of each PDF. Failures answer in the v2 shapes (spec 7.1).
 */
// async, so that a throw (bad options) rejects the registration instead of escaping avvio.
// eslint-disable-next-line @typescript-eslint/require-await
export async function convertRoutes(app: HttpApp, options: ConvertRoutesOptions): Promise<void> {
  const { timeoutMs, retryAfterSeconds, maxDocuments } = convertOptions(options);
  app.setErrorHandler(convertErrorHandler(retryAfterSeconds));
  const errors = V2ErrorListSchema;
  app.post(
    '/api/v2/document/convert',
    {
      ...(options.bodyLimitBytes !== undefined ? { bodyLimit: options.bodyLimitBytes } : {}),
      schema: {
        tags: ['v2 documents'],
        operationId: 'convertDocuments',
        summary: 'Convert .docx documents to PDF, filling in tag values',
        description:
          'Each document is base64 content or a URL docpipe issued (upload or signed URL); any other URL is refused. Unknown members of the body and of each document are ignored, as v2 always did; a TagInput has exactly tag, value, type and format.',
        security: [{ bearer: [] }],
        body: convertBodySchema(maxDocuments),
        response: {
          200: ConvertReplySchema,
          400: errors,
          401: errors,
          413: errors,
          429: errors,
          500: errors,
          503: errors,
        },
      },
    },
    async (request, reply) => {
      const { company } = apiKeyOf(request);
      const { documents, tags } = request.body;
      const inputs = await convertInputs(documents, tags, company, options);
      const wait = convertSignal(reply, timeoutMs, stopSignalOf(request));
      // The request id goes with the jobs, so that the worker's log lines for them carry it.
      // The key's company is the line the jobs wait in: companies take turns at the workers.
      const requestOptions: RequestOptions = {
        signal: wait.signal,
        waitUntil: wait.deadline,
        requestId: request.id,
        company,
      };
      let results: DocumentJobResult[];
      try {
        // One document is a set of one: the same answer and failure, without the flow's parent
        // job and its second worker round trip (most converts carry one document).
        results =
          inputs.length === 1
            ? [await options.client.render(inputs[0]!, requestOptions)]
            : await options.client.renderDocumentSet(inputs, requestOptions);
      } finally {
        wait.done();
      }
      const answered = await Promise.all(
        results.map(async (result, i) => {
          const name = pdfName(documents[i]!.name);
          return { file: await options.signedUrlFor(storedKey(result), name), name };
        }),
      );
      const notices = noticesOf(results);
      return reply.code(200).send({
        status: { code: 200, message: `${results.length} document(s) converted` },
        documents: answered,
        ...(notices.length > 0 ? { notices } : {}),
      });
    },
  );
}

/** Every source here is bytes, so every result is a stored PDF; a URL result is a bug. */
function storedKey(result: DocumentJobResult): string {
  if (result.kind !== 'rendered')
    throw new Error(`${result.field}: the queue answered a URL for a document sent as bytes`);
  return result.result.key;
}

/** Every document's render notices, each naming its document's field. */
function noticesOf(results: DocumentJobResult[]) {
  return results.flatMap((r) =>
    r.kind === 'rendered'
      ? // A worker from before notices answers none.
        // A value's notice keeps its own field (documents[0].tags.name).
        (r.result.notices ?? []).map((n) => ({ ...n, field: 'field' in n ? n.field : r.field }))
      : [],
  );
}

/** The PDF is named after the document: `lease.docx` downloads as `lease.pdf`. */
export function pdfName(name: string): string {
  return `${name.replace(/\.(docx|pdf)$/i, '')}.pdf`;
}

function convertOptions(options: ConvertRoutesOptions): Limits {
  const filled: Limits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_CONVERT_OPTIONS.timeoutMs,
    retryAfterSeconds: options.retryAfterSeconds ?? DEFAULT_CONVERT_OPTIONS.retryAfterSeconds,
    maxDocuments: options.maxDocuments ?? DEFAULT_CONVERT_OPTIONS.maxDocuments,
  };
  const problems = Object.entries(filled)
    .filter(([, value]) => !Number.isSafeInteger(value) || value <= 0)
    .map(([name, value]) => `${name} must be a positive integer (got ${value})`);
  if (problems.length > 0) throw new Error(`convert route options: ${problems.join('; ')}`);
  return filled;
}
