import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DocpipeError } from '../../base/errors/index.js';
import type { DocumentLibrary } from '../../document/library/index.js';
import type { DocpipeClient } from '../../jobs/queue/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../db/index.js';
import type {
  CaseAnswer,
  CaseNotice,
  CasePage,
  CaseState,
  CaseView,
  Delivery,
} from './case-answer.js';
import {
  V3_POLICY,
  type CaseCreator,
  type CreateCaseOptions,
  type CreatedCase,
  type KeyCreator,
} from './case-create-options.js';
import { CASE_CREATED, CASE_SENT, DEFAULT_GROUP, DEFAULT_LANGUAGE } from './case-defaults.js';
import { sendDraft } from './send-draft.js';
import { saveContacts } from './case-contacts.js';
import { firstReminderAt } from './reminder-schedule.js';
import { produceDocuments } from './case-documents.js';
import type { CaseInput, RecipientInput } from './case-input.js';
import { listCases, pdfName, readCase } from './case-reads.js';
import { resolveReferences } from './case-references.js';
import { checkNeedsCpr } from './needs-cpr-check.js';
import { writeCase, type NewRecipient } from './case-writer.js';
import { caseExpiry } from './case-expiry.js';
import { deliveryReport } from './delivery.js';
import { newRecipientUid, newSigningToken, signingTokenFor, signingUrl } from './signing-token.js';
import type { V2CaseOne, V2CaseSummary, V2CreatedCase } from './v2-case-answer.js';
import { createV2Case, type CreateV2CaseOptions } from './v2-case-create.js';
import type { CprCipher } from '../cpr/index.js';
import {
  deleteV2Case,
  getV2Case,
  getV2Cases,
  listV2Cases,
  type V2DeleteResult,
  type V2ListQuery,
} from './v2-case-reads.js';

export {
  V3_POLICY,
  type CaseCreator,
  type KeyCreator,
  type CasePolicy,
  type CreateCaseOptions,
  type CreatedCase,
} from './case-create-options.js';

export interface CaseListFilters {
  state?: CaseState;
  /** A folder's id or name; one the company does not have lists nothing. */
  folder?: string;
  referenceId?: string;
  /** Cases created at or after this moment. */
  createdAfter?: Date;
}

export interface CasePageRequest {
  /** The `nextCursor` of the previous page; absent: the first page. */
  cursor?: string;
  /** @defaultValue 100 */
  limit?: number;
}

export interface CaseServiceDeps {
  db: Kysely<Database>;
  /** The queue's producer: every document of a case is rendered as one document set. */
  client: Pick<DocpipeClient, 'render' | 'renderDocumentSet'>;
  /** Where rendered PDFs are, and where a case's own copies are kept. */
  storage: Storage;
  /** The document library, for `documentId` + `versionId`. */
  library: DocumentLibrary;
  /**
   * The download URL of a case document's stored PDF, named `name` (the convert surface's
   * renderUrlSigner or documentDownloadUrl fits).
   */
  documentUrl: (key: string, name: string) => string | Promise<string>;
  /**
   * The eID schemes this installation serves (its configured OIDC brokers, service/eid): a case
   * may name only these and `draw`, and one that names none uses them (or `draw` without any).
   * @defaultValue []
   */
  eidSchemes?: readonly string[];
  /**
   * The eID schemes whose broker gives the signer's CPR number (service/eid's cprSchemes): a
   * `needsCpr` recipient must have one of them. @defaultValue []
   */
  cprSchemes?: readonly string[];
  /**
   * Encrypts the CPR numbers v2 bodies carry (service/cpr); absent: such a body is
   * CprKeyMissingError, and nothing is created.
   */
  cprCipher?: Pick<CprCipher, 'encrypt'>;
  /**
   * The installation's signing secret: each recipient's token is derived from it and the
   * recipient's id (signingTokenFor), so that delivery can write the link into invitations and
   * reminders. Absent (tests of creation alone): random tokens, whose links nothing can rebuild.
   */
  signingSecret?: string;
  /**
   * Delivery of a case's `case.created` event (service/delivery): its first attempt over each
   * channel is the answer's `delivery`. Absent: nothing is sent, and `delivery` says so.
   */
  delivery?: CaseDelivery;
  /**
   * What a sent case costs (service/credits): `perCase` credits, taken in the case's own
   * transaction when it is created open or a draft is sent, and `afterUse`, run after the commit
   * (auto-refill), whose failure fails no case. Absent: cases cost nothing.
   */
  credits?: CaseCredits;
}

