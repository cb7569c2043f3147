/**
 * What the case service answers: the v3 create answer exactly as spec 2.2 lists it, and the read
 * shape of GET /v3/api/cases(/{id}). None of them ever holds a signing token, a service key or a
 * CPR number (spec 2.2's removed members): they are not selected from the database at all.
 */

import type { RenderNotice } from '../../render/pipeline/index.js';

/** A notice of a successful answer (spec 7.3): `code`, `message`, maybe extra members. */
export type CaseNotice = ServiceNotice | DocumentNotice;

/**
 * A render's notice about one of the case's documents, at its field (`documents[1]`, or the
 * value's `documents[1].tags.tenant_name`).
 */
export type DocumentNotice = RenderNotice & { field: string };

/** A notice about the case itself. */
export interface ServiceNotice {
  code:
    | 'sender-defaulted-to-key-creator'
    | 'default-signing-schemas'
    | 'no-sharepoint-integration'
    | 'contact-not-saved'
    | 'signing-page-logo-not-stored'
    | 'signing-urls-unavailable';
  message: string;
  /** `default-signing-schemas`: the schemes the case uses. */
  using?: string[];
}

/** One channel's result: `error` only when `ok` is false; `location` where it went when known. */
export interface ChannelResult {
  ok: boolean;
  error?: string;
  location?: string;
}

/**
 * One channel of a delivery report. A channel the case had nothing to send over (an SMS
 * channel of a case of e-mail recipients, a webhook channel without webhooks) is
 * `{ok: true, attempted: false, reason}`: nothing failed, so a client that checks `ok` sees no
 * failure for a case delivered as intended. `ok` is false only when something was to go and did
 * not (`error` says why), or is not known to have gone yet.
 */
export interface ChannelReport extends ChannelResult {
  /** Whether anything was sent, or tried, over the channel. */
  attempted: boolean;
  /** Why nothing was tried, when `attempted` is false. */
  reason?: string;
}

/**
 * spec 2.2's `delivery`: the first attempt over each channel of the case's `case.created`
 * (service/delivery); `attempted` is whether any channel was tried.
 */
export interface Delivery {
  attempted: boolean;
  email: ChannelReport;
  eboks: ChannelReport;
  sms: ChannelReport;
  webhook: ChannelReport;
}

/** The 201 answer's `case` (spec 2.2), member for member. */
export interface CaseAnswer {
  id: string;
  recipients: { id: string; uid: string; signingUrl: string; status: RecipientStatus }[];
  documents: { url: string }[];
  /** The lowest group with pending signers; null when nobody has to sign. */
  activeGroup: number | null;
  delivery: Delivery;
  notices?: CaseNotice[];
}

export type CaseState = 'draft' | 'open' | 'signed' | 'denied' | 'expired';
export type RecipientStatus = 'pending' | 'signed' | 'denied';

/** A case as GET /v3/api/cases/{id} reads it (the spec leaves that body open). */
export interface CaseView {
  id: string;
  title: string;
  state: CaseState;
  referenceId: string | null;
  folder: { id: string; name: string };
  sender: { id: string | null; name: string; email: string } | null;
  language: string;
  activeGroup: number | null;
  /**
   * Every signer has signed and the seal job is at work: the case becomes `signed` when its
   * sealed PDFs are stored, and only then do `documents[].url` download them.
   */
  sealing: boolean;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
  settings: Record<string, unknown>;
  recipients: RecipientView[];
  documents: DocumentView[];
}

export interface RecipientView {
  id: string;
  uid: string;
  name: string;
  email: string | null;
  phone: string | null;
  type: string;
  signing: boolean;
  group: number;
  status: RecipientStatus;
  /** When they signed or denied (ISO 8601); absent while pending. */
  actedAt?: string;
  /** How a recipient who signed signed: `draw`, `typed` or the eID scheme. */
  method?: string;
  /** The reason a recipient who denied gave. */
  denialReason?: string;
  /** The address a recipient who signed or denied acted from. */
  ip?: string;
}

/**
 * A recipient's members as it is read and as `case.created` carries it, picked from a row or a
 * new recipient that holds more (the token's hash above all), so that neither shape leaks it.
 */
export function recipientView(r: RecipientView): RecipientView {
  return {
    id: r.id,
    uid: r.uid,
    name: r.name,
    email: r.email,
    phone: r.phone,
    type: r.type,
    signing: r.signing,
    group: r.group,
    status: r.status,
  };
}

export interface DocumentView {
  name: string;
  /** A signed download URL of the stored PDF, or the URL the document was given by. */
  url: string;
  /** `content`, `url` or `library`: where the document came from. */
  source: 'content' | 'url' | 'library';
  /** Pages of the file at `url`: the sealed PDF's once sealed (signature page, audit trail). */
  pages: number | null;
  /** Pages of the document as the signers read it, before sealing added any. */
  shownPages: number | null;
  sha256: string | null;
  /** `url` and `sha256` are the sealed PDF's (the case is signed); false before, and for a URL. */
  sealed: boolean;
}

/** One line of GET /v3/api/cases. */
export interface CaseSummary {
  id: string;
  title: string;
  state: CaseState;
  referenceId: string | null;
  folder: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
}

/** A page of the list, and the cursor of the next one (absent on the last page). */
export interface CasePage {
  cases: CaseSummary[];
  nextCursor?: string;
}
