import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  EXIT_UNAVAILABLE,
  OUTAGES,
  isOutageKind,
  outageOf,
  type OutageKind,
} from '../../src/base/errors/index.js';
import { CompanyQueueFullError } from '../../src/jobs/queue/index.js';
import { QueueUnavailableError } from '../../src/platform/redis/index.js';
import { DatabaseUnavailableError } from '../../src/platform/postgres/index.js';
import { StorageUnavailableError } from '../../src/render/storage/index.js';
import { EidBrokerUnavailableError } from '../../src/service/eid/index.js';
import { EXIT, outageExit } from '../../src/surfaces/cli/exit-codes.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { fileErrorHandler } from '../../src/surfaces/http/common/files-errors.js';
import {
  CallerGoneError,
  ConvertTimeoutError,
} from '../../src/surfaces/http/convert/convert-deadline.js';
import { ServiceStoppingError } from '../../src/surfaces/http/common/stopping.js';
import { convertErrorHandler } from '../../src/surfaces/http/convert/convert-errors.js';
import { DEFAULT_CONVERT_OPTIONS } from '../../src/surfaces/http/convert/convert-routes.js';
import { documentsErrorHandler } from '../../src/surfaces/http/documents/documents-errors.js';
import { casesErrorHandler } from '../../src/surfaces/http/cases/index.js';
import { opsErrorHandler } from '../../src/surfaces/http/operations/ops-replies.js';

/**
 * The outage table (src/base/errors/outages.ts) is the one place that says how each outage is
 * answered: every HTTP surface and the CLI are held to it here, outage by outage.
 */

/** One error of each outage, as the code that raises it builds it. */
const RAISED: Record<OutageKind, () => Error> = {
  'queue-unavailable': () => QueueUnavailableError.unreachable('redis://:secret@10.0.0.5:6379'),
  'database-unavailable': () =>
    new DatabaseUnavailableError('postgresql://docpipe:secret@10.0.0.5:5432/docpipe', {
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED 10.0.0.5:5432',
    }),
  'storage-unavailable': () =>
    StorageUnavailableError.unreachable(
      { bucket: 'private-bucket', endpoint: 'http://store.internal:9000' },
      'ECONNREFUSED',
    ),
  'company-queue-full': () => new CompanyQueueFullError('acme', 10, 2, 10),
  deadline: () => new ConvertTimeoutError(60_000),
  'caller-gone': () => new CallerGoneError(),
  stopping: () => new ServiceStoppingError(),
  'eid-broker-unavailable': () =>
    new EidBrokerUnavailableError('mitid', 'https://secret.10.0.0.5.example', 'fetch failed'),
};

const KINDS = Object.keys(OUTAGES) as OutageKind[];

type Handler = (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;

/** Every surface's error handler, as its routes set it. */
const SURFACES: Record<string, Handler> = {
  'v2 convert': convertErrorHandler(DEFAULT_CONVERT_OPTIONS.retryAfterSeconds),
  'v3 files and downloads': fileErrorHandler(() => ({ bodyLimit: 1024 })),
  'v3 documents': documentsErrorHandler,
  'v3 cases': casesErrorHandler,
  operations: opsErrorHandler,
};

async function answer(handler: Handler, err: Error) {
  const app = createHttpApp({ bodyLimit: 1024 });
  app.setErrorHandler(handler);
  app.get('/', () => {
    throw err;
  });
  onTestFinished(() => app.close());
  return app.inject({ method: 'GET', url: '/' });
}

describe('the outage table', () => {
  it('lists the five outages the issue names, the database not answering, the eID broker, and the stop', () => {
    expect(KINDS.sort()).toEqual(
      [
        'caller-gone',
        'company-queue-full',
        'database-unavailable',
        'deadline',
        'eid-broker-unavailable',
        'queue-unavailable',
        'stopping',
        'storage-unavailable',
      ].sort(),
    );
  });

  it.each(KINDS)('gives %s an HTTP status, a Retry-After and an exit status', (kind) => {
    const spec = OUTAGES[kind];
    expect([429, 503]).toContain(spec.status);
    expect(Number.isSafeInteger(spec.retryAfterSeconds)).toBe(true);
    expect(spec.retryAfterSeconds).toBeGreaterThan(0);
    // Not 0 (success), 1 (a document failed) nor 2 (bad usage): a script retries an outage.
    expect(spec.exit).toBeGreaterThan(EXIT.usage);
    expect(spec.description.length).toBeGreaterThan(0);
  });

  it.each(KINDS)('knows a raised %s by its class', (kind) => {
    expect(outageOf(RAISED[kind]())).toBe(kind);
  });

  it('knows nothing else as an outage', () => {
    expect(outageOf(new Error('queue-unavailable'))).toBeUndefined();
    expect(outageOf({ outage: 'not-an-outage' })).toBeUndefined();
    expect(outageOf('queue-unavailable')).toBeUndefined();
    expect(isOutageKind('constructor')).toBe(false);
  });
});

describe.each(Object.entries(SURFACES))('the %s surface', (_name, handler) => {
  it.each(KINDS)('answers %s with the status and Retry-After of the table', async (kind) => {
    const res = await answer(handler, RAISED[kind]());
    expect(res.statusCode).toBe(OUTAGES[kind].status);
    expect(res.headers['retry-after']).toBe(String(OUTAGES[kind].retryAfterSeconds));
    // The operator's details (Redis URL, bucket, endpoint) stay in the log.
    expect(res.body).not.toMatch(/secret|10\.0\.0\.5|private-bucket|store\.internal/);
  });
});

describe('the docpipe command', () => {
  it.each(KINDS)('exits on %s with the exit status of the table', (kind) => {
    expect(outageExit(RAISED[kind]())).toBe(OUTAGES[kind].exit);
  });

  it('exits with no outage status for other errors', () => {
    expect(outageExit(new Error('boom'))).toBeUndefined();
  });

  it("calls the table's try-again-later status EXIT.unavailable", () => {
    expect(EXIT.unavailable).toBe(EXIT_UNAVAILABLE);
    expect(OUTAGES['queue-unavailable'].exit).toBe(EXIT.unavailable);
  });
});
