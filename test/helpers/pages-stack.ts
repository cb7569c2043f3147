import type { FastifyBaseLogger } from 'fastify';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Queue } from 'bullmq';
import { sql } from 'kysely';
import { chromium, type Browser } from 'playwright-core';
import { loadConfig, type DocpipeConfig } from '../../src/app/config/index.js';
import { DocpipeMetrics } from '../../src/base/metrics/index.js';
import { projectRoot } from '../../src/base/paths/index.js';
import { FolderLibrary } from '../../src/document/library/index.js';
import { DocpipeClient } from '../../src/jobs/queue/index.js';
import { createRedis } from '../../src/platform/redis/index.js';
import { InlinePreparer } from '../../src/render/prepare/index.js';
import { LocalStorage } from '../../src/render/storage/index.js';
import { SessionStore } from '../../src/service/accounts/index.js';
import { CompanyRepository, UserRepository } from '../../src/service/companies/index.js';
import { KeyStore } from '../../src/service/keys/index.js';
import type { HttpApp } from '../../src/surfaces/http/common/create-app.js';
import { buildHttpServer } from '../../src/surfaces/http/server.js';
import { testDatabase, type TestDatabase } from './postgres.js';
import { startRedisOnly, type RedisOnly } from './queue-stack.js';

/**
 * What the page tests share per file: a private Redis and a PostgreSQL database, and servers
 * built over them as `docpipe serve` builds its HTTP server (no worker, no LibreOffice: a page
 * needs neither). `server()` listens on a free loopback port, so that a browser can reach it;
 * `member()` makes a company member with a live session, as if they had logged in.
 */
export interface PagesStack {
  redis: RedisOnly;
  t: TestDatabase;
  keys: KeyStore;
  /**
   * Builds and starts a server; `env` is added to the test defaults, `logger` receives its
   * request log (none without). Closed by `close()`.
   */
  server(
    env?: Record<string, string>,
    options?: { logger?: FastifyBaseLogger },
  ): Promise<PagesServer>;
  /** A company (made when new), a member of it with a login, and a session cookie for them. */
  member(options: MemberOptions): Promise<TestMember>;
  close(): Promise<void>;
}

export interface PagesServer {
  app: HttpApp;
  /** `http://127.0.0.1:<port>`: the public URL it issues (and checks the Origin against). */
  url: string;
  config: DocpipeConfig;
}

export interface MemberOptions {
  company: string;
  email: string;
  admin?: boolean;
  name?: string;
  language?: 'da' | 'en';
}

export interface TestMember {
  companyId: string;
  userId: string;
  loginId: string;
  email: string;
  /** `docpipe_session=<token>`, for `cookie` headers and browser contexts. */
  cookie: { name: string; value: string };
}

export const TEST_SECRET = 'a-test-signing-secret-of-32-chars';

export async function startPagesStack(): Promise<PagesStack> {
  const [redis, t] = await Promise.all([startRedisOnly(), testDatabase()]);
  const keys = new KeyStore({ db: t.db, databaseUrl: t.url });
  const apps: HttpApp[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  return {
    redis,
    t,
    keys,
    async server(env = {}, options = {}) {
      const prefix = `pages-${randomUUID()}`;
      const config = loadConfig({
        DOCPIPE_SIGNING_SECRET: TEST_SECRET,
        DOCPIPE_QUEUE_PREFIX: prefix,
        DOCPIPE_TEMPLATES_DIR: join(projectRoot(), 'templates'),
        DOCPIPE_DATA_DIR: redis.dir,
        ...env,
      });
      const connection = createRedis(redis.url, 'worker');
      const storage = new LocalStorage(join(redis.dir, 'storage'));
      const client = await DocpipeClient.connect({ redisUrl: redis.url, prefix, storage });
      closers.push(
        () => client.close(),
        () => Promise.resolve(connection.disconnect()),
      );
      const queues: Queue[] = [];
      // The port is known only once it listens, and the public URL must name it (the pages
      // check a form's Origin against it): listen first, then build the server for that port.
      const probe = await import('node:net').then(
        ({ createServer }) =>
          new Promise<number>((resolve, reject) => {
            const s = createServer();
            s.once('error', reject);
            s.listen(0, '127.0.0.1', () => {
              const port = (s.address() as { port: number }).port;
              s.close(() => resolve(port));
            });
          }),
      );
      const url = `http://127.0.0.1:${probe}`;
      const app = await buildHttpServer({
        config,
        publicUrl: url,
        redis: connection,
        redisUrl: redis.url,
        db: t.db,
        keys,
        client,
        storage,
        library: new FolderLibrary(config.templatesDir),
        preparer: new InlinePreparer(),
        metrics: new DocpipeMetrics({ queues, processMetrics: false }),
        checks: {},
        queues,
        ...(options.logger ? { logger: options.logger } : {}),
      });
      await app.listen({ host: '127.0.0.1', port: probe });
      apps.push(app);
      return { app, url, config };
    },
    async member(options) {
      const companies = new CompanyRepository(t.db);
      if (!(await companies.find(options.company)))
        await companies.create({ id: options.company, name: `Company ${options.company}` });
      const name = options.name ?? options.email.split('@')[0]!;
      const login = await t.db
        .insertInto('logins')
        .values({
          email: options.email,
          name,
          email_confirmed_at: new Date(),
          language: options.language ?? null,
        })
        .onConflict((oc) => oc.expression(sql`lower(email)`).doUpdateSet({ name }))
        .returning('id')
        .executeTakeFirstOrThrow();
      const user = await new UserRepository(t.db).add(options.company, {
        email: options.email,
        name,
        admin: options.admin ?? false,
      });
      await t.db
        .updateTable('users')
        .set({ login_id: login.id })
        .where('id', '=', user.id)
        .execute();
      const session = await new SessionStore(t.db).create({ loginId: login.id, userId: user.id });
      return {
        companyId: options.company,
        userId: user.id,
        loginId: login.id,
        email: options.email,
        cookie: { name: 'docpipe_session', value: session.token },
      };
    },
    async close() {
      for (const app of apps) await app.close();
      for (const close of closers) await close();
      await Promise.all([redis.close(), t.close()]);
    },
  };
}

/** Debian's Chromium as the machine's notes say to start it: no background networking. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
