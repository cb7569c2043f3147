import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UPLOAD_FIELD_BYTES,
  UPLOAD_OUTSIDE_BYTES,
} from '../../src/surfaces/http/files/uploads-body.js';
import { startRedisOnly, type RedisOnly } from '../helpers/queue-stack.js';
import {
  headersOf,
  openRaw,
  requestHead,
  sendUntilClosed,
  statusLine,
} from '../helpers/raw-http.js';
import {
  PDF_FILE,
  corpusFile,
  filesApp,
  multipartBody,
  type FilesApp,
} from './http-files-setup.js';

let redis: RedisOnly;
beforeAll(async () => {
  redis = await startRedisOnly();
});
afterAll(async () => {
  await redis.close();
});

const MB = 1024 * 1024;
/** More than the loopback socket buffers of both ends hold (about 4 MB on Linux). */
const SOCKET_BUFFERS = 16 * MB;
const UPLOAD = '/v3/company/acme/file/upload';

describe('multipart uploads over a socket: cut at the limit, answered, closed', () => {
  // Small limits, so that what a connection took past them is measurable.
  const DOCUMENT_LIMIT = MB;
  const BODY_LIMIT = 2 * MB;

  /**
   * An endless upload (see endlessUpload) to a server of its own with these limits. `serverRead`
   * is what the server took from the network: the client's own count is larger by what the two
   * loopback socket buffers hold, which the server never read (about 4 MB on Linux), so it is
   * held to a looser bound.
   */
  async function uploadEndlessly(
    head: string,
    chunk: Buffer,
    {
      limits = { maxUploadBytes: DOCUMENT_LIMIT, bodyLimitBytes: BODY_LIMIT },
      headers = {},
    }: {
      limits?: { maxUploadBytes: number; bodyLimitBytes: number };
      headers?: Record<string, string>;
    } = {},
  ): Promise<EndlessUpload & { serverRead: number }> {
    const files = await filesApp(await redis.lane(), limits);
    const served: Socket[] = [];
    files.app.server.on('connection', (socket: Socket) => served.push(socket));
    try {
      await files.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (files.app.server.address() as AddressInfo).port;
      const sent = await endlessUpload(port, head, chunk, headers);
      return { ...sent, serverRead: served[0]!.bytesRead };
    } finally {
      await files.app.close();
    }
  }

  it('cuts a chunked file part past the document limit', async () => {
    const sent = await uploadEndlessly(filePartHead('big.pdf'), Buffer.alloc(64 * 1024, 0x41));
    expect(sent.status).toBe(413);
    expect(sent.body).toEqual({
      message: `the file is larger than the upload limit of ${DOCUMENT_LIMIT} bytes; send a smaller document`,
    });
    expect(sent.connectionClose).toBe(true);
    expect(sent.closedWhileSending).toBe(true);
    expect(sent.written).toBeLessThanOrEqual(DOCUMENT_LIMIT + SOCKET_BUFFERS);
    expect(sent.serverRead).toBeLessThanOrEqual(DOCUMENT_LIMIT + MB);
  });

  it('cuts a chunked body past the body limit, even when the document limit is larger', async () => {
    const sent = await uploadEndlessly(filePartHead('big.pdf'), Buffer.alloc(64 * 1024, 0x41), {
      limits: { maxUploadBytes: BODY_LIMIT, bodyLimitBytes: DOCUMENT_LIMIT },
    });
    expect(sent.status).toBe(413);
    expect(sent.body).toEqual({
      message: `the request body is larger than this endpoint's limit of ${DOCUMENT_LIMIT} bytes; send a smaller document`,
    });
    expect(sent.connectionClose).toBe(true);
    expect(sent.closedWhileSending).toBe(true);
    expect(sent.written).toBeLessThanOrEqual(DOCUMENT_LIMIT + SOCKET_BUFFERS);
    expect(sent.serverRead).toBeLessThanOrEqual(DOCUMENT_LIMIT + MB);
  });

  it('cuts bytes outside any part: a part without a form-data name, which is skipped', async () => {
    const sent = await uploadEndlessly(
      `--${BOUNDARY}\r\nContent-Disposition: attachment\r\n\r\n`,
      Buffer.alloc(64 * 1024, 0x41),
    );
    expect(sent.status).toBe(400);
    expect(sent.body).toEqual({
      message: `the multipart body has more than ${UPLOAD_OUTSIDE_BYTES} bytes outside its parts' content (part headers, a preamble, parts without a form-data name); send a standard multipart/form-data body`,
    });
    expect(sent.closedWhileSending).toBe(true);
    expect(sent.serverRead).toBeLessThanOrEqual(UPLOAD_OUTSIDE_BYTES + MB);
  });

  it('cuts an endless text field as soon as it passes the field limit', async () => {
    const sent = await uploadEndlessly(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`,
      Buffer.alloc(64 * 1024, 0x61),
    );
    expect(sent.status).toBe(413);
    expect(sent.body).toEqual({
      message: `the text field "name" is longer than ${UPLOAD_FIELD_BYTES} bytes: "name" and "type" are short texts, and the document goes in the file part "file"`,
    });
    expect(sent.connectionClose).toBe(true);
    expect(sent.closedWhileSending).toBe(true);
    expect(sent.written).toBeLessThanOrEqual(UPLOAD_FIELD_BYTES + SOCKET_BUFFERS);
    expect(sent.serverRead).toBeLessThanOrEqual(UPLOAD_FIELD_BYTES + MB);
  });

  it('answers a body announced past the body limit before reading it', async () => {
    const sent = await uploadEndlessly(filePartHead('big.pdf'), Buffer.alloc(64 * 1024), {
      headers: { 'Content-Length': String(1024 * MB) },
    });
    expect(sent.status).toBe(413);
    expect(sent.body.message).toBe(
      `the request body is larger than this endpoint's limit of ${BODY_LIMIT} bytes; send a smaller document`,
    );
    expect(sent.closedWhileSending).toBe(true);
    expect(sent.serverRead).toBeLessThanOrEqual(MB);
  });
});

