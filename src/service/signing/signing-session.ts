import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.js';
import { hashSigningToken } from '../cases/index.js';
import { activeGroupOf, waitingFor, type GroupMember } from './active-group.js';
import { signingMethodsOf } from './signing-methods.js';

/** A signature place as stored with a case document (PDF points, origin lower-left; docs/signing.md). */
export interface PlaceView {
  kind: 'sign' | 'initials' | 'name' | 'date';
  /** The recipient's position in the case's recipients, from 1. */
  recipient: number;
  page: number;
  rect: { x: number; y: number; width: number; height: number };
}

/** What a recipient's signing link opens: everything the page and its API show and check. */
export interface SigningSession {
  company: string;
  caseId: string;
  title: string;
  /** The case's language (`da`, `en`, ...). */
  language: string;
  sender: { name: string; email: string };
  /** settings.logo: base64 bytes of a PNG or JPEG, or a URL of this service; null: none. */
  logo: string | null;
  /** settings.message, the sender's words to every recipient (the invitation has them too); null: none. */
  message: string | null;
  expiresAt: Date;
  activeGroup: number | null;
  recipient: {
    id: string;
    /** From 1, in the case's order: anchors name recipients by it (`{sign:2}`). */
    number: number;
    name: string;
    group: number;
    signing: boolean;
    /** The methods this recipient may sign with: `draw` and/or eID schemes. */
    methods: string[];
    needsCpr: boolean;
    /** Where the page goes after signing: the recipient's `redirectUrl` when it is http(s). */
    redirectUrl: string | null;
    /** The recipient's own `message` (a v2 recipient member), when it is a text; null: none. */
    message: string | null;
  };
  /** The active group's recipients who have not signed yet, when it is not this recipient's. */
  waitingFor: string[];
  /** This recipient may sign now. */
  mayAct: boolean;
  documents: {
    index: number;
    name: string;
    pages: number | null;
    storageKey: string | null;
    url: string | null;
    mustBeRead: boolean;
    /** This recipient's places only. */
    places: PlaceView[];
  }[];
}

/** A base64url token of 32 bytes is 43 characters; anything far off is no token of ours. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,128}$/;

type Reader = Kysely<Database> | Transaction<Database>;

/**
 * The session a signing link opens, or undefined when it opens nothing: no recipient has the
 * token, or the case is not open (draft, signed, denied, expired, or past its expiry), or the
 * recipient has signed or denied. All of those are the same undefined, so that no answer tells
 * them apart. Only the token's SHA-256 is stored, so the lookup is by hash; the token is the
 * capability, which is why the first read names no company, and every later read names the
 * recipient's. With `lock`, the case row and then the recipient's are locked for the caller's
 * transaction (always in that order, so that two signers of one case never deadlock).
 */
export async function readSigningSession(
  db: Reader,
  token: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<SigningSession | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const found = await db
    .selectFrom('recipients')
    .select(['company_id', 'case_id', 'id'])
    .where('signing_token_hash', '=', hashSigningToken(token))
    .executeTakeFirst();
  if (!found) return undefined;
  return readSessionOf(db, found.company_id, found.case_id, found.id, now, options);
}

/** The same, for a recipient already known (an eID login coming back carries no token). */
export async function readSessionOf(
  db: Reader,
  company: string,
  caseId: string,
  recipientId: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<SigningSession | undefined> {
  let caseQuery = db
    .selectFrom('cases')
    .select([
      'title',
      'state',
      'language',
      'settings',
      'signing_schemas',
      'expires_at',
      'active_group',
      'sender_name',
      'sender_email',
      'completed_at',
    ])
    .where('company_id', '=', company)
    .where('id', '=', caseId);
  if (options.lock) caseQuery = caseQuery.forUpdate();
  const kase = await caseQuery.executeTakeFirst();
  if (!kase || kase.state !== 'open' || kase.completed_at !== null) return undefined;
  if (kase.expires_at.getTime() <= now.getTime()) return undefined;

  let recipientsQuery = db
    .selectFrom('recipients')
    .select(['id', 'position', 'name', 'group', 'signing', 'status', 'details'])
    .where('company_id', '=', company)
    .where('case_id', '=', caseId)
    .orderBy('position');
  if (options.lock) recipientsQuery = recipientsQuery.forUpdate();
  const recipients = await recipientsQuery.execute();
  const me = recipients.find((r) => r.id === recipientId);
  if (!me || me.status !== 'pending') return undefined;

  const documents = await db
    .selectFrom('case_documents')
    .select(['index', 'name', 'pages', 'storage_key', 'url', 'must_be_read', 'places'])
    .where('company_id', '=', company)
    .where('case_id', '=', caseId)
    .orderBy('index')
    .execute();

  const members: GroupMember[] = recipients.map((r) => ({
    name: r.name,
    group: r.group,
    signing: r.signing,
    status: r.status,
  }));
  const active = activeGroupOf(members);
  const details = (me.details ?? {}) as Record<string, unknown>;
  const settings = (kase.settings ?? {}) as Record<string, unknown>;
  const number = me.position + 1;
  return {
    company,
    caseId,
    title: kase.title,
    language: kase.language,
    sender: { name: kase.sender_name, email: kase.sender_email },
    logo: typeof settings.logo === 'string' ? settings.logo : null,
    message: textOrNull(settings.message),
    expiresAt: kase.expires_at,
    activeGroup: active,
    recipient: {
      id: me.id,
      number,
      name: me.name,
      group: me.group,
      signing: me.signing,
      methods: signingMethodsOf(details.signingSchema, kase.signing_schemas, {
        needsCpr: details.needsCpr === true,
      }),
      needsCpr: details.needsCpr === true,
      redirectUrl: httpUrl(details.redirectUrl),
      message: textOrNull(details.message),
    },
    waitingFor: me.signing && active !== me.group ? waitingFor(members) : [],
    mayAct: me.signing && active === me.group,
    documents: documents.map((d) => ({
      index: d.index,
      name: d.name,
      pages: d.pages,
      storageKey: d.storage_key,
      url: d.url,
      mustBeRead: d.must_be_read,
      places: placesOf(d.places).filter((p) => p.recipient === number),
    })),
  };
}

function placesOf(stored: unknown): PlaceView[] {
  return Array.isArray(stored) ? (stored as PlaceView[]) : [];
}

/** An http(s) URL, or null: a page never sends a signer to `javascript:` or a file. */
function httpUrl(value: unknown): string | null {
  return typeof value === 'string' && /^https?:\/\//i.test(value) ? value : null;
}

/** A text with something in it, or null (a message of spaces says nothing). */
function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
