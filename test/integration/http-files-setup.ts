import { readFileSync } from 'node:fs';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { downloadRoutes } from '../../src/surfaces/http/downloads/download-routes.js';
import { fileRoutes } from '../../src/surfaces/http/files/file-routes.js';
import { RedisSignedUrlCache } from '../../src/surfaces/http/files/signed-url-cache.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import type { Lane } from '../helpers/queue-stack.js';
import { corpusRows } from '../helpers/corpus.js';
import { testDir } from '../helpers/test-dir.js';

export const PUBLIC_URL = 'http://docs.example.test/base';
export const SECRET = 'a-test-signing-secret-of-32-chars!';
export const TTL_S = 900;
export const MAX_UPLOAD = 2 * 1024 * 1024;
export const BODY_LIMIT = 3 * 1024 * 1024;

export interface FilesApp {
  app: HttpApp;
  storage: LocalStorage;
  /** Moves the app's clock, for expiry. */
  advance(ms: number): void;
  now(): Date;
}

/**
 * The file and download routes as the server puts them together, with a stand-in for the
 * authentication hook: the key's company is the `x-test-company` header (default `acme`), so
 * that a test can act for two companies. The auth hook itself is tested by its owner.
 */
export async function filesApp(
  lane: Lane,
  limits: { maxUploadBytes?: number; bodyLimitBytes?: number } = {},
): Promise<FilesApp> {
  const storage = new LocalStorage(testDir('docpipe-http-files-'));
  let clock = Date.parse('2026-05-01T12:00:00Z');
  const now = () => new Date(clock);
  const app = createHttpApp({ bodyLimit: 64 * 1024 * 1024 });
  await app.register(async (files: HttpApp) => {
    files.addHook('onRequest', (request, _reply, done) => {
      const company = request.headers['x-test-company'];
      request.apiKey = {
        id: 'k1',
        company: typeof company === 'string' ? company : 'acme',
        name: 'test',
      };
      done();
    });
    await files.register(fileRoutes, {
      storage,
      preparer: new InlinePreparer(),
      signedUrls: new RedisSignedUrlCache(lane.connection, lane.prefix),
      publicUrl: PUBLIC_URL,
      signingSecret: SECRET,
      signedUrlTtlSeconds: TTL_S,
      maxUploadBytes: limits.maxUploadBytes ?? MAX_UPLOAD,
      bodyLimitBytes: limits.bodyLimitBytes ?? BODY_LIMIT,
      now,
    });
  });
  await app.register(downloadRoutes, { storage, signingSecret: SECRET, now });
  await app.ready();
  return {
    app,
    storage,
    advance: (ms) => {
      clock += ms;
    },
    now,
  };
}

/** A corpus file's bytes by its manifest path. */
export function corpusFile(file: string): Buffer {
  const row = corpusRows().find((r) => r.file === file);
  if (!row) throw new Error(`${file} is not in the corpus manifest`);
  return readFileSync(row.path);
}

export const PDF_FILE = 'pdf/file-type__fixture-minimal.pdf';
export const DOCX_FILE = 'docx/mammoth__single-paragraph.docx';

/** A multipart body as a browser or curl sends it, serialized by undici's FormData. */
export async function multipartBody(
  parts: Record<string, string | { bytes: Uint8Array; filename: string; type?: string }>,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') form.append(name, value);
    else
      form.append(
        name,
        new Blob([new Uint8Array(value.bytes)], { type: value.type ?? 'application/octet-stream' }),
        value.filename,
      );
  }
  const request = new Request('http://x.invalid', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

/** The path and query of a URL docpipe issued under PUBLIC_URL, as the server sees them. */
export function pathOf(url: string): string {
  if (!url.startsWith(PUBLIC_URL)) throw new Error(`${url} is not under ${PUBLIC_URL}`);
  return url.slice(PUBLIC_URL.length);
}