describe('multipart uploads refused with 4xx, in the {message} shape', () => {
  async function upload(
    files: FilesApp,
    payload: string | Buffer,
    contentType: string | undefined,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await files.app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
      payload,
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('answers 415 naming both accepted types for text/plain and for no Content-Type', async () => {
    const files = await filesApp(await redis.lane());
    expect(await upload(files, 'hello', 'text/plain')).toEqual({
      status: 415,
      body: {
        message:
          'the body\'s Content-Type is "text/plain": an upload is application/json (the document in base64 as "file") or multipart/form-data (the document as the file part "file"); send one of the two',
      },
    });
    const none = await upload(files, '', undefined);
    expect(none.status).toBe(415);
    expect(none.body.message).toMatch(/^the request has no Content-Type: an upload is/);
  });

  it('answers 400 for multipart/form-data without a boundary', async () => {
    const files = await filesApp(await redis.lane());
    const form = await multipartBody({ file: { bytes: corpusFile(PDF_FILE), filename: 'a.pdf' } });
    expect(await upload(files, form.payload, 'multipart/form-data')).toEqual({
      status: 400,
      body: {
        message:
          'the Content-Type multipart/form-data names no boundary: send multipart/form-data; boundary=<the boundary between the parts>, as form-data clients do',
      },
    });
  });

  it('answers 400 for a garbled multipart body and for one cut short', async () => {
    const files = await filesApp(await redis.lane());
    const type = `multipart/form-data; boundary=${BOUNDARY}`;
    const garbled = await upload(files, 'this is not a multipart body at all', type);
    expect(garbled.status).toBe(400);
    expect(garbled.body.message).toBe(
      'the multipart body could not be read (Unexpected end of multipart data): send a multipart/form-data body whose parts are separated by the boundary its Content-Type names',
    );
    const cut = await upload(files, `${filePartHead('a.pdf')}%PDF-1.7\n`, type);
    expect(cut).toEqual(garbled);
  });

  it('answers 400, not 413, for two file parts', async () => {
    const files = await filesApp(await redis.lane());
    const pdf = corpusFile(PDF_FILE);
    const form = await multipartBody({
      file: { bytes: pdf, filename: 'a.pdf' },
      other: { bytes: pdf, filename: 'b.pdf' },
    });
    expect(await upload(files, form.payload, form.headers['content-type'])).toEqual({
      status: 400,
      body: { message: 'one file per upload: send the document as the single part named "file"' },
    });
  });

  it('answers 400 for a form of too many parts, a field sent twice and a field named __proto__', async () => {
    const files = await filesApp(await redis.lane());
    const many: Record<string, string> = {};
    for (let i = 0; i < 12; i++) many[`f${i}`] = 'x';
    const form = await multipartBody(many);
    expect(await upload(files, form.payload, form.headers['content-type'])).toEqual({
      status: 400,
      body: {
        message: 'the form has more than 11 parts: an upload has "file", "name" and "type" only',
      },
    });
    const twice =
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\na.pdf\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nb.pdf\r\n--${BOUNDARY}--\r\n`;
    expect(await upload(files, twice, `multipart/form-data; boundary=${BOUNDARY}`)).toEqual({
      status: 400,
      body: { message: 'the request is invalid: name: is sent more than once; send it once' },
    });
    const proto = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`;
    expect(await upload(files, proto, `multipart/form-data; boundary=${BOUNDARY}`)).toEqual({
      status: 400,
      body: { message: 'the request is invalid: file: is required; __proto__: unknown field' },
    });
  });

  it('answers 413 for a text field past the field limit, not a silent truncation', async () => {
    const files = await filesApp(await redis.lane());
    const form = await multipartBody({
      file: { bytes: corpusFile(PDF_FILE), filename: 'a.pdf' },
      type: 'x'.repeat(UPLOAD_FIELD_BYTES + 1),
    });
    const res = await upload(files, form.payload, form.headers['content-type']);
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/^the text field "type" is longer than 65536 bytes/);
    // At the limit exactly, the field is whole and the schema judges it (255 characters at most).
    const atLimit = await multipartBody({
      file: { bytes: corpusFile(PDF_FILE), filename: 'a.pdf' },
      type: 'x'.repeat(UPLOAD_FIELD_BYTES),
    });
    const whole = await upload(files, atLimit.payload, atLimit.headers['content-type']);
    expect(whole).toEqual({
      status: 400,
      body: { message: 'the request is invalid: type: must NOT have more than 255 characters' },
    });
  });
});

