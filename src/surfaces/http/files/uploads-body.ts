import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { DocpipeError, type FailureDetail } from '../../../base/errors/index.js';
import { FileRefusal } from '../common/files-errors.js';
import { readMultipartForm, type FormPart, type MultipartLimits } from './multipart-form.js';

/** The media types an upload's body comes in. */
const UPLOAD_MEDIA_TYPES = ['application/json', 'multipart/form-data'];

/**
 * A preParsing hook: a body of any other media type is refused before any of it is read. Fastify
 * would otherwise parse `text/plain` into a string, which no upload is.
 */
export function refuseOtherMediaTypes(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: RequestPayload,
  done: (err: Error | null, payload?: RequestPayload) => void,
): void {
  const declared = request.headers['content-type'];
  const mediaType = declared?.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== undefined && UPLOAD_MEDIA_TYPES.includes(mediaType)) {
    done(null, payload);
    return;
  }
  const got =
    declared === undefined
      ? 'the request has no Content-Type'
      : `the body's Content-Type is ${JSON.stringify(declared.slice(0, 100))}`;
  done(
    new FileRefusal(
      415,
      `${got}: an upload is application/json (the document in base64 as "file") or multipart/form-data (the document as the file part "file"); send one of the two`,
    ),
  );
}

/**
 * A text field's bound: a "name" (255 characters of up to 4 bytes) and a "type" fit with room.
 * An upload's fields are short; past this one is no mistake in a name but a body being pushed.
 */
export const UPLOAD_FIELD_BYTES = 64 * 1024;

/** An upload's parts: "file", "name" and "type", with room for a few unknown ones to be named. */
export const UPLOAD_FORM_PARTS = 11;

/** Bytes outside the parts' content: a boundary and a header (at most 8 KiB) for each part. */
export const UPLOAD_OUTSIDE_BYTES = 256 * 1024;

/** The bounds of an upload form under the two configured limits. */
export function uploadFormLimits(maxUploadBytes: number, bodyLimitBytes: number): MultipartLimits {
  return {
    bodyBytes: bodyLimitBytes,
    fileBytes: maxUploadBytes,
    fieldBytes: UPLOAD_FIELD_BYTES,
    files: 1,
    parts: UPLOAD_FORM_PARTS,
    outsideBytes: UPLOAD_OUTSIDE_BYTES,
  };
}

/** The file parts of each multipart upload, kept apart from the parsed body while it lives. */
const fileParts = new WeakMap<FastifyRequest, Map<string, FormPart>>();

/**
 * The content-type parser of multipart/form-data: reads the form within `limits` (stopping at
 * once past any, see multipart-form.ts) and answers the body with a placeholder string standing
 * for each file part, so that the body schema checks a multipart upload by the same rules as a
 * JSON one. A member sent twice is refused: which of the two would count is anybody's guess.
 */
export function multipartUploadParser(limits: MultipartLimits) {
  return async (request: FastifyRequest, payload: Readable): Promise<Record<string, string>> => {
    const form = await readMultipartForm(request.headers, payload, limits);
    // No prototype: a part named __proto__ is a member like any other, refused by the schema.
    const body = Object.create(null) as Record<string, string>;
    const files = new Map<string, FormPart>();
    const repeated = new Set<string>();
    for (const part of form) {
      if (Object.hasOwn(body, part.name)) repeated.add(part.name);
      if (part.isFile) files.set(part.name, part);
      body[part.name] = part.isFile
        ? `(file part, ${part.bytes.byteLength} bytes)`
        : part.bytes.toString('utf8');
    }
    if (repeated.size > 0)
      throw new DocpipeError(
        'validation-failed',
        [...repeated].map((field) => ({ field, message: 'is sent more than once; send it once' })),
      );
    fileParts.set(request, files);
    return body;
  };
}

/** Whether the request's body was a multipart form (parsed by multipartUploadParser). */
export function isMultipartUpload(request: FastifyRequest): boolean {
  return fileParts.has(request);
}

/** What an upload carries, whichever way it came. */
export interface UploadInput {
  bytes: Buffer;
  /** The name given, or the multipart file name; undefined when neither was. */
  name: string | undefined;
}

/** The bytes and name of a multipart upload whose body passed the schema. */
export function multipartUpload(request: FastifyRequest, body: { name?: string }): UploadInput {
  const parts = fileParts.get(request) ?? new Map<string, FormPart>();
  const problems: FailureDetail[] = [];
  const file = parts.get('file');
  if (!file) problems.push({ field: 'file', message: 'must be a file part, not a text field' });
  for (const field of parts.keys())
    if (field !== 'file')
      problems.push({ field, message: 'must be a text field, not a file part' });
  if (problems.length > 0 || !file) throw new DocpipeError('validation-failed', problems);
  return { bytes: file.bytes, name: body.name ?? (file.filename || undefined) };
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes and name of a JSON upload whose body passed the schema. */
export function jsonUpload(body: { file: string; name: string }): UploadInput {
  if (body.file.length % 4 !== 0 || !BASE64.test(body.file))
    throw new DocpipeError('validation-failed', [
      {
        field: 'file',
        message: 'must be the document in standard base64 (A-Z, a-z, 0-9, + and /, = padding)',
      },
    ]);
  return { bytes: Buffer.from(body.file, 'base64'), name: body.name };
}
