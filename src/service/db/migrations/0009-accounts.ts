import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The dashboard's accounts (issue 33): people who log in, their sessions and the links they are
 * sent, and what a company shows about itself.
 *
 * - `logins`: a person who logs in, one per e-mail address in the installation. A person may be
 *   a member (a `users` row) of several companies; `users.login_id` joins each membership to
 *   its login, so that one password opens all of them. The password is an argon2id hash (PHC
 *   string); the TOTP secret is encrypted (`totp_secret`, AES-GCM under the server's key).
 * - `login_sessions`: a browser's session, its random token stored as SHA-256 only; `user_id`
 *   is the membership it works in. `second_factor_due` marks a session that passed the password
 *   but not yet the TOTP code: it opens nothing but the code's page.
 * - `login_links`: the tokens of the links sent by e-mail (confirm an address, reset a password,
 *   accept an invitation), SHA-256 only, single use (`used_at`), with an expiry.
 * - `recovery_codes`: a login's one-time codes for a lost authenticator, SHA-256 only.
 * - `companies.cvr` (the Danish company number given at sign-up), `logo` and `logo_type` (the
 *   settings page's logo, PNG or JPEG by its bytes), `created_by_signup`.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('logins')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('email_confirmed_at', 'timestamptz')
      .addColumn('language', 'text', (c) => c.check(sql`language in ('da', 'en')`))
      .addColumn('totp_secret', 'text')
      .addColumn('totp_enabled_at', 'timestamptz')
      .addColumn('password_changed_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createIndex('logins_email')
      .on('logins')
      .unique()
      .expression(sql`lower(email)`)
      .execute();

    await db.schema
      .alterTable('users')
      .addColumn('login_id', 'uuid', (c) => c.references('logins.id').onDelete('set null'))
      .execute();
    await db.schema.createIndex('users_login').on('users').column('login_id').execute();

    await db.schema
      .createTable('login_sessions')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('token_hash', 'bytea', (c) => c.notNull().unique())
      .addColumn('login_id', 'uuid', (c) => c.notNull().references('logins.id').onDelete('cascade'))
      .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('second_factor_due', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema
      .createIndex('login_sessions_login')
      .on('login_sessions')
      .column('login_id')
      .execute();

    await db.schema
      .createTable('login_links')
      .addColumn('token_hash', 'bytea', (c) => c.primaryKey())
      .addColumn('purpose', 'text', (c) =>
        c.notNull().check(sql`purpose in ('confirm', 'reset', 'invite')`),
      )
      .addColumn('login_id', 'uuid', (c) => c.references('logins.id').onDelete('cascade'))
      .addColumn('user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .execute();

    await db.schema
      .createTable('recovery_codes')
      .addColumn('login_id', 'uuid', (c) => c.notNull().references('logins.id').onDelete('cascade'))
      .addColumn('code_hash', 'bytea', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addPrimaryKeyConstraint('recovery_codes_pk', ['login_id', 'code_hash'])
      .execute();

    await db.schema
      .alterTable('companies')
      .addColumn('cvr', 'text')
      .addColumn('logo', 'bytea')
      .addColumn('logo_type', 'text', (c) => c.check(sql`logo_type in ('image/png', 'image/jpeg')`))
      .addColumn('created_by_signup', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('companies')
      .dropColumn('cvr')
      .dropColumn('logo')
      .dropColumn('logo_type')
      .dropColumn('created_by_signup')
      .execute();
    for (const table of ['recovery_codes', 'login_links', 'login_sessions'])
      await db.schema.dropTable(table).execute();
    await db.schema.alterTable('users').dropColumn('login_id').execute();
    await db.schema.dropTable('logins').execute();
  },
};
