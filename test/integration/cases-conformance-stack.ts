import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { onTestFinished } from 'vitest';
import { loadConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import type { DocpipeClient } from '../../src/jobs/queue/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import {
  CompanyRepository,
  FolderRepository,
  MessageTemplateRepository,
  PresetRepository,
  UserRepository,
} from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { buildDocx, para } from '../helpers/docx-builder.js';
import type { WrittenProbe } from '../helpers/nothing-written.js';
import { testDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startQueueStack, type QueueStack } from '../helpers/queue-stack.js';

/**
 * The one stack a cases conformance file shares (real PostgreSQL, Redis, LibreOffice): two
 * companies with their records and keys, and a library of the project's lease and welcome
 * letter beside a document whose document.json is broken. Each test asks for the server as
 * `docpipe serve` composes it, on a worker lane of its own.
 */

/** Where the server issues its URLs; nothing listens there (the tests inject). */
export const PUBLIC_URL = 'http://127.0.0.1:9';
/** Large enough for a few base64 documents in one case body. */
export const BODY_LIMIT = 8 * 1024 * 1024;

/** A company of the stack, with everything of its own a case can name. */
export interface StackCompany {
  id: string;
  key: string;
  /** The key's user: the sender when a body names none. */
  owner: { id: string; email: string };
  /** Another member. */
  member: { id: string; email: string };
  folder: { id: string; name: string };
  presetId: string;
  templateId: string;
}

export interface ConformanceStack {
  stack: QueueStack;
  t: TestDatabase;
  keys: KeyStore;
  /** The templates folder the server's library reads (DOCPIPE_TEMPLATES_DIR). */
  libraryDir: string;
  /** `sign.acme.example`, English by default. */
  acme: StackCompany;
  /** No signing domain, no default language. */
  globex: StackCompany;
  /** What nothing-written.ts reads for `company`. */
  probe(company: StackCompany): WrittenProbe;
  close(): Promise<void>;
}

/** A library document of the stack whose document.json names a member docpipe does not know. */
export const BROKEN_DOCUMENT = 'broken-settings';

export async function startConformanceStack(
  options: { library?: (dir: string) => void } = {},
): Promise<ConformanceStack> {
  const [stack, t] = await Promise.all([startQueueStack(), testDatabase()]);
  const libraryDir = mkdtempSync(join(tmpdir(), 'cases-conformance-library-'));
  for (const id of ['lease', 'welcome-letter'])
    cpSync(join(projectRoot(), 'templates', id), join(libraryDir, id), { recursive: true });
  mkdirSync(join(libraryDir, BROKEN_DOCUMENT));
  writeFileSync(
    join(libraryDir, BROKEN_DOCUMENT, 'document.json'),
    '{"name": "Broken settings", "timezone": "UTC"}',
  );
  writeFileSync(
    join(libraryDir, BROKEN_DOCUMENT, 'template.docx'),
    buildDocx({ body: para('{x}') }),
  );
  options.library?.(libraryDir);

  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  const company = async (
    id: string,
    extra: { signingDomain?: string; defaultLanguage?: string },
  ): Promise<StackCompany> => {
    await new CompanyRepository(t.db).create({ id, name: `Company ${id}`, ...extra });
    const users = new UserRepository(t.db);
    const owner = await users.add(id, { email: `owner@${id}.example`, name: `Owner of ${id}` });
    const member = await users.add(id, { email: `member@${id}.example`, name: `Member of ${id}` });
    const folder = await new FolderRepository(t.db).add(id, `Leases of ${id}`);
    const preset = await new PresetRepository(t.db).add(id, {
      id: `preset-${id}`,
      name: `Preset of ${id}`,
      settings: { expiresInDays: 7 },
    });
    const template = await new MessageTemplateRepository(t.db).add(id, {
      id: `template-${id}`,
      subject: 'Please sign',
      body: 'Dear recipient, please sign.',
    });
    const key = await keys.create({ company: id, user: owner.email, name: 'conformance' });
    return {
      id,
      key: key.key,
      owner: { id: owner.id, email: owner.email },
      member: { id: member.id, email: member.email },
      folder: { id: folder.id, name: folder.name },
      presetId: preset.id,
      templateId: template.id,
    };
  };
  const acme = await company('acme', {
    signingDomain: 'sign.acme.example',
    defaultLanguage: 'en',
  });
  const globex = await company('globex', {});
  return {
    stack,
    t,
    keys,
    libraryDir,
    acme,
    globex,
    probe: (c) => ({ db: t.db, storage: stack.storage, company: c.id }),
    async close() {
      await Promise.all([stack.close(), t.close()]);
      rmSync(libraryDir, { recursive: true, force: true });
    },
  };
}

/**
 * The HTTP service as `docpipe serve` composes it over the stack: the stack's database, storage
 * and library folder, and a worker lane of the test's own (or `lane`). Called inside a test:
 * closed when it finishes.
 */
export async function caseServer(
  s: ConformanceStack,
  options: {
    lane?: { prefix: string; connection: Redis; client: DocpipeClient };
    /** The URL it issues its URLs under. @defaultValue PUBLIC_URL */
    publicUrl?: string;
  } = {},
): Promise<HttpApp> {
  const lane = options.lane ?? (await s.stack.lane());
  const config = loadConfig({
    DOCPIPE_SIGNING_SECRET: 'a-test-signing-secret-of-32-chars',
    DOCPIPE_QUEUE_PREFIX: lane.prefix,
    DOCPIPE_TEMPLATES_DIR: s.libraryDir,
    DOCPIPE_HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT),
  });
  const queues: Queue[] = [];
  const app = await buildHttpServer({
    config,
    publicUrl: options.publicUrl ?? PUBLIC_URL,
    redis: lane.connection,
    redisUrl: s.stack.url,
    db: s.t.db,
    keys: s.keys,
    client: lane.client,
    storage: s.stack.storage,
    library: new FolderLibrary(config.templatesDir),
    preparer: new InlinePreparer(),
    metrics: new DocpipeMetrics({ queues, processMetrics: false }),
    checks: {},
    queues,
  });
  onTestFinished(() => app.close());
  return app;
}

/** An answer of the server: status, headers and the JSON body. */
export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: Record<string, unknown> & {
    error?: string;
    details?: { field: string; message: string }[];
  };
  raw: string;
}

/** A request with `key` (none: no Authorization header). */
export async function call(
  app: HttpApp,
  method: 'GET' | 'POST',
  url: string,
  key: string | undefined,
  payload?: unknown,
): Promise<Answer> {
  const res = await app.inject({
    method,
    url,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  let body: Answer['body'] = {};
  try {
    body = res.json();
  } catch {
    // Not JSON (a page): the raw text is there.
  }
  return { status: res.statusCode, headers: res.headers, body, raw: res.body };
}

/** The fields of a failure's details, in order. */
export const fields = (a: Answer) => (a.body.details ?? []).map((d) => d.field);
