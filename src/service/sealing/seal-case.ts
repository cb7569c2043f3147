import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from '../../base/log/index.js';
import { writtenDate, writtenLanguage } from '../../base/util/index.js';
import { DEFAULT_TIME_ZONE } from '../../document/fill/index.js';
import {
  appendAuditTrail,
  appendSignaturePage,
  stampPlaces,
  type AuditAction,
  type AuditRecipient,
  type SignaturePlace,
  type Stamp,
} from '../../document/stamp/index.js';
import { openPdf, sealPdf, type Sealer } from '../../formats/pades/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../db/index.js';
import { CASE_SIGNED, eventCase, writeSigningEvent } from '../signing/index.js';
import { normalizedPdfHash } from '../../formats/pdf-bytes/index.js';
import { sealedDocumentKey } from './sealed-key.js';

export interface SealDeps {
  db: Kysely<Database>;
  storage: Storage;
  /**
   * Who seals: a loaded certificate, or how to get one at the first seal (a self-signed one
   * made on demand: its RSA key takes seconds, which a start should not wait for).
   */
  sealer: Sealer | (() => Promise<Sealer>);
  /** DOCPIPE_TSA_URL: PAdES B-T with it. */
  tsaUrl?: string;
  /** The docpipe version, for the evidence. */
  version: string;
  logger?: Logger;
  now?: () => Date;
  /**
   * `DOCPIPE_TIME_ZONE`: the zone of the dates stamped at the signers' places and of the audit
   * trail's times, as the e-mails write theirs.
   * @defaultValue DEFAULT_TIME_ZONE ('Europe/Copenhagen')
   */
  timeZone?: string;
}

/** What sealing did with a case. */
export type SealOutcome =
  | { kind: 'sealed'; documents: number }
  /** Nothing to do: already sealed, not complete, denied, or gone. */
  | { kind: 'skipped'; reason: string };

/** The evidence kept for each sealed document (case_documents.evidence). */
export interface DocumentEvidence {
  /** SHA-256 of the PDF as the signers were shown it (the case's own copy, kept). */
  shownSha256: string;
  /** The same, ignoring what varies between conversions (formats/pdf-bytes normalizedPdfHash). */
  shownNormalizedSha256: string;
  /** SHA-256 of the sealed PDF, as stored. */
  sealedSha256: string;
  pages: number;
  sealedPages: number;
  /** How the places came: the document's own (anchors, text tags) or an appended signature page. */
  places: 'document' | 'signature-page';
  level: 'B-B' | 'B-T';
  docpipeVersion: string;
  sealedAt: string;
}

/**
 * Seals a case whose signers have all signed (cases.completed_at set, sealed_at not): for each
 * document kept as a PDF, draws every signer's signature, name, initials and date at their places
 * (or appends a signature page with one box per signer when the document has none), appends the
 * audit trail, and signs the whole file as PAdES. Then, in one transaction, the documents get
 * their sealed keys and evidence, the case becomes signed, and `case.signed` is written to the
 * outbox.
 *
 * Idempotent, for a job that is retried after a crash: a document whose sealed file is already
 * stored keeps that file (never a second, different one), and a case already sealed is skipped.
 * The signing time is the moment the last signer signed, so a B-B seal of the same case is the
 * same bytes every time.
 */
