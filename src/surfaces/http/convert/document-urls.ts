import {
  parseStoredDocumentUrl,
  S3Storage,
  signUrl,
  verifySignedUrl,
  type Storage,
} from '../../../render/storage/index.js';
import type { ResolveDocumentUrl } from './convert-sources.js';
import { contentDisposition, documentName } from '../common/files-disposition.js';

export interface DocumentUrlOptions {
  publicUrl: string;
  signingSecret: string;
  signedUrlTtlSeconds: number;
  /**
   * Where documents are kept. On S3 storage a document's download URL is S3's own pre-signed
   * URL, and such a URL is a document source like docpipe's signed URLs. @defaultValue none:
   * docpipe's signed URLs only
   */
  storage?: Storage;
  now?: () => Date;
}

/**
 * The URLs a caller may give as a document's source: only ones docpipe issued. An upload URL of
 * the key's own company, or a signed download URL that is still valid (it is a capability in its
 * own right, whoever holds it): docpipe's own, or on S3 storage one S3 pre-signed for docpipe.
 * Any other URL is nobody's business to fetch, and none is ever fetched: each is checked here.
 */
export function documentUrlResolver(options: DocumentUrlOptions): ResolveDocumentUrl {
  const now = options.now ?? (() => new Date());
  const downloads = `${options.publicUrl}/files/`;
  const s3 = options.storage instanceof S3Storage ? options.storage : undefined;
  return async (url, company) => {
    // Whether the document is still there is the caller's to find out, with the one look it
    // makes anyway (and its own message: "no longer there").
    const stored = parseStoredDocumentUrl(url, options.publicUrl);
    if (stored) return stored.company === company ? { key: stored.key } : undefined;
    if (url.startsWith(downloads)) {
      const signed = verifySignedUrl(url, options.signingSecret, now());
      return signed.ok ? { key: signed.key } : undefined;
    }
    const key = await s3?.verifyPresignedGet(url, now());
    return key === undefined ? undefined : { key };
  };
}

/**
 * A signed download URL of a produced PDF, named after the document it was made for. Renders
 * are content-addressed and shared by every request that made the same document, so no name is
 * written beside them (it would be the last requester's, whatever company it is): the name is
 * signed into the URL itself, so each answer downloads under its own request's name.
 */
export function renderUrlSigner(
  options: DocumentUrlOptions,
): (key: string, name: string) => string {
  const now = options.now ?? (() => new Date());
  return (key, name) =>
    signUrl(
      options.publicUrl,
      key,
      new Date(now().getTime() + options.signedUrlTtlSeconds * 1000),
      options.signingSecret,
      documentName(name),
    );
}

/**
 * The download URL of a stored document named `name`, working until `expiresAt`: on S3 storage
 * a URL S3 itself serves (pre-signed, with the document's type and name as its answer headers,
 * as docpipe's own downloads give them; S3 signs them with the rest), else docpipe's signed
 * `/files/...` URL with the name signed in. Either way the name is the URL's own: nothing
 * written later changes it.
 */
export async function documentDownloadUrl(
  options: Pick<DocumentUrlOptions, 'publicUrl' | 'signingSecret'> & { storage: Storage },
  key: string,
  expiresAt: Date,
  type: { mediaType: string; extension: string },
  name: string,
): Promise<string> {
  const { storage } = options;
  if (!(storage instanceof S3Storage))
    return signUrl(options.publicUrl, key, expiresAt, options.signingSecret, documentName(name));
  return storage.presignGet(key, expiresAt, {
    contentType: type.mediaType,
    contentDisposition: contentDisposition(name, type.extension),
  });
}
