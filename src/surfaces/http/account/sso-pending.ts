import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { OIDC_LOGIN_TTL_MS, type OidcLoginPending } from '../../../service/accounts/index.js';

/**
 * Single sign-on log-ins between their start and their callback, in the shared Redis (any server
 * may get the callback), as the eID logins keep theirs in `signing_logins`: found by the SHA-256
 * of the OAuth state, beside the SHA-256 of a random value the starting browser holds in a
 * cookie, and gone after OIDC_LOGIN_TTL_MS. `take` reads and deletes in one step (GETDEL), so a
 * replayed callback finds nothing. The value holds the PKCE verifier: it never reaches a browser.
 */
export interface SsoPendingLogin {
  pending: OidcLoginPending;
  /** SHA-256 (hex) of the starting browser's cookie value. */
  browserHash: string;
  /** Where the log-in goes on to. */
  next: string;
}

export const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

export class SsoPendingStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(state: string): string {
    return `${this.prefix}:sso-login:${sha256Hex(state)}`;
  }

  async put(login: SsoPendingLogin): Promise<void> {
    await this.redis.set(
      this.key(login.pending.state),
      JSON.stringify(login),
      'PX',
      OIDC_LOGIN_TTL_MS,
    );
  }

  /** The log-in started with `state`, taken (a second call finds nothing); undefined: none. */
  async take(state: string): Promise<SsoPendingLogin | undefined> {
    const text = await this.redis.getdel(this.key(state));
    if (text === null) return undefined;
    const value = JSON.parse(text) as SsoPendingLogin;
    return value.pending?.v === 1 ? value : undefined;
  }
}
