import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Delivery and events (issue 24): webhooks and every attempt to deliver to them, the messages
 * sent to recipients and senders, the company's contacts, and what reminders and expiry need.
 *
 * - `webhooks`: a company's receivers: URL, method, custom headers, triggers, active switch, and
 *   the secret its deliveries are signed with (HMAC-SHA256). The secret signs, so it is kept as
 *   itself, as a receiver keeps it; it is shown once, when the webhook is added.
 * - `webhook_deliveries`: one per event and webhook (unique): the body fixed when the event was
 *   fanned out, so that every retry and replay sends the same bytes; its state and next try.
 *   It keeps no foreign key to the event: a delivery outlives a case deleted after it.
 * - `webhook_attempts`: every try of a delivery: when, how long, the status or the error, and
 *   the start of the answer (`docpipe webhooks runs`).
 * - `messages`: every e-mail, SMS or e-Boks message a case sends, one per addressee, channel,
 *   kind and sequence (a reminder's number): the unique key makes a retried send a no-op, and
 *   the row says where the message went or why it did not.
 * - `contacts`: the recipients a company has sent to, unique by e-mail address (any case).
 * - `cases.reminders_sent` / `next_reminder_at`: the reminder schedule, kept in the row so that
 *   it survives restarts; `expired_at`: when expiry ended the case. `recipients.invited_at`.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const delivery: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('webhooks')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) =>
        c
          .notNull()
          .defaultTo('POST')
          .check(sql`method in ('POST', 'PUT', 'PATCH')`),
      )
      .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('headers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('triggers', 'jsonb', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('webhooks_company').on('webhooks').column('company_id').execute();

    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('webhook_id', 'uuid', (c) =>
        c.notNull().references('webhooks.id').onDelete('cascade'),
      )
      .addColumn('event_id', 'uuid', (c) => c.notNull())
      .addColumn('case_id', 'uuid')
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`status in ('pending', 'succeeded', 'failed')`),
      )
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('webhook_deliveries_once', ['webhook_id', 'event_id'])
      .execute();
    await db.schema
      .createIndex('webhook_deliveries_recent')
      .on('webhook_deliveries')
      .columns(['webhook_id', 'created_at desc'])
      .execute();
    // The sweep: deliveries whose next try is due (a job lost with its Redis is found again).
    await db.schema
      .createIndex('webhook_deliveries_due')
      .on('webhook_deliveries')
      .column('next_attempt_at')
      .where(sql.ref('status'), '=', 'pending')
      .execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('delivery_id', 'uuid', (c) =>
        c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
      )
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'timestamptz', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('status', 'integer')
      .addColumn('error', 'text')
      .addColumn('response', 'text')
      .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'attempt'])
      .execute();

    await db.schema
      .createTable('messages')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('company_id', 'text', (c) => c.notNull())
      .addColumn('case_id', 'uuid', (c) => c.notNull())
      .addColumn('recipient_id', 'uuid', (c) => c.references('recipients.id').onDelete('cascade'))
      // The recipient's id, or `sender` for the denial notice: part of the unique key, never null.
      .addColumn('addressee', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) =>
        c.notNull().check(sql`channel in ('email', 'sms', 'eboks')`),
      )
      .addColumn('kind', 'text', (c) =>
        c.notNull().check(sql`kind in ('invitation', 'reminder', 'signed-copy', 'denial')`),
      )
      .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`status in ('pending', 'sent', 'failed')`),
      )
      .addColumn('to_address', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      // A sender holds the row until then: two workers never send the same message at once,
      // and one that died holding it lets it go when the time is past.
      .addColumn('claimed_until', 'timestamptz')
      // A failed message's next try; null when none is due (sent, or out of tries).
      .addColumn('next_attempt_at', 'timestamptz')
      .addColumn('error', 'text')
      .addColumn('location', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('sent_at', 'timestamptz')
      .addForeignKeyConstraint(
        'messages_case_fk',
        ['company_id', 'case_id'],
        'cases',
        ['company_id', 'id'],
        (fk) => fk.onDelete('cascade'),
      )
      .addUniqueConstraint('messages_once', ['case_id', 'addressee', 'channel', 'kind', 'sequence'])
      .execute();

    // The sweep: messages waiting to be sent or tried again.
    await db.schema
      .createIndex('messages_due')
      .on('messages')
      .column('next_attempt_at')
      .where(sql.ref('next_attempt_at'), 'is not', null)
      .execute();

    await db.schema
      .createTable('contacts')
      .addColumn('company_id', 'text', (c) =>
        c.notNull().references('companies.id').onDelete('cascade'),
      )
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('phone', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`create unique index contacts_company_email on contacts (company_id, lower(email))`.execute(
      db,
    );

    await db.schema
      .alterTable('cases')
      .addColumn('reminders_sent', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_reminder_at', 'timestamptz')
      .addColumn('expired_at', 'timestamptz')
      .execute();
    await db.schema
      .createIndex('cases_reminders_due')
      .on('cases')
      .column('next_reminder_at')
      .where(sql<boolean>`state = 'open' and next_reminder_at is not null`)
      .execute();
    await db.schema
      .createIndex('cases_expiry_due')
      .on('cases')
      .column('expires_at')
      .where(sql.ref('state'), '=', 'open')
      .execute();

    await db.schema.alterTable('recipients').addColumn('invited_at', 'timestamptz').execute();

    // The outbox relay listens: an event's commit wakes it at once (the notification is sent at
    // commit, and one per transaction however many rows it wrote), so an event reaches the
    // queue in milliseconds without polling the table hard.
    await sql`create function docpipe_case_event_notify() returns trigger language plpgsql as $$
      begin
        perform pg_notify('docpipe_case_events', '');
        return null;
      end $$`.execute(db);
    await sql`create trigger case_events_notify after insert on case_events
      for each statement execute function docpipe_case_event_notify()`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await sql`drop trigger case_events_notify on case_events`.execute(db);
    await sql`drop function docpipe_case_event_notify()`.execute(db);
    await db.schema.alterTable('recipients').dropColumn('invited_at').execute();
    await db.schema.dropIndex('cases_expiry_due').execute();
    await db.schema.dropIndex('cases_reminders_due').execute();
    await db.schema
      .alterTable('cases')
      .dropColumn('reminders_sent')
      .dropColumn('next_reminder_at')
      .dropColumn('expired_at')
      .execute();
    for (const table of [
      'contacts',
      'messages',
      'webhook_attempts',
      'webhook_deliveries',
      'webhooks',
    ])
      await db.schema.dropTable(table).execute();
  },
};
