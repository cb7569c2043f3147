import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The partner program (issue 35, spec 2.5, 4.5, 4.6, 5.6 and 6):
 * - `companies.referred_by`: the company whose referral link a company signed up through, set
 *   when the company is created and never after (a trigger refuses any change, a direct SQL
 *   update included), so that attribution is for good and no company is attached later;
 * - `partners`: the operator's partner configuration of a company (spec 2.5), apart from the
 *   company's own rows, which its API and dashboard read; the code unique without regard to case;
 *   the percentages as parts per million, exact (0.15 is 150000);
 * - `credit_lines`: each company's append-only credit ledger (purchases, referral credits, what
 *   cases use, corrections), paid and free credits apart, each line with a key unique in the
 *   company, so that recording a line twice records it once; `credit_balances` the sums, kept in
 *   the same transaction as each line;
 * - `credit_purchases`: a pack bought by card, invoice or EAN, with every rate and amount used
 *   copied onto it (integer øre), so that a later change of a rate changes no recorded purchase;
 *   only its payment (open to paid) is ever written after;
 * - `partner_kickbacks`: what a partner is owed, one per invoice (unique), and `partner_payouts`,
 *   what the operator paid out by hand; both append-only;
 * - `credit_settings`: a company's auto-refill;
 * - `partner_consents`: a new customer's consent to its key going to its partner, as shown;
 * - `api_keys.partner_company_id`: a key made for the partner webhook, listed as a partner
 *   integration.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const partners: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table companies add column referred_by text references companies (id)
      constraint companies_not_self_referred check (referred_by <> id)`.execute(db);
    await sql`create index companies_referred_by on companies (referred_by) where referred_by is not null`.execute(
      db,
    );
    await sql`create function docpipe_referral_fixed() returns trigger language plpgsql as $$
      begin
        if new.referred_by is distinct from old.referred_by then
          raise exception 'company % keeps its referrer: attribution is set when a company is created, never after', old.id
            using errcode = 'integrity_constraint_violation', constraint = 'companies_referral_fixed';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger companies_referral_fixed before update of referred_by on companies
      for each row execute function docpipe_referral_fixed()`.execute(db);

    await sql`create table partners (
      company_id text primary key references companies (id),
      is_partner boolean not null default false,
      code text check (code ~ '^[A-Za-z0-9][A-Za-z0-9_-]{1,39}$'),
      kickback_ppm integer not null default 0 check (kickback_ppm between 0 and 1000000),
      discount_ppm integer not null default 0 check (discount_ppm between 0 and 1000000),
      webhook_enabled boolean not null default false,
      updated_at timestamptz not null default now()
    )`.execute(db);
    await sql`create unique index partners_code on partners (lower(code)) where code is not null`.execute(
      db,
    );

    // Rows that are never changed nor removed once written: the ledger and the money owed.
    await sql`create function docpipe_append_only() returns trigger language plpgsql as $$
      begin
        raise exception '% is append-only: a correction is a new row, never an edit', tg_table_name
          using errcode = 'integrity_constraint_violation', constraint = tg_table_name || '_append_only';
      end $$`.execute(db);

    await sql`create table credit_purchases (
      id uuid primary key default gen_random_uuid(),
      company_id text not null references companies (id),
      idempotency_key text not null,
      credits bigint not null check (credits > 0),
      method text not null check (method in ('card', 'invoice', 'ean')),
      auto_refill boolean not null default false,
      unit_price_ore bigint not null check (unit_price_ore >= 0),
      discount_ppm integer not null check (discount_ppm between 0 and 1000000),
      vat_ppm integer not null check (vat_ppm between 0 and 1000000),
      referrer_company_id text references companies (id),
      referrer_partner boolean not null,
      kickback_ppm integer not null check (kickback_ppm between 0 and 1000000),
      gross_ore bigint not null,
      discount_ore bigint not null,
      net_ore bigint not null,
      vat_ore bigint not null,
      total_ore bigint not null,
      invoice_number text not null unique,
      reference text,
      ean_gln text check (ean_gln ~ '^[0-9]{13}$'),
      ean_order_number text,
      ean_contact text,
      status text not null default 'open' check (status in ('open', 'paid')),
      paid_at timestamptz,
      created_by text not null,
      created_at timestamptz not null default now(),
      constraint credit_purchases_key unique (company_id, idempotency_key),
      constraint credit_purchases_ean check ((method = 'ean') = (ean_gln is not null)),
      constraint credit_purchases_sums check (
        net_ore = gross_ore - discount_ore and total_ore = net_ore + vat_ore),
      constraint credit_purchases_paid check ((status = 'paid') = (paid_at is not null))
    )`.execute(db);
    // Invoice numbers without gaps (bookkeeping wants an unbroken series): one counter row, taken
    // in the purchase's own transaction, unlike a sequence, whose numbers a rollback loses.
    await sql`create table credit_invoice_numbers (
      only_row boolean primary key default true check (only_row),
      last bigint not null
    )`.execute(db);
    await sql`insert into credit_invoice_numbers (last) values (0)`.execute(db);
    // A purchase's amounts and rates stay as recorded; only an open one's payment is written.
    await sql`create function docpipe_purchase_paid_only() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' or old.status = 'paid' or new.status <> 'paid'
          or (to_jsonb(new) - 'status' - 'paid_at') <> (to_jsonb(old) - 'status' - 'paid_at') then
          raise exception 'credit purchase % stays as recorded: only an open purchase is marked paid', old.invoice_number
            using errcode = 'integrity_constraint_violation', constraint = 'credit_purchases_recorded';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger credit_purchases_recorded before update or delete on credit_purchases
      for each row execute function docpipe_purchase_paid_only()`.execute(db);

    await sql`create table credit_lines (
      id bigint generated always as identity primary key,
      company_id text not null references companies (id),
      kind text not null check (kind in ('purchase', 'referral', 'case', 'correction')),
      paid_credits bigint not null default 0,
      free_credits bigint not null default 0,
      idempotency_key text not null,
      purchase_id uuid references credit_purchases (id),
      case_id uuid,
      referred_company_id text references companies (id),
      note text,
      created_by text not null,
      created_at timestamptz not null default now(),
      constraint credit_lines_key unique (company_id, idempotency_key)
    )`.execute(db);
    await sql`create index credit_lines_company on credit_lines (company_id, id desc)`.execute(db);
    await sql`create trigger credit_lines_append_only before update or delete on credit_lines
      for each row execute function docpipe_append_only()`.execute(db);
    await sql`create table credit_balances (
      company_id text primary key references companies (id),
      paid bigint not null default 0,
      free bigint not null default 0,
      updated_at timestamptz not null default now()
    )`.execute(db);

    await sql`create table credit_settings (
      company_id text primary key references companies (id),
      refill_below bigint check (refill_below >= 0),
      refill_credits bigint check (refill_credits > 0),
      refill_method text check (refill_method in ('card', 'invoice', 'ean')),
      ean_gln text check (ean_gln ~ '^[0-9]{13}$'),
      ean_order_number text,
      ean_contact text,
      updated_at timestamptz not null default now(),
      constraint credit_settings_refill check (
        (refill_below is null) = (refill_credits is null) and (refill_below is null) = (refill_method is null))
    )`.execute(db);

    await sql`create table partner_kickbacks (
      id bigint generated always as identity primary key,
      partner_company_id text not null references companies (id),
      customer_company_id text not null references companies (id),
      purchase_id uuid not null references credit_purchases (id),
      invoice_number text not null,
      base_ore bigint not null check (base_ore >= 0),
      kickback_ppm integer not null check (kickback_ppm between 0 and 1000000),
      amount_ore bigint not null check (amount_ore >= 0),
      created_at timestamptz not null default now(),
      constraint partner_kickbacks_purchase unique (purchase_id),
      constraint partner_kickbacks_invoice unique (invoice_number)
    )`.execute(db);
    await sql`create index partner_kickbacks_partner on partner_kickbacks (partner_company_id, id)`.execute(
      db,
    );
    await sql`create table partner_payouts (
      id bigint generated always as identity primary key,
      partner_company_id text not null references companies (id),
      amount_ore bigint not null check (amount_ore > 0),
      reference text,
      idempotency_key text not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      constraint partner_payouts_key unique (partner_company_id, idempotency_key)
    )`.execute(db);
    for (const table of ['partner_kickbacks', 'partner_payouts'])
      await sql`create trigger ${sql.id(`${table}_append_only`)} before update or delete on ${sql.id(table)}
        for each row execute function docpipe_append_only()`.execute(db);

    await sql`create table partner_consents (
      company_id text primary key references companies (id),
      partner_company_id text not null references companies (id),
      user_id uuid references users (id) on delete set null,
      email text not null,
      text text not null,
      language text not null,
      ip text,
      user_agent text,
      created_at timestamptz not null default now()
    )`.execute(db);

    await sql`alter table api_keys add column partner_company_id text references companies (id)`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>) {
    await sql`alter table api_keys drop column partner_company_id`.execute(db);
    for (const table of [
      'partner_consents',
      'partner_payouts',
      'partner_kickbacks',
      'credit_settings',
      'credit_balances',
      'credit_lines',
      'credit_purchases',
      'partners',
      'credit_invoice_numbers',
    ])
      await sql`drop table ${sql.id(table)}`.execute(db);
    await sql`drop function docpipe_purchase_paid_only()`.execute(db);
    await sql`drop function docpipe_append_only()`.execute(db);
    await sql`drop trigger companies_referral_fixed on companies`.execute(db);
    await sql`drop function docpipe_referral_fixed()`.execute(db);
    await sql`alter table companies drop column referred_by`.execute(db);
  },
};