const BOUNDARY = 'docpipe-test-boundary';

function filePartHead(filename: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`;
}

/** What a client that never stops sending saw. */
interface EndlessUpload {
  status: number;
  body: { message?: string };
  connectionClose: boolean;
  /** The server closed the connection while the client was still sending (it never ended). */
  closedWhileSending: boolean;
  /** Body bytes the client's kernel accepted before the server closed the connection. */
  written: number;
}

/** Past this the server is reading without end: the test fails instead of sending for ever. */
const GIVE_UP_BYTES = 256 * MB;

/**
 * An upload whose body never ends: the head, then `chunk` again and again (chunked, unless a
 * Content-Length is given), until the server closes the connection. Counts the body bytes whose
 * write completed before the close, and reads the answer the server gave meanwhile.
 */
async function endlessUpload(
  port: number,
  head: string,
  chunk: Buffer,
  headers: Record<string, string> = {},
): Promise<EndlessUpload> {
  const chunked = !('Content-Length' in headers);
  const connection = await openRaw(port);
  connection.socket.write(
    requestHead([
      `POST ${UPLOAD} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
      ...(chunked ? ['Transfer-Encoding: chunked'] : []),
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ]),
  );
  const sent = await sendUntilClosed(connection.socket, chunk, {
    cap: GIVE_UP_BYTES,
    chunked,
    first: Buffer.concat([Buffer.from(head), chunk]),
  });
  // Never ended: a server still reading at GIVE_UP_BYTES fails the test by its own close.
  if (!sent.closedFirst) connection.socket.destroy();
  await connection.closed;
  const text = connection.received();
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine(text))?.[1]);
  if (!status)
    throw new Error(`no answer before the close (${sent.written} bytes written): ${text}`);
  return {
    status,
    body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { message?: string },
    connectionClose: headersOf(text).connection === 'close',
    closedWhileSending: sent.closedFirst,
    written: sent.written,
  };
}