export async function sealCase(
  deps: SealDeps,
  company: string,
  caseId: string,
): Promise<SealOutcome> {
  const { db, storage } = deps;
  const kase = await db
    .selectFrom('cases')
    .selectAll()
    .where('company_id', '=', company)
    .where('id', '=', caseId)
    .executeTakeFirst();
  if (!kase) return { kind: 'skipped', reason: 'the case is gone' };
  if (kase.sealed_at !== null || kase.state === 'signed')
    return { kind: 'skipped', reason: 'already sealed' };
  if (kase.state !== 'open' || kase.completed_at === null)
    return { kind: 'skipped', reason: `the case is ${kase.state}, not complete` };
  const completedAt = kase.completed_at;

  const recipients = await db
    .selectFrom('recipients')
    .leftJoin('signatures', 'signatures.recipient_id', 'recipients.id')
    .select([
      'recipients.id',
      'recipients.position',
      'recipients.name',
      'recipients.email',
      'recipients.status',
      'recipients.signing',
      'signatures.method',
      'signatures.typed_name',
      'signatures.image',
      'signatures.identity',
      'signatures.ip',
      'signatures.user_agent',
      'signatures.signed_at',
    ])
    .where('recipients.company_id', '=', company)
    .where('recipients.case_id', '=', caseId)
    .orderBy('recipients.position')
    .execute();
  const documents = await db
    .selectFrom('case_documents')
    .select([
      'index',
      'name',
      'storage_key',
      'url',
      'sha256',
      'pages',
      'places',
      'sealed_storage_key',
      'evidence',
    ])
    .where('company_id', '=', company)
    .where('case_id', '=', caseId)
    .orderBy('index')
    .execute();

  // What members did that the outbox does not carry (a signing link taken), for the trail.
  const actions = await db
    .selectFrom('case_audit')
    .select(['action', 'user_name', 'recipient_id', 'created_at'])
    .where('company_id', '=', company)
    .where('case_id', '=', caseId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

  const language = writtenLanguage(kase.language);
  const signers = recipients.filter((r) => r.signing);
  const audit = {
    case: {
      id: caseId,
      title: kase.title,
      sender: `${kase.sender_name} <${kase.sender_email}>`,
      createdAt: kase.created_at,
    },
    recipients: recipients.map((r): AuditRecipient => ({
      position: r.position + 1,
      name: r.name,
      ...(r.email ? { email: r.email } : {}),
      status: r.status,
      ...(r.method ? { method: auditMethod(r.method, r.identity) } : {}),
      ...(r.signed_at ? { at: r.signed_at } : {}),
      ...(r.ip ? { ip: r.ip } : {}),
      ...(r.user_agent ? { userAgent: r.user_agent } : {}),
    })),
    // A document kept by reference is listed as signed by reference, never as sealed.
    documents: documents.map((d) =>
      d.storage_key === null
        ? { name: d.name, byReference: d.url ?? '' }
        : { name: d.name, sha256: d.sha256 ?? '' },
    ),
    actions: actions.flatMap((a): AuditAction[] => {
      const r = recipients.find((x) => x.id === a.recipient_id);
      return a.action === 'signing-link-taken' && r
        ? [
            {
              kind: 'signing-link-taken',
              at: a.created_at,
              by: a.user_name,
              recipient: { position: r.position + 1, name: r.name },
            },
          ]
        : [];
    }),
  };

  const sealed: {
    index: number;
    key: string;
    sha256: string;
    bytes: number;
    /** The render's evidence kept at creation, with sealing's added (sealing's win). */
    evidence: Record<string, unknown> & DocumentEvidence;
  }[] = [];
  for (const d of documents) {
    if (d.storage_key === null) continue;
    const key = sealedDocumentKey(company, caseId, d.index);
    const shown = await storage.get(d.storage_key);
    if (!shown)
      throw new Error(`documents[${d.index}]: its stored PDF ${d.storage_key} is missing`);
    let bytes = await storage.get(key);
    const ownPlaces = placesOf(d.places);
    if (!bytes) {
      bytes = Buffer.from(
        await sealDocument(deps, shown, ownPlaces, signers, audit, language, completedAt),
      );
      await storage.put(key, bytes, 'application/pdf');
    }
    const sealedDoc = await openPdf(bytes);
    sealed.push({
      index: d.index,
      key,
      sha256: sha256(bytes),
      bytes: bytes.byteLength,
      evidence: {
        ...storedEvidence(d.evidence),
        shownSha256: sha256(shown),
        shownNormalizedSha256: normalizedPdfHash(shown),
        sealedSha256: sha256(bytes),
        pages: d.pages ?? 0,
        sealedPages: sealedDoc.getPageCount(),
        places: ownPlaces.length > 0 ? 'document' : 'signature-page',
        level: deps.tsaUrl ? 'B-T' : 'B-B',
        docpipeVersion: deps.version,
        sealedAt: completedAt.toISOString(),
      },
    });
  }

  const now = (deps.now ?? (() => new Date()))();
  await db.transaction().execute(async (trx) => {
    // Under the case's lock: a second job for the same case waits here, then finds it sealed.
    const current = await trx
      .selectFrom('cases')
      .select(['state', 'sealed_at'])
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .forUpdate()
      .executeTakeFirst();
    if (!current || current.sealed_at !== null || current.state !== 'open') return;
    for (const s of sealed)
      await trx
        .updateTable('case_documents')
        .set({
          sealed_storage_key: s.key,
          sealed_sha256: s.sha256,
          sealed_bytes: s.bytes,
          evidence: JSON.stringify(s.evidence),
        })
        .where('company_id', '=', company)
        .where('case_id', '=', caseId)
        .where('index', '=', s.index)
        .execute();
    await trx
      .updateTable('cases')
      .set({ state: 'signed', sealed_at: now, updated_at: now })
      .where('company_id', '=', company)
      .where('id', '=', caseId)
      .execute();
    await writeSigningEvent(
      trx,
      company,
      caseId,
      CASE_SIGNED,
      {
        case: eventCase(caseId, kase.title, 'signed', null, now),
        documents: sealed.map((s) => ({ index: s.index, sha256: s.sha256 })),
      },
      now,
    );
  });
  deps.logger?.info({ case: caseId, documents: sealed.length }, 'sealing: the case is signed');
  return { kind: 'sealed', documents: sealed.length };
}

type SignerRow = {
  position: number;
  name: string;
  method: string | null;
  typed_name: string | null;
  image: Buffer | null;
  signed_at: Date | null;
};

/** One document: stamps at its places (or a signature page), the audit trail, the seal. */
async function sealDocument(
  deps: SealDeps,
  shown: Uint8Array,
  ownPlaces: SignaturePlace[],
  signers: readonly SignerRow[],
  audit: Parameters<typeof appendAuditTrail>[1],
  language: 'da' | 'en',
  signingTime: Date,
): Promise<Uint8Array> {
  let source = shown;
  let places = ownPlaces;
  // Signers the document has no place for (all of them without anchors; a library contract's
  // list rows, whose loop cannot hold anchors) sign on a signature page.
  const unplaced = signers.filter((s) => !ownPlaces.some((p) => p.recipient === s.position + 1));
  if (unplaced.length > 0) {
    const withPage = await appendSignaturePage(
      shown,
      unplaced.map((s) => ({ name: s.name })),
      language,
    );
    source = withPage.pdf;
    // The page numbers signers by their order on it; places name recipients by their position
    // in the case, so map them back.
    places = [
      ...ownPlaces,
      ...withPage.places.map((p) => ({
        ...p,
        recipient: unplaced[p.recipient - 1]!.position + 1,
      })),
    ];
  }
  const pdf = await openPdf(source);
  const byPosition = new Map(signers.map((s) => [s.position + 1, s]));
  const timeZone = deps.timeZone ?? DEFAULT_TIME_ZONE;
  const stamps = places.flatMap((place): Stamp[] => {
    const signer = byPosition.get(place.recipient);
    if (!signer?.signed_at) return [];
    return [{ place: markArea(place), ...stampContent(place.kind, signer, language, timeZone) }];
  });
  stampPlaces(pdf, stamps);
  appendAuditTrail(pdf, audit, language, timeZone);
  const sealer = typeof deps.sealer === 'function' ? await deps.sealer() : deps.sealer;
  return sealPdf(pdf, sealer, {
    ...(deps.tsaUrl ? { tsaUrl: deps.tsaUrl } : {}),
    reason: language === 'da' ? 'Underskrevet af alle underskrivere' : 'Signed by every signer',
    signingTime,
  });
}

/**
 * Where in a place the mark is drawn. An anchor's place is its marker's glyph box, whose top
 * fifth is room the line above may use for its descenders; a signature drawn to the full height
 * would touch that line. So a `sign` mark keeps to the lower four fifths, standing on the line.
 */
function markArea(place: SignaturePlace): SignaturePlace {
  if (place.kind !== 'sign') return place;
  return { ...place, rect: { ...place.rect, height: place.rect.height * 0.8 } };
}

/** What is drawn at a place of `kind` for a signer who has signed. */
function stampContent(
  kind: SignaturePlace['kind'],
  signer: SignerRow,
  language: 'da' | 'en',
  timeZone: string,
): { png?: Uint8Array; text?: string } {
  switch (kind) {
    case 'sign':
      if (signer.image) return { png: signer.image };
      return { text: signer.typed_name ?? signer.name };
    case 'name':
      return { text: signer.name };
    case 'initials':
      return { text: initialsOf(signer.name) };
    case 'date':
      // The day in the installation's zone, as the e-mails and the signing page write a date.
      return { text: writtenDate(signer.signed_at!, language, timeZone) };
  }
}

function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((part) => Array.from(part)[0]!.toUpperCase())
    .join('');
}

function auditMethod(method: string, identity: unknown): AuditRecipient['method'] {
  if (method === 'draw') return { kind: 'draw' };
  if (method === 'typed') return { kind: 'typed' };
  const claims = (identity as { claims?: Record<string, unknown> } | null)?.claims ?? {};
  return {
    kind: 'eid',
    scheme: method,
    claims: Object.entries(claims)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      .map(([name, v]) => ({ name, value: String(v) })),
  };
}

function placesOf(stored: unknown): SignaturePlace[] {
  return Array.isArray(stored) ? (stored as SignaturePlace[]) : [];
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The evidence the case service kept at creation (an object), or nothing to merge into. */
function storedEvidence(value: unknown): Record<string, unknown> {
  const parsed: unknown = typeof value === 'string' ? safeParse(value) : value;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
