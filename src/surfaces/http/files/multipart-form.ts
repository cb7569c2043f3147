import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import { FileRefusal } from '../common/files-errors.js';

/** The bounds a multipart body is read within; past any of them reading stops at once. */
export interface MultipartLimits {
  /** The whole body, counted as its bytes arrive (a chunked body announces no length). */
  bodyBytes: number;
  /** One file part: the document. */
  fileBytes: number;
  /** One text field. */
  fieldBytes: number;
  /** File parts. */
  files: number;
  /** Parts of either kind. */
  parts: number;
  /**
   * Bytes of the body that belong to no part's content: boundaries, part headers, a preamble,
   * parts without a form-data name (which the parser skips). Without this bound, endless part
   * headers would be read up to the body limit.
   */
  outsideBytes: number;
}

/** One part of a form as it arrived. */
export interface FormPart {
  name: string;
  /** The part's file name; undefined for a text field. */
  filename: string | undefined;
  /** A file part (it has a file name, or is declared application/octet-stream) or a text field. */
  isFile: boolean;
  bytes: Buffer;
}

/** A part whose bytes are still arriving. */
interface OpenPart extends Omit<FormPart, 'bytes'> {
  chunks: Buffer[];
  size: number;
}

/** RFC 2046's bounds of a multipart boundary, in characters. */
const MAX_BOUNDARY_CHARS = 70;

/** The Content-Type's boundary parameter as sent (quoted or not), if it has one. */
function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2]) : undefined;
}

/** How far a part header may run: a Content-Disposition and a Content-Type need a few hundred. */
const PART_HEADER_BYTES = 8 * 1024;

/**
 * Reads a multipart/form-data body into its parts, each part held to its own limit and the body
 * to the body limit as the bytes arrive. Past any limit, or on a body that is not multipart, it
 * stops reading the payload (so the caller can answer at once and close the connection) and
 * rejects with a FileRefusal that says what to send instead. An empty body is an empty form.
 *
 * Every part is read as a stream, text fields included: busboy holds a text field until its end
 * and only then says it was cut short, so an endless field would be read to the end of the body.
 */
