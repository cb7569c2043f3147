import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { MAX_COMPANY_LOGO_BYTES } from '../../../service/companies/index.js';
import { readMultipartForm, type MultipartLimits } from '../files/multipart-form.js';

/**
 * How far the logo form is read. A file up to 8 times the logo's limit is read whole, so that
 * the page can say how large it was; past that the upload is cut off (files-errors' FileRefusal)
 * rather than read to its end.
 */
const LOGO_FORM_LIMITS: MultipartLimits = {
  bodyBytes: 8 * MAX_COMPANY_LOGO_BYTES + 64 * 1024,
  fileBytes: 8 * MAX_COMPANY_LOGO_BYTES,
  fieldBytes: 256,
  files: 1,
  parts: 4,
  outsideBytes: 16 * 1024,
};

/** The logo file of each form read, kept apart from its body (which holds text fields only). */
const logos = new WeakMap<FastifyRequest, Buffer>();

/**
 * The content-type parser of the logo form (multipart/form-data): its text fields become the
 * body (the CSRF token among them, checked by the pages' hook as for any form), its file part
 * named `logo` is kept for {@link logoOf}.
 */
export async function logoFormParser(
  request: FastifyRequest,
  payload: Readable,
): Promise<Record<string, string>> {
  const parts = await readMultipartForm(request.headers, payload, LOGO_FORM_LIMITS);
  // No prototype: a part named __proto__ is a field like any other.
  const body = Object.create(null) as Record<string, string>;
  for (const part of parts) {
    if (part.isFile) {
      if (part.name === 'logo') logos.set(request, part.bytes);
    } else body[part.name] = part.bytes.toString('utf8');
  }
  return body;
}

/** The bytes of the form's `logo` file; empty when none was chosen. */
export function logoOf(request: FastifyRequest): Buffer {
  return logos.get(request) ?? Buffer.alloc(0);
}
