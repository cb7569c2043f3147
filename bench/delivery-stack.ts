/**
 * The stack the delivery benchmark (bench/delivery.ts) measures, on real parts: an embedded
 * PostgreSQL and a private Redis (as the case benchmarks start them), the worker's delivery
 * (startDelivery: outbox relay, events worker, webhook worker, messages) in this process, cases
 * made by the real CaseService (documents by URL: nothing is rendered) with one e-mail recipient
 * each, whose invitation goes to the .eml file channel (no SMTP), and a webhook for
 * `case.created` registered with WebhookRepository, pointing at a receiver in a process of its
 * own (bench/delivery-receiver.ts) on 127.0.0.1.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { Kysely, Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { RunningDelivery } from '../src/app/wiring/delivery.js';
import { silentLogger } from '../src/base/log/index.js';
import { FolderLibrary } from '../src/document/library/index.js';
import { EmbeddedPostgres, openDatabase } from '../src/platform/postgres/index.js';
import { EmbeddedRedis, createRedis } from '../src/platform/redis/index.js';
import { LocalStorage } from '../src/render/storage/index.js';
import { CaseService, signingTokenFor, type CaseInput } from '../src/service/cases/index.js';
import { CompanyRepository, UserRepository } from '../src/service/companies/index.js';
import { migrateDatabase, type Database } from '../src/service/db/index.js';
import { DeliveryWorker } from '../src/service/delivery/index.js';
import { DEFAULT_MAIL_FROM, messageChannels } from '../src/service/messages/index.js';
import {
  DEFAULT_DELIVERY_BATCH,
  DEFAULT_WEBHOOK_SETTINGS,
  WebhookQueue,
  WebhookWorker,
  dispatchEvent,
  DELIVERY_HEADER,
  WebhookRepository,
} from '../src/service/webhooks/index.js';
import { childPids } from './cases-stack.js';
import type { ReceiverCommand, ReceiverMessage, ReceiverSummary } from './delivery-receiver.js';

const COMPANY = 'bench';
const PUBLIC = 'http://docpipe.bench';
const SECRET = 'a-benchmark-signing-secret-32chars';
/** The queues' Redis prefix, as a deployment's default. */
export const DELIVERY_PREFIX = 'docpipe';

/** Wall time in ms with sub-millisecond precision, comparable with the receiver's. */
export const wall = () => performance.timeOrigin + performance.now();

