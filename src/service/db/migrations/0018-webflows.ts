import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Web-flows (issue 36, spec 1 and 4.4): asking people for information by e-mail and reading
 * their answers back.
 * - `forms.webflow`: a published (`active`) form may also be web-flow enabled (form.json's
 *   `"webflow": true`); only such a form can start a flow.
 * - `webflows`: one request, with a copy of its form as it was when the flow was created (its
 *   questions, and for a flow that makes a case the rest of the form, its templates copied to
 *   keys of the flow's own), so that a re-import of the form changes no running flow. The
 *   sender is a member (set null when the member is removed: then `sender-not-in-company`) with
 *   the address and name it had. `case_request` is the optional `case` member; `case_id` the
 *   case it made once completed.
 * - `webflow_recipients`: each person asked, with the SHA-256 of their link's token (the token
 *   itself is never stored) and how far they are (pending, opened, answered).
 * - `webflow_answers`: one answer per question of the flow, whoever of its recipients gave it
 *   last (`answered_by`); a CPR number only encrypted (`value_encrypted`, as recipients' are).
 * - `webflow_idempotency`: the `Idempotency-Key` of each creation, per company, with the
 *   SHA-256 of the request's canonical JSON and the flow it made, written in the flow's own
 *   transaction; kept 24 hours (`expires_at`), after which the key may be used again.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const webflows: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table forms add column webflow boolean not null default false`.execute(db);

    await sql`create table webflows (
      id uuid primary key default gen_random_uuid(),
      company_id text not null references companies (id) on delete cascade,
      form_id text not null,
      form jsonb not null,
      title text not null,
      message text,
      sender_user_id uuid references users (id) on delete set null,
      sender_email text not null,
      sender_name text not null,
      state text not null default 'pending'
        check (state in ('pending', 'in_progress', 'completed', 'expired')),
      settings jsonb not null,
      case_request jsonb,
      case_id uuid,
      case_error jsonb,
      expires_at timestamptz not null,
      completed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint webflows_company_id unique (company_id, id)
    )`.execute(db);
    await sql`create index webflows_company_created on webflows (company_id, created_at desc, id desc)`.execute(
      db,
    );
    // The schedule's sweep: running flows by when they expire.
    await sql`create index webflows_running on webflows (expires_at)
      where state in ('pending', 'in_progress')`.execute(db);

    await sql`create table webflow_recipients (
      id uuid primary key default gen_random_uuid(),
      flow_id uuid not null references webflows (id) on delete cascade,
      company_id text not null,
      position integer not null,
      name text not null,
      email text not null,
      language text,
      token_sha256 bytea not null unique check (length(token_sha256) = 32),
      status text not null default 'pending' check (status in ('pending', 'opened', 'answered')),
      opened_at timestamptz,
      answered_at timestamptz,
      constraint webflow_recipients_position unique (flow_id, position)
    )`.execute(db);

    await sql`create table webflow_answers (
      flow_id uuid not null references webflows (id) on delete cascade,
      tag text not null,
      type text not null,
      value jsonb,
      value_encrypted bytea,
      answered_by uuid not null references webflow_recipients (id) on delete cascade,
      answered_at timestamptz not null default now(),
      primary key (flow_id, tag),
      constraint webflow_answers_one_value check (value is null or value_encrypted is null)
    )`.execute(db);

    await sql`create table webflow_idempotency (
      company_id text not null references companies (id) on delete cascade,
      key text not null check (length(key) between 1 and 255),
      fingerprint bytea not null check (length(fingerprint) = 32),
      flow_id uuid not null references webflows (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (company_id, key)
    )`.execute(db);
    await sql`create index webflow_idempotency_expires on webflow_idempotency (expires_at)`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'webflow_idempotency',
      'webflow_answers',
      'webflow_recipients',
      'webflows',
    ])
      await sql`drop table ${sql.table(table)}`.execute(db);
    await sql`alter table forms drop column webflow`.execute(db);
  },
};
