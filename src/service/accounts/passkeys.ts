import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database } from '../db/index.js';
import type { PasskeyChallenges } from './passkey-challenges.js';
import type { RelyingParty } from './passkey-relying-party.js';

/** A passkey as the security page lists it. */
export interface Passkey {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Synced by its authenticator (a password manager's passkey), rather than bound to one device. */
  backedUp: boolean;
}

/** How adding a passkey ended. */
export type PasskeyAdded = 'added' | 'no-challenge' | 'refused' | 'known';

/** How a passkey log-in ended: the login it opens, or why not. */
export type PasskeyLogin =
  | { ok: true; loginId: string; passkeyId: string }
  | { ok: false; reason: 'no-challenge' | 'unknown' | 'refused' };

const TRANSPORTS = new Set<string>([
  'ble',
  'cable',
  'hybrid',
  'internal',
  'nfc',
  'smart-card',
  'usb',
]);

type Db = Kysely<Database>;

/**
 * A login's passkeys (WebAuthn, through @simplewebauthn/server): adding one (registration, a
 * discoverable credential with user verification required), logging in with one without a
 * user name (authentication: the credential names its login), listing and removing them. Each
 * ceremony's challenge is kept by PasskeyChallenges under the browser's binding and taken once;
 * the response must come from the relying party's own origin and rpID, with the user verified
 * (a PIN or a fingerprint: the second factor), and its signature counter must move forwards.
 */
export class Passkeys {
  constructor(
    private readonly db: Db,
    private readonly challenges: PasskeyChallenges,
    private readonly rp: RelyingParty,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(loginId: string): Promise<Passkey[]> {
    const rows = await this.db
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at', 'backed_up'])
      .where('login_id', '=', loginId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      backedUp: row.backed_up,
    }));
  }

  /** One of the login's passkeys; undefined for another login's (or none) alike. */
  async find(loginId: string, id: string): Promise<Passkey | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.list(loginId)).find((passkey) => passkey.id === id);
  }

  /**
   * Begins adding a passkey named `name` (checked by the caller: passkeyNameProblem) for the
   * login of the session `binding`: the options for the browser's navigator.credentials.create.
   * The login's passkeys are excluded, so that one authenticator is not added twice.
   */
  async beginRegistration(
    login: { id: string; email: string; name: string },
    binding: string,
    name: string,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const known = await this.db
      .selectFrom('passkeys')
      .select(['credential_id', 'transports'])
      .where('login_id', '=', login.id)
      .execute();
    const options = await generateRegistrationOptions({
      rpName: this.rp.name,
      rpID: this.rp.id,
      userName: login.email,
      userDisplayName: login.name,
      userID: userHandleOf(login.id),
      attestationType: 'none',
      excludeCredentials: known.map((row) => ({
        id: row.credential_id,
        transports: transportsOf(row.transports),
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.challenges.put('register', binding, {
      challenge: options.challenge,
      loginId: login.id,
      name: name.trim(),
    });
    return options;
  }

  /** Ends adding a passkey: the browser's response to beginRegistration's options, checked. */
  async finishRegistration(
    loginId: string,
    binding: string,
    response: unknown,
  ): Promise<PasskeyAdded> {
    const begun = await this.challenges.take('register', binding);
    if (!begun || begun.loginId !== loginId || begun.name === undefined) return 'no-challenge';
    if (!isCredentialResponse(response)) return 'refused';
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: response as unknown as RegistrationResponseJSON,
        expectedChallenge: begun.challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
      });
    } catch {
      return 'refused';
    }
    if (!verified.verified) return 'refused';
    const { credential, credentialBackedUp } = verified.registrationInfo;
    const inserted = await this.db
      .insertInto('passkeys')
      .values({
        login_id: loginId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: (credential.transports ?? []).filter((t) => TRANSPORTS.has(t)),
        backed_up: credentialBackedUp,
        name: begun.name,
        created_at: this.now(),
      })
      .onConflict((oc) => oc.column('credential_id').doNothing())
      .executeTakeFirst();
    return inserted.numInsertedOrUpdatedRows === 1n ? 'added' : 'known';
  }

  /**
   * Begins a log-in with a passkey for the browser holding `binding` (a random value in its
   * cookie): no credential is named (the authenticator offers its discoverable ones for this
   * rpID), and user verification is required.
   */
  async beginLogin(binding: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      userVerification: 'required',
    });
    await this.challenges.put('login', binding, { challenge: options.challenge });
    return options;
  }

  /**
   * Ends a log-in with a passkey: the login whose passkey signed this browser's challenge, on
   * this origin, with the user verified, and with a counter past the last one seen (taken in one
   * statement, so that two requests with one assertion cannot both pass).
   */
  async finishLogin(binding: string, response: unknown): Promise<PasskeyLogin> {
    const begun = await this.challenges.take('login', binding);
    if (!begun) return { ok: false, reason: 'no-challenge' };
    if (!isCredentialResponse(response)) return { ok: false, reason: 'refused' };
    const row = await this.db
      .selectFrom('passkeys')
      .select(['id', 'login_id', 'credential_id', 'public_key', 'counter', 'transports'])
      .where('credential_id', '=', response.id)
      .executeTakeFirst();
    if (!row) return { ok: false, reason: 'unknown' };
    const handle = (response.response as { userHandle?: unknown }).userHandle;
    if (handle !== undefined && handle !== base64url(userHandleOf(row.login_id)))
      return { ok: false, reason: 'refused' };
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: begun.challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
        credential: {
          id: row.credential_id,
          publicKey: new Uint8Array(row.public_key),
          counter: Number(row.counter),
          transports: transportsOf(row.transports),
        },
      });
    } catch {
      return { ok: false, reason: 'refused' };
    }
    if (!verified.verified || !verified.authenticationInfo.userVerified)
      return { ok: false, reason: 'refused' };
    const counter = verified.authenticationInfo.newCounter;
    const taken = await this.db
      .updateTable('passkeys')
      .set({
        counter,
        last_used_at: this.now(),
        backed_up: verified.authenticationInfo.credentialBackedUp,
      })
      .where('id', '=', row.id)
      .where('counter', '=', row.counter)
      .where((eb) =>
        counter === 0 ? eb('counter', '=', '0') : eb('counter', '<', String(counter)),
      )
      .executeTakeFirst();
    if (taken.numUpdatedRows !== 1n) return { ok: false, reason: 'refused' };
    return { ok: true, loginId: row.login_id, passkeyId: row.id };
  }

  /** Removes one of the login's passkeys; false when it has none of that id. */
  async remove(loginId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.db
      .deleteFrom('passkeys')
      .where('id', '=', id)
      .where('login_id', '=', loginId)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }
}

/** The WebAuthn user handle of a login: its uuid's 16 bytes (no e-mail address, nothing personal). */
export function userHandleOf(loginId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(loginId.replace(/-/g, ''), 'hex'));
}

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

function transportsOf(stored: readonly string[]): AuthenticatorTransport[] {
  return stored.filter((t): t is AuthenticatorTransport => TRANSPORTS.has(t));
}

/** A credential's JSON as the browser sends it, in outline (the library checks the rest). */
function isCredentialResponse(
  value: unknown,
): value is { id: string; rawId: string; type: string; response: object } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    v.id.length > 0 &&
    v.id.length <= 1024 &&
    typeof v.rawId === 'string' &&
    v.type === 'public-key' &&
    typeof v.response === 'object' &&
    v.response !== null
  );
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
