/** Who the passkeys belong to, as WebAuthn names it: the installation's public address. */
export interface RelyingParty {
  /** The rpID: the public URL's host name (no port), which every passkey is scoped to. */
  id: string;
  /** The origin a browser's ceremony must report (scheme, host and port). */
  origin: string;
  /** What an authenticator shows beside the passkey. */
  name: string;
}

/**
 * The relying party of an installation served at `publicUrl` (deps.publicUrl). A passkey made
 * here works only on this host name: a page on another origin (a look-alike domain) gets an
 * assertion the service refuses, which is what makes a passkey unphishable.
 */
export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: `docpipe (${url.hostname})` };
}