/** What a sent case costs, and what follows its charge. */
export interface CaseCredits {
  perCase: bigint;
  afterUse?: (company: string) => Promise<unknown>;
}

/** What case creation asks of delivery: the first delivery of a case's event. */
export interface CaseDelivery {
  /**
   * Hands the event to delivery at once (the outbox relay would, a moment later) and answers
   * its first attempt over each channel; a channel still at work when the wait ends says so.
   */
  firstDelivery(event: {
    eventId: string;
    company: string;
    caseId: string;
    trigger: string;
  }): Promise<Delivery>;
}

/**
 * The v3 cases (spec 2.2, 4.4), over PostgreSQL: create, read, list. Every query names the
 * company. Failures are DocpipeError (registry slugs, details with field paths); one exception
 * to the registry's statuses: `document-not-found` raised by `createCase` is the spec's 400 (the
 * route answers it so), not the documents endpoints' 404.
 */
export class CaseService {
  constructor(private readonly deps: CaseServiceDeps) {}

  /**
   * Creates a case after its body passed the structural check (rule 1): references (rule 2),
   * then every document through the pipeline at once (rule 3), then one transaction writes the
   * case, its recipients, documents and `case.created` event (rule 4). Any failure leaves no row
   * and no stored document of its own.
   */
  async createCase(
    company: string,
    creator: CaseCreator,
    body: CaseInput,
    options: CreateCaseOptions,
  ): Promise<CreatedCase> {
    const caseId = randomUUID();
    const { now, policy, refs, expiry, produced } = await this.prepare(
      company,
      creator,
      body,
      options,
      caseId,
      options.problems ?? 'first',
    );
    const notices: CaseNotice[] = [...refs.notices, ...produced.notices];
    const eventId = randomUUID();
    try {
      const state: CaseState = body.state === 'draft' ? 'draft' : 'open';
      const links: string[] = [];
      const recipients: NewRecipient[] = (body.recipients ?? []).map((r, position) => {
        const id = randomUUID();
        const secret = this.deps.signingSecret;
        const { token, hash } = secret ? signingTokenFor(secret, id) : newSigningToken();
        links.push(signingUrl(refs.company.signingDomain, options.publicUrl, token));
        return {
          id,
          uid: newRecipientUid(),
          position,
          name: r.name,
          email: r.email ?? null,
          phone: r.phone ?? null,
          type: recipientType(r.type),
          signing: r.signing ?? policy.defaultSigning,
          group: r.group ?? DEFAULT_GROUP,
          messageTemplateId: r.messageTemplateId ?? null,
          details: recipientDetails(r),
          tokenHash: hash,
          cprEncrypted: options.encryptedCprs?.[position] ?? null,
        };
      });
      const signers = recipients.filter((r) => r.signing).map((r) => r.group);
      const activeGroup = signers.length > 0 ? Math.min(...signers) : null;
      const { expiresInDays } = expiry;
      const language =
        refs.settings.language ??
        (policy.defaultLanguage === 'company' ? refs.company.defaultLanguage : undefined) ??
        DEFAULT_LANGUAGE;
      const settings = {
        ...policy.keptSettings,
        ...refs.settings,
        expiresInDays,
        ...(policy.expiresAt !== undefined ? { expiresAt: expiry.expiresAt.toISOString() } : {}),
        language,
        signingSchemas: refs.signingSchemas,
      };
      await writeCase(this.deps.db, {
        company,
        id: caseId,
        title: body.title,
        state,
        folder: { id: refs.folder.id, name: refs.folder.name },
        referenceId: body.referenceId ?? null,
        settings,
        language,
        signingSchemas: refs.signingSchemas,
        messageTemplateId: body.messageTemplateId ?? null,
        expiresAt: expiry.expiresAt,
        nextReminderAt: state === 'open' ? firstReminderAt(now, refs.settings.reminders) : null,
        eventId,
        activeGroup,
        sender: {
          id: refs.sender.id,
          name: policy.senderAs?.name ?? refs.sender.name,
          email: policy.senderAs?.email ?? refs.sender.email,
        },
        createdByKey: creator.id ?? null,
        // A key's case is the key's; a member's (the dashboard, no key) is the member's.
        createdByUser: creator.id === undefined ? (creator.userId ?? null) : null,
        source: options.source ?? 'v3',
        now,
        recipients,
        documents: produced.documents,
        credits: this.deps.credits?.perCase ?? 0n,
      });
      if (state === 'open') this.afterCharge(company);
      const documents = await Promise.all(
        produced.documents.map(async (d) => ({
          url: d.storageKey ? await this.deps.documentUrl(d.storageKey, pdfName(d.name)) : d.url!,
        })),
      );
      // After the commit, apart from it: neither can fail the case (spec 4.4, rules 4 and 6).
      const [delivery, contactNotices] = await Promise.all([
        this.deps.delivery
          ? this.deps.delivery.firstDelivery({ eventId, company, caseId, trigger: CASE_CREATED })
          : deliveryReport(state),
        saveContacts(this.deps.db, company, recipients, now),
      ]);
      notices.push(...contactNotices);
      const answer: CaseAnswer = {
        id: caseId,
        recipients: recipients.map((r, i) => ({
          id: r.id,
          uid: r.uid,
          signingUrl: links[i]!,
          status: 'pending',
        })),
        documents,
        activeGroup,
        delivery,
        ...(notices.length > 0 ? { notices } : {}),
      };
      return { case: answer, notices };
    } catch (err) {
      // Nothing was written (one transaction), or the answer could not be built after it was:
      // then the case exists, and its documents stay with it.
      if (!(await this.exists(company, caseId))) await produced.discard();
      throw err;
    }
  }

