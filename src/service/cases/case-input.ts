import type { TagInput } from '../../document/values/index.js';
import type { CasePlace } from './case-places.js';

/**
 * What the case service needs of a POST /v3/api/cases body (spec 2.2) once its structure was
 * checked (rule 1 of spec 4.4: `case-body.ts`, the route's TypeBox schema). Written as the
 * service reads it, not as the wire says it: the schema's `Static` type must be assignable to
 * {@link CaseInput}, which the route's call to `createCase` checks at compile time. Members the
 * schema refuses (`roles`, `order`, `document_id`, `settings.deletion`...) are not here at all.
 */
export interface CaseInput {
  title: string;
  referenceId?: string;
  /** `draft` creates without sending; anything else (or nothing) is an open case. */
  state?: string;
  /** A folder's id or name; absent: the company's default folder. */
  folder?: string;
  presetId?: string;
  messageTemplateId?: string;
  senderId?: string;
  senderEmail?: string;
  /** The case's tag values, filled into each .docx and library document that has none of its own. */
  tags?: TagInput[];
  settings?: CaseSettingsInput;
  recipients?: RecipientInput[];
  documents?: CaseDocumentInput[];
}

/** spec 2.2's `settings.*` rows. */
export interface CaseSettingsInput {
  autoSend?: boolean;
  language?: string;
  expiresInDays?: number;
  reminders?: { send?: boolean; amount?: number; daysBetween?: number; autoSend?: boolean };
  template?: number;
  message?: string;
  signingSchemas?: string[];
  /** Base64 bytes of a PNG or JPEG, or a URL of this service. */
  logo?: string;
  integrations?: { microsoft?: { returnPath?: string } };
}

/** A v3 recipient: spec 2.2 and the v2 recipient fields it keeps (spec 2.1). */
export interface RecipientInput {
  name: string;
  email?: string;
  phone?: string;
  /** `sms` needs `phone`. @defaultValue 'email' */
  type?: string;
  /** @defaultValue true (v2: false) */
  signing?: boolean;
  /** Signing order: lower groups sign first. @defaultValue 1 */
  group?: number;
  messageTemplateId?: string;
  signingSchema?: string;
  redirectUrl?: string;
  /** The signature's title. */
  position?: string;
  message?: unknown;
  needsCpr?: boolean;
  addPhone?: boolean;
  eboks?: Record<string, unknown>;
}

/** A v3 document: a name and one source. */
export interface CaseDocumentInput {
  name: string;
  /** Base64 bytes of a PDF or a real .docx. */
  content?: string;
  /** docpipe's own URL: its stored document; any other: kept by reference, never fetched. */
  url?: string;
  /** A library document, with `versionId`. */
  documentId?: string;
  versionId?: string;
  /** This document's own tag values; absent: the case's `tags`. */
  tags?: TagInput[];
  /** Places the sender gives (case-places.ts); given, they replace its anchors and text tags. */
  places?: CasePlace[];
  /**
   * v2 `documentMustBeRead`: the signer pages through it before signing. Not a v3 member (its
   * schema is closed); v2 cases and forms set it.
   */
  mustBeRead?: boolean;
}
