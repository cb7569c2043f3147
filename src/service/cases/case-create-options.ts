import type { CaseSource } from '../db/index.js';
import type { CaseAnswer, CaseNotice } from './case-answer.js';
import { DEFAULT_EXPIRES_IN_DAYS } from './case-defaults.js';

/**
 * What a create is given besides the body, and what it answers: the creating key, the options
 * (with the policy that says how a v3 or a v2 body is read) and the created case. Apart from
 * the case service, so that the v2 create (v2-case-create.ts), which the service calls, reads
 * them without importing the service back.
 */

/**
 * Who creates the case: the verified API key (service/keys' KeyIdentity fits), or a member in the
 * dashboard (no key: `userId` alone).
 */
export interface CaseCreator {
  /** The key's id, kept as the case's creating key; absent when a member made it in the dashboard. */
  id?: string;
  /**
   * The key's user, or the dashboard's member: the sender when the body names none. Absent for a
   * key copied from Redis.
   */
  userId?: string;
}

/** A creator through an API key: v2 answers name the key (`serviceKey`), so v2 has no other. */
export type KeyCreator = CaseCreator & { id: string };

export interface CreateCaseOptions {
  /** This service's public base URL: signing links (without a signing domain) and logo URLs. */
  publicUrl: string;
  /** The clock. @defaultValue new Date() */
  now?: Date;
  /** The HTTP request's id, carried into the render jobs' log lines. */
  requestId?: string;
  /** Aborts waiting for the documents (the caller went away, the route's deadline). */
  signal?: AbortSignal;
  /** How the body's silences and unknowns are read: v3's rules (the default) or v2's. */
  policy?: CasePolicy;
  /**
   * Each recipient's CPR number, encrypted (service/cpr's CprCipher), by its place in
   * `recipients`: written with the recipient in the case's transaction. Only form submit gives
   * them; the number itself never reaches the case service.
   */
  encryptedCprs?: readonly (Buffer | undefined)[];
  /**
   * Where the case comes from, kept with it for the dashboard's list. @defaultValue 'v3'; v2's
   * create path gives 'v2' unless told 'form'.
   */
  source?: CaseSource;
  /**
   * Which refusals createCase throws: the first failing rule's, before the next rule runs (the
   * API's order, so that no document is rendered for a body whose references fail), or every
   * rule's at once (the dashboard's form, which shows each next to its field and renders the
   * documents once, in the same call that writes the case). @defaultValue 'first'
   */
  problems?: 'first' | 'all';
}

/**
 * What differs between a case created through v3 and one through v2 (spec 9's behaviour
 * differences), beyond the members' names (the v2 mapping's, src/service/cases/v2-case-input.ts):
 * the same create path (rules 2 to 4) under either policy.
 */
export interface CasePolicy {
  /** A `folder` the company lacks: `invalid-folder` (v3), or its default folder (v2). */
  unknownFolder: 'refuse' | 'default-folder';
  /** A `senderEmail` no member has: `sender-user-not-found` (v3), or the key's user (v2). */
  unknownSenderEmail: 'refuse' | 'key-user';
  /** `recipients[].signing` when absent: true (v3), false (v2). */
  defaultSigning: boolean;
  /** `settings.expiresInDays` when absent: 30 (v3), 90 (v2). */
  defaultExpiresInDays: number;
  /** `settings.language` when absent: the company's then Danish (v3), Danish (v2). */
  defaultLanguage: 'company' | 'da';
  /**
   * The sender's name and e-mail as the case shows them (v2's `user_name`, `user_email`), in
   * place of the member's profile; absent: the profile's (v3).
   */
  senderAs?: { name?: string; email?: string };
  /**
   * Settings v3 does not take but v2 does (`deletion`, `allowRecipientsViewOthers`, ...), kept
   * in the case's settings beneath the v3 members.
   */
  keptSettings?: Record<string, unknown>;
  /**
   * The moment the case expires, ISO 8601, in place of `expiresInDays` (v2's
   * `settings.availability.expiration`; v3 has no member for it). Kept in the case's settings
   * as `expiresAt`, so that a draft sent later keeps it.
   */
  expiresAt?: string;
}

/** spec 2.2 and 4.4: v3's reading of a body. */
export const V3_POLICY: Readonly<CasePolicy> = Object.freeze({
  unknownFolder: 'refuse',
  unknownSenderEmail: 'refuse',
  defaultSigning: true,
  defaultExpiresInDays: DEFAULT_EXPIRES_IN_DAYS,
  defaultLanguage: 'company',
});

export interface CreatedCase {
  case: CaseAnswer;
  /** The same notices as `case.notices` (empty when none). */
  notices: CaseNotice[];
}
