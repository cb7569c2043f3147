import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DocpipeError, type FailureDetail } from '../../../base/errors/index.js';

/** A file part's bytes, kept apart from the parsed body while the request lives. */
interface FilePart {
  bytes: Buffer;
  filename: string;
}

const fileParts = new WeakMap<FastifyRequest, Map<string, FilePart>>();

/**
 * @fastify/multipart's `onFile`: reads a file part within the upload limit (the plugin throws
 * past it) and stands a placeholder string in the body for it, so that the body schema checks a
 * multipart upload by the same rules as a JSON one.
 */
export async function keepFilePart(this: FastifyRequest, part: MultipartFile): Promise<void> {
  const bytes = await part.toBuffer();
  let parts = fileParts.get(this);
  if (!parts) fileParts.set(this, (parts = new Map<string, FilePart>()));
  parts.set(part.fieldname, { bytes, filename: part.filename });
  part.value = `(file part, ${bytes.byteLength} bytes)`;
}

/** What an upload carries, whichever way it came. */
export interface UploadInput {
  bytes: Buffer;
  /** The name given, or the multipart file name; undefined when neither was. */
  name: string | undefined;
}

/** The bytes and name of a multipart upload whose body passed the schema. */
export function multipartUpload(request: FastifyRequest, body: { name?: string }): UploadInput {
  const parts = fileParts.get(request) ?? new Map<string, FilePart>();
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
