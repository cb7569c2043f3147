import { servedSchemes, type EidConfig } from './broker-config.js';
import { EidBroker, type EidBrokerOptions, type EidIdentity, type EidStart } from './eid-broker.js';
import { EidError } from './eid-errors.js';
import { pendingOf, type EidPending } from './eid-pending.js';
import { isEidScheme, type EidScheme } from './eid-schemes.js';

export interface EidBrokersOptions extends EidBrokerOptions {
  /**
   * The installation's public base URL (DOCPIPE_PUBLIC_URL): every redirect URI must lie under
   * it, so that a broker never sends a signer, and a code, anywhere else.
   */
  publicUrl: string;
}

/**
 * The eID brokers of an installation, by scheme: which schemes are served, and the start and
 * finish of a signer's login. Build one per server and keep it: it caches each broker's
 * discovery. A broker that is down fails only its own logins (EidBrokerUnavailableError); the
 * schemes served are the configuration's, known without asking any broker.
 */
export class EidBrokers {
  private readonly bySchemes = new Map<EidScheme, EidBroker>();
  private readonly byName = new Map<string, EidBroker>();
  private readonly base: URL;

  constructor(config: EidConfig, options: EidBrokersOptions) {
    this.base = new URL(options.publicUrl);
    for (const c of config.brokers) {
      const broker = new EidBroker(c, options);
      this.byName.set(c.name, broker);
      for (const scheme of Object.keys(c.schemes) as EidScheme[])
        if (!this.bySchemes.has(scheme)) this.bySchemes.set(scheme, broker);
    }
    this.schemes = servedSchemes(config);
  }

  private readonly schemes: EidScheme[];

  /** The eID schemes with a broker, in spec 2.1's order (the case service's `eidSchemes`). */
  served(): EidScheme[] {
    return [...this.schemes];
  }

  /** Whether `scheme` has a broker here. */
  serves(scheme: string): scheme is EidScheme {
    return isEidScheme(scheme) && this.bySchemes.has(scheme);
  }

  /**
   * Starts a login for `scheme`: the URL to send the signer to, and the pending login to keep
   * until the callback. `redirectUri` is the callback route, under the public URL, as registered
   * at the broker (one fixed URI: the signing token never goes in it; the state finds the login).
   * EidError `unserved-scheme`, or EidBrokerUnavailableError.
   */
  async start(scheme: string, { redirectUri }: { redirectUri: string }): Promise<EidStart> {
    const broker = isEidScheme(scheme) ? this.bySchemes.get(scheme) : undefined;
    if (!broker)
      throw new EidError(
        'unserved-scheme',
        'signingSchema',
        `no eID broker is configured for ${scheme} on this installation`,
      );
    return broker.start(scheme as EidScheme, this.redirectUnderBase(redirectUri));
  }

  /**
   * Finishes the login `pending` started, from the callback: its URL, its path and query as the
   * request has them, or its query parameters.
   * EidError with its reason, or EidBrokerUnavailableError.
   */
  async finish(
    callback: URL | string | URLSearchParams,
    pending: EidPending,
  ): Promise<EidIdentity> {
    const checked = pendingOf(pending);
    const broker = this.byName.get(checked.broker);
    if (!broker)
      throw new EidError(
        'state-mismatch',
        'eid.state',
        'the eID login was started with a broker this installation no longer has',
      );
    return broker.finish(paramsOf(callback), checked);
  }

  private redirectUnderBase(redirectUri: string): string {
    const url = new URL(redirectUri, this.base);
    const basePath = this.base.pathname.endsWith('/')
      ? this.base.pathname
      : `${this.base.pathname}/`;
    if (url.origin !== this.base.origin || !`${url.pathname}/`.startsWith(basePath) || url.hash)
      throw new TypeError(
        `the eID redirect URI ${url.href} is not under the public URL ${this.base.href}`,
      );
    return url.href;
  }
}

function paramsOf(callback: URL | string | URLSearchParams): URLSearchParams {
  if (callback instanceof URLSearchParams) return callback;
  if (callback instanceof URL) return callback.searchParams;
  // A whole URL, the request's path and query (`/sign/eid/callback?code=...`), or the query.
  const text = callback.split('#')[0]!;
  const q = text.indexOf('?');
  return new URLSearchParams(q >= 0 ? text.slice(q + 1) : text);
}