  /**
   * Every refusal `createCase` could give `body` (rules 2 and 3), all at once, and nothing
   * created: createCase stops at the first rule that fails, as spec 4.4 orders it for the API,
   * while a form shows every problem by its field in one pass (the dashboard's New case). The
   * documents go through the pipeline and are discarded. Resolves when createCase would take it.
   */
  async checkCase(
    company: string,
    creator: CaseCreator,
    body: CaseInput,
    options: CreateCaseOptions,
  ): Promise<void> {
    const { produced } = await this.prepare(company, creator, body, options, randomUUID(), 'all');
    await produced.discard();
  }

  /**
   * Rules 2 and 3 of createCase: references, needsCpr, expiry, then the documents. `first`
   * throws the first rule's failure before the next one runs (no document is rendered for a
   * body whose references fail); `all` runs every rule and throws their problems together, the
   * first one's slug with every detail. The same rules either way: checkCase is createCase
   * without the write.
   */
  private async prepare(
    company: string,
    creator: CaseCreator,
    body: CaseInput,
    options: CreateCaseOptions,
    caseId: string,
    mode: 'first' | 'all',
  ) {
    const now = options.now ?? new Date();
    const policy = options.policy ?? V3_POLICY;
    const failures: DocpipeError[] = [];
    const attempt = async <T>(step: () => T | Promise<T>): Promise<T | undefined> => {
      try {
        return await step();
      } catch (err) {
        if (mode === 'first' || !(err instanceof DocpipeError)) throw err;
        failures.push(err);
        return undefined;
      }
    };
    const refs = await attempt(() =>
      resolveReferences(this.deps.db, body, {
        company,
        ...(creator.userId !== undefined ? { keyUserId: creator.userId } : {}),
        publicUrl: options.publicUrl,
        eidSchemes: this.deps.eidSchemes ?? [],
        unknownFolderToDefault: policy.unknownFolder === 'default-folder',
        unknownSenderEmailToKeyUser: policy.unknownSenderEmail === 'key-user',
      }),
    );
    if (refs)
      await attempt(() =>
        checkNeedsCpr(body.recipients, {
          signingSchemas: refs.signingSchemas,
          cprSchemes: this.deps.cprSchemes ?? [],
          ...(options.encryptedCprs ? { encryptedCprs: options.encryptedCprs } : {}),
          defaultSigning: policy.defaultSigning,
        }),
      );
    // Before any document is rendered: a past expiry is the request's mistake, like the above.
    const expiry = await attempt(() =>
      caseExpiry(
        {
          ...(refs?.settings ?? body.settings ?? {}),
          ...(policy.expiresAt !== undefined ? { expiresAt: policy.expiresAt } : {}),
        },
        policy.defaultExpiresInDays,
        now,
      ),
    );
    const produced = await attempt(() =>
      produceDocuments(body, {
        company,
        caseId,
        client: this.deps.client,
        storage: this.deps.storage,
        library: this.deps.library,
        publicUrl: options.publicUrl,
        ...(this.deps.signingSecret !== undefined
          ? { signingSecret: this.deps.signingSecret }
          : {}),
        now,
        request: {
          company,
          ...(options.requestId !== undefined ? { requestId: options.requestId } : {}),
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
        },
      }),
    );
    if (failures.length > 0 || !refs || !expiry || !produced) {
      await produced?.discard();
      throw new DocpipeError(
        failures[0]!.slug,
        failures.flatMap((f) => f.details),
        failures.some((f) => f.retryable) ? { retryable: true } : undefined,
      );
    }
    return { now, policy, refs, expiry, produced };
  }

