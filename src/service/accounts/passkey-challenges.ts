import type { Redis } from 'ioredis';

/** How long a ceremony's challenge may be answered: the browser's own timeout, and a little. */
export const PASSKEY_CHALLENGE_TTL_S = 300;

/** What a ceremony was started for, kept with its challenge. */
export interface PasskeyChallenge {
  challenge: string;
  /** Registration: the login adding a passkey (an authentication knows it only at the end). */
  loginId?: string;
  /** Registration: the name the person gave, checked when the ceremony began. */
  name?: string;
}

/**
 * The WebAuthn challenges in the shared Redis, so that a ceremony begun on one server may end on
 * another: each kept under its binding (the session's id for adding a passkey, a random value in
 * the browser's cookie for logging in) for PASSKEY_CHALLENGE_TTL_S, and taken once (GETDEL):
 * an assertion sent twice finds no challenge the second time.
 */
export class PasskeyChallenges {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async put(
    purpose: 'register' | 'login',
    binding: string,
    value: PasskeyChallenge,
  ): Promise<void> {
    await this.redis.set(
      this.key(purpose, binding),
      JSON.stringify(value),
      'EX',
      PASSKEY_CHALLENGE_TTL_S,
    );
  }

  /** The challenge begun under `binding`, removed as it is read; undefined: none (or expired). */
  async take(
    purpose: 'register' | 'login',
    binding: string,
  ): Promise<PasskeyChallenge | undefined> {
    const stored = await this.redis.getdel(this.key(purpose, binding));
    if (stored === null) return undefined;
    const value = JSON.parse(stored) as PasskeyChallenge;
    return typeof value.challenge === 'string' ? value : undefined;
  }

  private key(purpose: string, binding: string): string {
    return `${this.prefix}:passkey-challenge:${purpose}:${binding}`;
  }
}
