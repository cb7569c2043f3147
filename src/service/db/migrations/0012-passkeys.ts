import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Passkeys (issue 33, as Documenso has them): a login's WebAuthn credentials, each a way to log
 * in without the password and without the TOTP step (a passkey with user verification is two
 * factors in itself).
 *
 * - `credential_id`: the authenticator's credential id (base64url), unique in the installation:
 *   a usernameless log-in finds the login by it.
 * - `public_key`: the COSE public key the assertions are checked against.
 * - `counter`: the signature counter last seen (0 for authenticators that keep none); a bigint,
 *   since the authenticator's is an unsigned 32-bit number.
 * - `transports`: what the browser reported (usb, nfc, ble, internal, hybrid), handed back to it
 *   when it asks which credentials to offer.
 * - `backed_up`: whether the authenticator syncs it (a passkey in a password manager).
 * - `name`: what the person called it; `created_at`, `last_used_at`: the security page's list.
 * The ceremonies' challenges live in Redis with a short TTL (service/accounts'
 * PasskeyChallenges), not here. Written against Kysely<unknown>: a migration sees the schema
 * as it was then.
 */
export const passkeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('passkeys')
      .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
      .addColumn('login_id', 'uuid', (c) => c.notNull().references('logins.id').onDelete('cascade'))
      .addColumn('credential_id', 'text', (c) => c.notNull().unique())
      .addColumn('public_key', 'bytea', (c) => c.notNull())
      .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('transports', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
      .addColumn('backed_up', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('last_used_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('passkeys_login').on('passkeys').column('login_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('passkeys').execute();
  },
};
