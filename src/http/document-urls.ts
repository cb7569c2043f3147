import { parseStoredDocumentUrl, signUrl, verifySignedUrl } from '../storage/index.js';
import type { ResolveDocumentUrl } from './convert-sources.js';

export interface DocumentUrlOptions {
  publicUrl: string;
  signingSecret: string;
  signedUrlTtlSeconds: number;
  now?: () => Date;
}

/**
 * The URLs a caller may give as a document's source: only ones docpipe issued. An upload URL of
 * the key's own company, or a signed download URL that is still valid (it is a capability in its
 * own right, whoever holds it). Any other URL is nobody's business to fetch.
 */
export function documentUrlResolver(options: DocumentUrlOptions): ResolveDocumentUrl {
  const now = options.now ?? (() => new Date());
  const downloads = `${options.publicUrl}/files/`;
  return (url, company) => {
    // Whether the document is still there is the reader's to find out, with the one read it
    // makes anyway (and its own message: "no longer there").
    const stored = parseStoredDocumentUrl(url, options.publicUrl);
    if (stored)
      return Promise.resolve(stored.company === company ? { key: stored.key } : undefined);
    if (!url.startsWith(downloads)) return Promise.resolve(undefined);
    const signed = verifySignedUrl(url, options.signingSecret, now());
    return Promise.resolve(signed.ok ? { key: signed.key } : undefined);
  };
}

/**
 * A signed download URL of a produced PDF. Renders are content-addressed and shared by every
 * request that made the same document, so no name is written beside them (it would be the last
 * requester's, whatever company it is); the answer's `name` carries it.
 */
export function renderUrlSigner(options: DocumentUrlOptions): (key: string) => string {
  const now = options.now ?? (() => new Date());
  return (key) =>
    signUrl(
      options.publicUrl,
      key,
      new Date(now().getTime() + options.signedUrlTtlSeconds * 1000),
      options.signingSecret,
    );
}