export function readMultipartForm(
  headers: IncomingHttpHeaders,
  payload: Readable,
  limits: MultipartLimits,
): Promise<FormPart[]> {
  return new Promise((resolve, reject) => {
    const declared = Number(headers['content-length']);
    if (declared > limits.bodyBytes) {
      reject(bodyTooLarge(limits));
      return;
    }
    const boundary = boundaryOf(headers['content-type']);
    if (boundary !== undefined && (boundary.length < 1 || boundary.length > MAX_BOUNDARY_CHARS)) {
      // busboy takes an empty one and chokes on one past 256 with a message about needles.
      reject(
        new FileRefusal(
          400,
          `the Content-Type's multipart boundary is not a valid one: it has ${boundary.length} characters, and a boundary has 1 to ${MAX_BOUNDARY_CHARS} (RFC 2046); send the boundary your form-data client made`,
        ),
      );
      return;
    }
    let busboy: BusboyInstance;
    try {
      busboy = new Busboy({
        headers: headers as BusboyHeaders,
        // Every part as a stream, so that every part is counted as it arrives.
        isPartAFile: () => true,
        limits: { headerSize: PART_HEADER_BYTES },
      });
    } catch {
      // busboy's only refusal for a multipart/form-data Content-Type: no boundary parameter.
      reject(
        new FileRefusal(
          400,
          'the Content-Type multipart/form-data names no boundary: send multipart/form-data; boundary=<the boundary between the parts>, as form-data clients do',
        ),
      );
      return;
    }
    const parts: OpenPart[] = [];
    let received = 0;
    let inParts = 0;
    let settled = false;

    const stop = (refusal: FileRefusal): void => {
      if (settled) return;
      settled = true;
      payload.off('data', onData);
      payload.off('end', onEnd);
      // Unread, the rest stays in the socket: the answer's Connection: close ends it.
      payload.pause();
      busboy.removeAllListeners('file');
      busboy.on('error', () => {});
      busboy.destroy();
      reject(refusal);
    };

    const onData = (chunk: Buffer): void => {
      // What busboy was given and did not hand on as part content: boundaries, headers, skipped
      // parts. Counted before this chunk, whose parts busboy has not seen yet.
      const outside = received - busboy.writableLength - inParts;
      if (outside > limits.outsideBytes) {
        stop(
          new FileRefusal(
            400,
            `the multipart body has more than ${limits.outsideBytes} bytes outside its parts' content (part headers, a preamble, parts without a form-data name); send a standard multipart/form-data body`,
          ),
        );
        return;
      }
      received += chunk.byteLength;
      if (received > limits.bodyBytes) {
        stop(bodyTooLarge(limits));
        return;
      }
      if (!busboy.write(chunk)) payload.pause();
    };
    const onEnd = (): void => {
      busboy.end();
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', () =>
      stop(new FileRefusal(400, 'the request body could not be read: send the whole body')),
    );
    payload.on('close', () => {
      if (!payload.readableEnded)
        stop(
          new FileRefusal(
            400,
            'the request ended before its multipart body was complete: send the whole body',
          ),
        );
    });
    busboy.on('drain', () => {
      if (!settled) payload.resume();
    });

    busboy.on('file', (fieldname, stream, filename, _encoding, mimeType) => {
      if (parts.length + 1 > limits.parts) {
        stop(
          new FileRefusal(
            400,
            `the form has more than ${limits.parts} parts: an upload has "file", "name" and "type" only`,
          ),
        );
        return;
      }
      if (fieldname === undefined) {
        stop(
          new FileRefusal(
            400,
            'a part has no name in its Content-Disposition: name each part "file", "name" or "type"',
          ),
        );
        return;
      }
      const isFile = filename !== undefined || mimeType === 'application/octet-stream';
      if (isFile && parts.filter((p) => p.isFile).length + 1 > limits.files) {
        // Not too large: malformed, and said before the second file is read.
        stop(
          new FileRefusal(
            400,
            'one file per upload: send the document as the single part named "file"',
          ),
        );
        return;
      }
      const part: OpenPart = { name: fieldname, filename, isFile, chunks: [], size: 0 };
      parts.push(part);
      const max = isFile ? limits.fileBytes : limits.fieldBytes;
      stream.on('data', (data: Buffer) => {
        if (settled) return;
        part.size += data.byteLength;
        inParts += data.byteLength;
        if (part.size > max) {
          stop(isFile ? fileTooLarge(limits) : fieldTooLong(fieldname, limits));
          return;
        }
        part.chunks.push(data);
      });
      // A part cut short: busboy reports the body's error too, which names it.
      stream.on('error', () => {});
    });
    // Each part's bytes are whole once busboy finishes: it waits for every part stream's end.
    busboy.on('finish', () => {
      if (settled) return;
      settled = true;
      resolve(
        parts.map(({ chunks, size, ...part }) => ({ ...part, bytes: Buffer.concat(chunks, size) })),
      );
    });
    busboy.on('error', (err: Error) => {
      // No bytes at all: an empty form, which the body schema refuses with what is missing.
      if (received === 0 && err.message === 'Unexpected end of multipart data') {
        if (!settled) {
          settled = true;
          resolve([]);
        }
        return;
      }
      stop(
        new FileRefusal(
          400,
          `the multipart body could not be read (${err.message}): send a multipart/form-data body whose parts are separated by the boundary its Content-Type names`,
        ),
      );
    });
  });
}

function bodyTooLarge(limits: MultipartLimits): FileRefusal {
  return new FileRefusal(
    413,
    `the request body is larger than this endpoint's limit of ${limits.bodyBytes} bytes; send a smaller document`,
  );
}

function fileTooLarge(limits: MultipartLimits): FileRefusal {
  return new FileRefusal(
    413,
    `the file is larger than the upload limit of ${limits.fileBytes} bytes; send a smaller document`,
  );
}

function fieldTooLong(name: string, limits: MultipartLimits): FileRefusal {
  return new FileRefusal(
    413,
    `the text field "${name}" is longer than ${limits.fieldBytes} bytes: "name" and "type" are short texts, and the document goes in the file part "file"`,
  );
}