/** The receiver process, driven over IPC. */
export class ReceiverProcess {
  private token = 0;
  private readonly pending = new Map<number, (m: ReceiverMessage) => void>();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.on('message', (m: ReceiverMessage) => {
      if (!('token' in m)) return;
      const resolve = this.pending.get(m.token);
      this.pending.delete(m.token);
      resolve?.(m);
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  static async start(): Promise<ReceiverProcess> {
    const script = fileURLToPath(new URL('./delivery-receiver.js', import.meta.url));
    const child = fork(script, [], {
      env: { ...process.env, RECEIVER_DELIVERY_HEADER: DELIVERY_HEADER },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`the receiver ended (${code})`)));
      child.on('message', (m: ReceiverMessage) => {
        if (m.type === 'listening') resolve(m.url);
      });
    });
    return new ReceiverProcess(child, url);
  }

  private ask<T extends ReceiverMessage>(
    make: (token: number) => ReceiverCommand,
    timeoutMs = 600_000,
  ): Promise<T> {
    const token = ++this.token;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(new Error(`the receiver did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(token, (m) => {
        clearTimeout(timer);
        resolve(m as T);
      });
      this.child.send(make(token));
    });
  }

  /** The status every request is answered with from now on. */
  answer(status: number): void {
    this.child.send({ type: 'answer', status } satisfies ReceiverCommand);
  }

  reset(): void {
    this.child.send({ type: 'reset' } satisfies ReceiverCommand);
  }

  /** When the `count`th distinct case was answered 2xx (wall ms). */
  async delivered(count: number, timeoutMs?: number): Promise<number> {
    const m = await this.ask<Extract<ReceiverMessage, { type: 'delivered' }>>(
      (token) => ({ type: 'waitDelivered', count, token }),
      timeoutMs,
    );
    return m.at;
  }

  /** When `caseId`'s delivery was answered 2xx (wall ms). */
  async arrived(caseId: string, timeoutMs?: number): Promise<number> {
    const m = await this.ask<Extract<ReceiverMessage, { type: 'case' }>>(
      (token) => ({ type: 'waitCase', caseId, token }),
      timeoutMs,
    );
    return m.at;
  }

  /** When each case delivered since the last reset was first answered 2xx (wall ms). */
  async arrivals(): Promise<number[]> {
    const m = await this.ask<Extract<ReceiverMessage, { type: 'arrivals' }>>((token) => ({
      type: 'arrivals',
      token,
    }));
    return m.at;
  }

  async summary(): Promise<ReceiverSummary> {
    const m = await this.ask<Extract<ReceiverMessage, { type: 'summary' }>>((token) => ({
      type: 'summary',
      token,
    }));
    return m.summary;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** A row read back, to be written again: its JSON columns as JSON text (pg writes arrays as SQL arrays). */
function asRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      v !== null && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v)
        ? JSON.stringify(v)
        : v,
    ]),
  );
}

/** The rows of the case copyCases copies. */
interface CaseCopySource {
  caseRow: Selectable<Database['cases']>;
  recipientRows: Selectable<Database['recipients']>[];
  documentRows: Selectable<Database['case_documents']>[];
  eventRow: Selectable<Database['case_events']>;
}

export interface DeliveryStackOptions {
  /** DOCPIPE_WEBHOOK_BACKOFF of the webhooks. */
  backoffMs: number;
}

export class DeliveryStack {
  private delivery: RunningDelivery | undefined;
  private serial = 0;

  private constructor(
    private readonly work: string,
    readonly db: Kysely<Database>,
    readonly databaseUrl: string,
    readonly redis: EmbeddedRedis,
    readonly postgres: EmbeddedPostgres,
    readonly receiver: ReceiverProcess,
    readonly cases: CaseService,
    private readonly userId: string,
    private readonly storage: LocalStorage,
    private readonly options: DeliveryStackOptions,
  ) {}

  static async start(root: string, options: DeliveryStackOptions): Promise<DeliveryStack> {
    const work = mkdtempSync(join(tmpdir(), 'docpipe-bench-delivery-'));
    // PostgreSQL runs as its own user (root here): it must pass through the folder to its own.
    chmodSync(work, 0o711);
    const stops: (() => Promise<unknown>)[] = [];
    try {
      const redis = await EmbeddedRedis.start({ dir: join(work, 'redis') });
      stops.push(() => redis.stop());
      const postgres = await EmbeddedPostgres.start({ dir: join(work, 'postgres') });
      stops.push(() => postgres.stop());
      const db = openDatabase<Database>(postgres.url);
      stops.push(() => db.destroy());
      await migrateDatabase(db);
      await new CompanyRepository(db).create({ id: COMPANY, name: 'Bench', defaultLanguage: 'en' });
      const user = await new UserRepository(db).add(COMPANY, {
        email: 'owner@bench.example',
        name: 'Bench Owner',
      });
      const receiver = await ReceiverProcess.start();
      stops.push(() => receiver.stop());
      await new WebhookRepository(db).add(COMPANY, {
        url: `${receiver.url}/hook`,
        triggers: ['case.created'],
      });
      const storage = new LocalStorage(join(work, 'storage'));
      const cases = new CaseService({
        db,
        client: {
          renderDocumentSet: () => Promise.reject(new Error('documents by URL render nothing')),
          render: () => Promise.reject(new Error('documents by URL render nothing')),
        },
        storage,
        library: new FolderLibrary(join(root, 'templates')),
        documentUrl: (key) => `${PUBLIC}/files/${key}`,
        signingSecret: SECRET,
        // No `delivery`: the case's event reaches delivery through the outbox relay alone, as
        // every event but the create answer's first attempt does.
      });
      return new DeliveryStack(
        work,
        db,
        postgres.url,
        redis,
        postgres,
        receiver,
        cases,
        user.id,
        storage,
        options,
      );
    } catch (err) {
      for (const s of stops.reverse()) await s().catch(() => undefined);
      rmSync(work, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * The worker's delivery in this process, as `docpipe worker` runs it (startDelivery's parts:
   * message channels, webhook worker with its retry queue, delivery worker), with `batchSize`
   * (DOCPIPE_DELIVERY_BATCH) handed to the events worker as well as to the webhooks: startDelivery
   * gives the events worker its default until the wiring passes the setting on.
   */
  async startDelivery(batchSize = DEFAULT_DELIVERY_BATCH): Promise<void> {
    if (this.delivery) return;
    const logger = silentLogger;
    const now = () => new Date();
    const channels = messageChannels(
      {
        email: { kind: 'file', dir: join(this.work, 'mail') },
        from: DEFAULT_MAIL_FROM,
        attachMaxBytes: 0,
        timeZone: 'Europe/Copenhagen',
        timeoutMs: 10_000,
      },
      logger,
    );
    const settings = {
      ...DEFAULT_WEBHOOK_SETTINGS,
      allowPrivate: true,
      backoffMs: this.options.backoffMs,
      batchSize,
    };
    const connection = createRedis(this.redis.url, 'worker');
    const retries = new WebhookQueue(connection, DELIVERY_PREFIX);
    const webhookDeps = { db: this.db, settings, logger, now };
    const webhookWorker = await WebhookWorker.start({
      redisUrl: this.redis.url,
      prefix: DELIVERY_PREFIX,
      deps: webhookDeps,
    });
    const worker = await DeliveryWorker.start({
      redisUrl: this.redis.url,
      prefix: DELIVERY_PREFIX,
      databaseUrl: this.databaseUrl,
      batchSize,
      deps: {
        db: this.db,
        channels,
        signingSecret: SECRET,
        publicUrl: () => PUBLIC,
        documentUrl: (key) => `${PUBLIC}/files/${key}`,
        storage: this.storage,
        logger,
        now,
        webhooks: {
          dispatch: async (event) =>
            (await dispatchEvent({ ...webhookDeps, retries }, event)).result,
        },
      },
    });
    this.delivery = {
      worker,
      async close() {
        await worker.close();
        await webhookWorker.close();
        await retries.close();
        connection.disconnect();
        await channels.close();
      },
    };
  }

  private template: CaseCopySource | undefined;

  /**
   * The case copyCases copies, made by the CaseService (its own event is delivered as any): made
   * on the first call, read back whole.
   */
  async copySource(): Promise<string> {
    if (this.template) return this.template.caseRow.id;
    const id = await this.createCase();
    const [caseRow, recipientRows, documentRows, eventRow] = await Promise.all([
      this.db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      this.db.selectFrom('recipients').selectAll().where('case_id', '=', id).execute(),
      this.db.selectFrom('case_documents').selectAll().where('case_id', '=', id).execute(),
      this.db
        .selectFrom('case_events')
        .selectAll()
        .where('case_id', '=', id)
        .executeTakeFirstOrThrow(),
    ]);
    this.template = { caseRow, recipientRows, documentRows, eventRow };
    return id;
  }

  /**
   * `count` cases with their `case.created` events, committed at once (one transaction: the
   * relay sees them as one backlog), copied by SQL from copySource's case with ids, recipients,
   * signing token hashes and event payloads of their own: thousands in seconds, where the
   * CaseService makes about a hundred a second here. Each copy is delivered and invited as a
   * made one is.
   */
  async copyCases(count: number): Promise<void> {
    if (count <= 0) return;
    await this.copySource();
    const { caseRow, recipientRows, documentRows, eventRow } = this.template!;
    const templateId = caseRow.id;
    const payload = JSON.stringify(eventRow.payload);
    const CHUNK = 250;
    await this.db.transaction().execute(async (trx) => {
      for (let done = 0; done < count; done += CHUNK) {
        const n = Math.min(CHUNK, count - done);
        const copies = Array.from({ length: n }, () => ({
          caseId: randomUUID(),
          recipients: recipientRows.map((r) => ({ from: r.id, id: randomUUID() })),
        }));
        await trx
          .insertInto('cases')
          .values(copies.map((c) => asRow({ ...caseRow, id: c.caseId })) as never)
          .execute();
        await trx
          .insertInto('recipients')
          .values(
            copies.flatMap((c) =>
              recipientRows.map((r, i) =>
                asRow({
                  ...r,
                  id: c.recipients[i]!.id,
                  case_id: c.caseId,
                  signing_token_hash: signingTokenFor(SECRET, c.recipients[i]!.id).hash,
                }),
              ),
            ) as never,
          )
          .execute();
        if (documentRows.length > 0)
          await trx
            .insertInto('case_documents')
            .values(
              copies.flatMap((c) =>
                documentRows.map((d) => asRow({ ...d, case_id: c.caseId })),
              ) as never,
            )
            .execute();
        await trx
          .insertInto('case_events')
          .values(
            copies.map((c) => {
              // The payload names the copy and its people, as the copy's own event would.
              let text = payload.replaceAll(templateId, c.caseId);
              for (const r of c.recipients) text = text.replaceAll(r.from, r.id);
              return {
                company_id: eventRow.company_id,
                case_id: c.caseId,
                trigger: eventRow.trigger,
                payload: text,
                created_at: new Date(),
              };
            }),
          )
          .execute();
      }
    });
  }

  async stopDelivery(): Promise<void> {
    const d = this.delivery;
    this.delivery = undefined;
    await d?.close();
  }

  /** One case, committed with its `case.created` event; its id. */
  async createCase(): Promise<string> {
    const n = this.serial++;
    const body: CaseInput = {
      title: `Lease ${n}`,
      recipients: [{ name: `Tenant ${n}`, email: `tenant-${n}@example.com` }],
      documents: [{ name: 'lease', url: 'https://files.example.com/lease.pdf' }],
      settings: { signingSchemas: ['draw'] },
    };
    const { case: made } = await this.cases.createCase(
      COMPANY,
      { id: 'bench-key', userId: this.userId },
      body,
      { publicUrl: PUBLIC },
    );
    return made.id;
  }

  /**
   * `count` cases, `concurrency` at once: when the first and the last commit returned (wall ms).
   */
  async createCases(count: number, concurrency: number): Promise<{ first: number; last: number }> {
    let next = 0;
    let first = 0;
    let last = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) {
          next++;
          await this.createCase();
          last = wall();
          if (first === 0) first = last;
        }
      }),
    );
    return { first, last };
  }

  /** The processes whose memory and CPU are read: this one, PostgreSQL's, Redis, the receiver. */
  postgresPids(): number[] {
    const postmaster = this.postgres.pid!;
    return [postmaster, ...childPids(postmaster)];
  }

  async stop(): Promise<void> {
    await this.stopDelivery().catch(() => undefined);
    await this.receiver.stop().catch(() => undefined);
    await this.db.destroy().catch(() => undefined);
    await this.postgres.stop().catch(() => undefined);
    await this.redis.stop().catch(() => undefined);
    rmSync(this.work, { recursive: true, force: true });
  }
}
