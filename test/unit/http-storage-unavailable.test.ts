import { describe, expect, it, onTestFinished } from 'vitest';
import { convertErrorHandler } from '../../src/surfaces/http/convert/convert-errors.js';
import { createHttpApp } from '../../src/surfaces/http/common/create-app.js';
import { fileErrorHandler } from '../../src/surfaces/http/common/files-errors.js';
import { StorageUnavailableError } from '../../src/render/storage/index.js';

/**
 * A document store that stops answering during a request is an outage, as a missing Redis is:
 * 503 with Retry-After, in each surface's error shape, without the bucket or endpoint (those are
 * for the operator's log).
 */
const at = { bucket: 'private-bucket', endpoint: 'http://store.internal:9000' };

function appWith(handler: 'convert' | 'files') {
  const app = createHttpApp({ bodyLimit: 1024 });
  app.setErrorHandler(
    handler === 'convert' ? convertErrorHandler(30) : fileErrorHandler(() => ({ bodyLimit: 1024 })),
  );
  app.get('/', () => {
    throw StorageUnavailableError.unreachable(at, 'ECONNREFUSED');
  });
  onTestFinished(() => app.close());
  return app;
}

describe('storage unavailable over HTTP', () => {
  it('is a v2 503 with Retry-After on the convert endpoint', async () => {
    const res = await appWith('convert').inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toEqual({
      errors: [
        {
          code: 503,
          message: 'Service Unavailable',
          description:
            "docpipe's document store is not available right now; send the request again later",
        },
      ],
    });
    expect(res.body).not.toContain('private-bucket');
  });

  it('is a 503 with Retry-After on the file endpoints', async () => {
    const res = await appWith('files').inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toEqual({
      message: "docpipe's document store is not available right now; send the request again later",
    });
    expect(res.body).not.toContain('store.internal');
  });
});
