import type { CaseAnswer, CaseNotice, CaseState, CaseView } from './case-answer.js';
import type { V2Document, V2Recipient } from './v2-case-body.js';

/**
 * What the v2 case endpoints answer (spec 2.3, 4.2): the create answer's `data`, a list line
 * (the case summary) and one case. Written from what the case service wrote and reads back, so
 * that a v2 answer and a v3 read of the same case agree. None of them holds a CPR number; the
 * signing token is in the create answer only, once (see `V2RecipientAnswer.signingToken`).
 */

/** Every case docpipe makes is a simple-sign case (spec 2.2: v3 dropped the case `type`). */
export const V2_CASE_TYPE = 'simple-sign';

/** spec 2.1's CaseSettings as a v2 case shows them. */
export type V2SettingsView = Record<string, unknown> & {
  lang?: string;
  availability?: Record<string, unknown>;
};

/** spec 2.1's v2 recipient response: the given members plus these. */
export interface V2RecipientAnswer extends Record<string, unknown> {
  _id: string;
  uid: string;
  name: string;
  /** The recipient's signing status (spec 9: v3's `status`): `pending`, `signed`, `denied`. */
  signed: string;
  /**
   * The token of the recipient's signing link, for an open case only, in this answer only: it is
   * the last segment of `url`, shown once (only its SHA-256 is stored), so it says nothing
   * `url` does not.
   */
  signingToken?: string;
  /** `email`, `phone` (v3's `sms`) or `eboks`. */
  type: string;
  /** The signing link, for an open case only (spec 2.1). */
  url?: string;
}

export interface V2DocumentAnswer extends Record<string, unknown> {
  _id: string;
  document_id: string;
  name: string;
  /** A signed download URL of the case's PDF, or the URL it was given by. */
  file: string;
  fileIsBlob: false;
}

/** spec 2.3's `data`. */
export interface V2CaseData {
  _id: string;
  id: string;
  title: string;
  folder: string;
  folderId: string;
  type: string;
  user_email: string;
  user_company: string;
  /** The creating API key's public id (never its secret). */
  serviceKey: string;
  signingSchemas: string[];
  settings: V2SettingsView;
  recipients: V2RecipientAnswer[];
  documents: V2DocumentAnswer[];
  createdAt: string;
  updatedAt: string;
}

/** spec 7.1's notice: `message` and `using`, extra members allowed (here v3's `code`). */
export type V2Notice = CaseNotice;

export interface V2CreatedCase {
  data: V2CaseData;
  notices: V2Notice[];
}

/** spec 2.1's case summary: one line of a v2 list. */
export interface V2CaseSummary {
  _id: string;
  title: string;
  folder: string;
  type: string;
  createdAt: string;
  updatedAt: string;
}

/** One case as GET .../case/{case_id}/get shows it (spec 4.2). */
export interface V2CaseOne {
  _id: string;
  title: string;
  type: string;
  createdAt: string;
  updatedAt: string;
  settings: V2SettingsView;
}

/** The recipient members of spec 2.1 a create answer echoes as they were given. */
const ECHOED_RECIPIENT = [
  'name',
  'email',
  'needsCpr',
  'signingSchema',
  'redirectUrl',
  'addPhone',
  'phone',
  'order',
  'position',
  'template',
  'message',
  'eboks',
] as const;

const ECHOED_DOCUMENT = ['signObligated', 'documentMustBeRead', 'signatories'] as const;

export interface V2AnswerParts {
  company: string;
  keyId: string;
  given: { recipients: V2Recipient[]; documents: (V2Document & { name: string })[] };
  created: CaseAnswer;
  view: CaseView;
  now: Date;
}

/** spec 2.3's `data` of a case just created. */
export function v2CaseData(p: V2AnswerParts): V2CaseData {
  const { view, created } = p;
  const open = view.state !== 'draft';
  const recipients = view.recipients.map((r, i): V2RecipientAnswer => {
    const given = p.given.recipients[i];
    const echoed: Record<string, unknown> = {};
    for (const key of ECHOED_RECIPIENT) if (given?.[key] !== undefined) echoed[key] = given[key];
    const link = created.recipients[i]?.signingUrl;
    return {
      ...echoed,
      _id: r.id,
      uid: r.uid,
      name: r.name,
      signing: r.signing,
      group: r.group,
      signed: r.status,
      type: v2RecipientType(r.type),
      ...(open && link !== undefined
        ? { url: link, signingToken: link.slice(link.lastIndexOf('/') + 1) }
        : {}),
    };
  });
  const documents = view.documents.map((d, i): V2DocumentAnswer => {
    const given = p.given.documents[i];
    const echoed: Record<string, unknown> = {};
    for (const key of ECHOED_DOCUMENT) if (given?.[key] !== undefined) echoed[key] = given[key];
    const id = v2DocumentId(view.id, i);
    return { ...echoed, _id: id, document_id: id, name: d.name, file: d.url, fileIsBlob: false };
  });
  return {
    _id: view.id,
    id: view.id,
    title: view.title,
    folder: view.folder.name,
    folderId: view.folder.id,
    type: V2_CASE_TYPE,
    user_email: view.sender?.email ?? '',
    user_company: p.company,
    serviceKey: p.keyId,
    signingSchemas: signingSchemasOf(view.settings),
    settings: v2Settings(view.settings, view.state, new Date(view.expiresAt), p.now),
    recipients,
    documents,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}

/**
 * A case document's `_id` (and `document_id`): its case and its place in the case, since a case
 * document is a row of its case, not a record of its own.
 */
export function v2DocumentId(caseId: string, index: number): string {
  return `${caseId}:${index}`;
}

/** v3's `sms` is v2's `phone` (spec 9). */
export function v2RecipientType(type: string): string {
  return type === 'sms' ? 'phone' : type;
}

/**
 * The case's settings as v2 names them: `language` is `lang`, `expiresInDays` is
 * `availability.days` beside the expiry and whether it passed; the settings v2 sent that v3
 * does not take (`deletion`, `allowRecipientsViewOthers`, ...) as they were kept. The signing
 * schemes are the case's own member (`signingSchemas`), not a setting.
 */
export function v2Settings(
  stored: Record<string, unknown>,
  state: CaseState,
  expiresAt: Date,
  now: Date,
): V2SettingsView {
  const { language, expiresInDays, signingSchemas, availability, ...rest } = stored;
  void signingSchemas;
  return {
    ...rest,
    ...(typeof language === 'string' ? { lang: language } : {}),
    availability: {
      ...(isObject(availability) ? availability : {}),
      ...(typeof expiresInDays === 'number' ? { days: expiresInDays } : {}),
      expiration: expiresAt.toISOString(),
      isExpired: state === 'expired' || expiresAt.getTime() <= now.getTime(),
    },
  };
}

function signingSchemasOf(settings: Record<string, unknown>): string[] {
  const s = settings.signingSchemas;
  return Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