  /**
   * Sends a draft (send-draft.ts): it becomes open, and its first group is invited; the answer's
   * `delivery` is the first attempt, as at creation.
   */
  async sendCase(
    company: string,
    id: string,
    options: { now?: Date } = {},
  ): Promise<{
    case: { id: string; state: 'open'; activeGroup: number | null; delivery: Delivery };
  }> {
    const eventId = randomUUID();
    const sent = await sendDraft(
      this.deps.db,
      company,
      id,
      eventId,
      options.now ?? new Date(),
      this.deps.credits?.perCase ?? 0n,
    );
    this.afterCharge(company);
    const delivery = this.deps.delivery
      ? await this.deps.delivery.firstDelivery({ eventId, company, caseId: id, trigger: CASE_SENT })
      : deliveryReport('open');
    return { case: { id, state: 'open', activeGroup: sent.activeGroup, delivery } };
  }

  /**
   * Auto-refill after a case took its credits, apart from the case: it neither waits for the
   * purchase nor fails with it (afterUse logs its own failures).
   */
  private afterCharge(company: string): void {
    const credits = this.deps.credits;
    if (!credits?.afterUse || credits.perCase <= 0n) return;
    credits.afterUse(company).catch(() => undefined);
  }

  /** The company's case; `case-not-found` (404) when absent or another company's. */
  getCase(company: string, id: string): Promise<CaseView> {
    return readCase(this.deps.db, company, id, this.deps.documentUrl);
  }

  /**
   * A page of the company's cases, newest first. `validation-failed` at `cursor` for a cursor
   * this service did not give, at `limit` outside 1 to 1000.
   */
  listCases(company: string, filters: CaseListFilters, page: CasePageRequest): Promise<CasePage> {
    return listCases(this.deps.db, company, { ...filters, ...page });
  }

  /**
   * A case from a v2 body (spec 4.2, 9; form submit too): the v2 check and mapping
   * (v2-case-create.ts), then createCase under v2's policy. Failures name the v2 members.
   */
  createV2Case(
    company: string,
    creator: KeyCreator,
    body: unknown,
    options: CreateV2CaseOptions,
  ): Promise<V2CreatedCase> {
    return createV2Case(this, company, creator, body, {
      ...(this.deps.cprCipher ? { cprCipher: this.deps.cprCipher } : {}),
      ...options,
    });
  }

  /** v2's list (spec 4.2): status, folder, `limit` and the page `index`. */
  listV2Cases(company: string, query: V2ListQuery): Promise<V2CaseSummary[]> {
    return listV2Cases(this.deps.db, company, query);
  }

  /** v2's read of several cases by id; the company's only, in the order asked. */
  getV2Cases(company: string, ids: readonly string[]): Promise<V2CaseSummary[]> {
    return getV2Cases(this.deps.db, company, ids);
  }

  /** v2's read of one case; undefined when absent or another company's. */
  getV2Case(company: string, id: string): Promise<V2CaseOne | undefined> {
    return getV2Case(this.deps.db, company, id);
  }

  /** Deletes the company's case, its rows and its stored PDFs (v2's delete); 0 when not found. */
  deleteCase(company: string, id: string): Promise<V2DeleteResult> {
    return deleteV2Case(this.deps.db, this.deps.storage, company, id);
  }

  private async exists(company: string, id: string): Promise<boolean> {
    const row = await this.deps.db
      .selectFrom('cases')
      .select('id')
      .where('company_id', '=', company)
      .where('id', '=', id)
      .executeTakeFirst()
      .catch(() => undefined);
    return row !== undefined;
  }
}

function recipientType(type: string | undefined): NewRecipient['type'] {
  return type === 'sms' || type === 'eboks' ? type : 'email';
}

/** The v2 recipient fields v3 keeps, as given: kept with the recipient, never answered in create. */
function recipientDetails(r: RecipientInput): Record<string, unknown> {
  const { name, email, phone, type, signing, group, messageTemplateId, ...rest } = r;
  void [name, email, phone, type, signing, group, messageTemplateId];
  return rest;
}
