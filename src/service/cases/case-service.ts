import type { Kysely } from 'kysely';
import type { DocumentLibrary } from '../../document/library/index.js';
import type { DocpipeClient } from '../../jobs/queue/index.js';
import type { Storage } from '../../render/storage/index.js';
import type { Database } from '../db/index.js';
import type { CaseAnswer, CaseNotice, CasePage, CaseState, CaseView } from './case-answer.js';
import type { CaseInput } from './case-input.js';

/** Who creates the case: the verified API key (service/keys' KeyIdentity fits). */
export interface CaseCreator {
  /** The key's id, written into the case's first event. */
  id: string;
  /** The key's user: the sender when the body names none. Absent for a key copied from Redis. */
  userId?: string;
}

export interface CreateCaseOptions {
  /** This service's public base URL: signing links (without a signing domain) and logo URLs. */
  publicUrl: string;
  /** The clock. @defaultValue new Date() */
  now?: Date;
  /** The HTTP request's id, carried into the render jobs' log lines. */
  requestId?: string;
  /** Aborts waiting for the documents (the caller went away, the route's deadline). */
  signal?: AbortSignal;
}

export interface CreatedCase {
  case: CaseAnswer;
  /** The same notices as `case.notices` (empty when none). */
  notices: CaseNotice[];
}

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
  client: Pick<DocpipeClient, 'renderDocumentSet'>;
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
   * The eID schemes this installation serves (through an OIDC broker). None yet: a case that
   * names no scheme uses `draw`, and one that names an eID scheme is refused.
   * @defaultValue []
   */
  eidSchemes?: readonly string[];
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
  createCase(
    company: string,
    creator: CaseCreator,
    body: CaseInput,
    options: CreateCaseOptions,
  ): Promise<CreatedCase> {
    void [company, creator, body, options, this.deps];
    return Promise.reject(new Error('CaseService.createCase: being built'));
  }

  /** The company's case; `case-not-found` (404) when absent or another company's. */
  getCase(company: string, id: string): Promise<CaseView> {
    void [company, id];
    return Promise.reject(new Error('CaseService.getCase: being built'));
  }

  /**
   * A page of the company's cases, newest first. `validation-failed` at `cursor` for a cursor
   * this service did not give.
   */
  listCases(company: string, filters: CaseListFilters, page: CasePageRequest): Promise<CasePage> {
    void [company, filters, page];
    return Promise.reject(new Error('CaseService.listCases: being built'));
  }
}
