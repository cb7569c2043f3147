import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A web-flow's messages and events (issue 36), in the tables a case's already use, so that one
 * message ledger (claims, tries, the sweep) and one outbox (the relay, webhooks) serve both:
 * - `messages` and `case_events` belong to a case or to a flow, exactly one of them (a check);
 *   `messages.flow_recipient_id` is the flow's person a message goes to, as `recipient_id` is a
 *   case's; the flow's messages are unique by (flow, addressee, channel, kind, sequence), as a
 *   case's are by case;
 * - two message kinds: `flow-invitation` and `flow-reminder`;
 * - `webflows.next_reminder_at` and `reminders_sent`: the schedule's next reminder of a running
 *   flow and how many went, as cases keep them.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const webflowDelivery: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table messages
      alter column case_id drop not null,
      add column flow_id uuid,
      add column flow_recipient_id uuid references webflow_recipients (id) on delete cascade,
      add constraint messages_flow_fk foreign key (company_id, flow_id)
        references webflows (company_id, id) on delete cascade,
      add constraint messages_case_or_flow check (num_nonnulls(case_id, flow_id) = 1),
      add constraint messages_flow_once unique (flow_id, addressee, channel, kind, sequence),
      drop constraint messages_kind_check,
      add constraint messages_kind_check check (kind in
        ('invitation', 'reminder', 'signed-copy', 'denial', 'flow-invitation', 'flow-reminder'))`.execute(
      db,
    );

    await sql`alter table case_events
      alter column case_id drop not null,
      add column flow_id uuid,
      add constraint case_events_flow_fk foreign key (company_id, flow_id)
        references webflows (company_id, id) on delete cascade,
      add constraint case_events_case_or_flow check (num_nonnulls(case_id, flow_id) = 1)`.execute(
      db,
    );

    await sql`alter table webflows
      add column next_reminder_at timestamptz,
      add column reminders_sent integer not null default 0`.execute(db);
    // The schedule's sweep: running flows by their next reminder.
    await sql`create index webflows_reminders_due on webflows (next_reminder_at)
      where next_reminder_at is not null and state in ('pending', 'in_progress')`.execute(db);
  },

  async down(db: Kysely<unknown>) {
    await sql`drop index webflows_reminders_due`.execute(db);
    await sql`alter table webflows drop column next_reminder_at, drop column reminders_sent`.execute(
      db,
    );
    await sql`delete from case_events where flow_id is not null`.execute(db);
    await sql`alter table case_events
      drop constraint case_events_case_or_flow,
      drop constraint case_events_flow_fk,
      drop column flow_id,
      alter column case_id set not null`.execute(db);
    await sql`delete from messages where flow_id is not null`.execute(db);
    await sql`alter table messages
      drop constraint messages_kind_check,
      add constraint messages_kind_check check (kind in ('invitation', 'reminder', 'signed-copy', 'denial')),
      drop constraint messages_flow_once,
      drop constraint messages_case_or_flow,
      drop constraint messages_flow_fk,
      drop column flow_recipient_id,
      drop column flow_id,
      alter column case_id set not null`.execute(db);
  },
};
