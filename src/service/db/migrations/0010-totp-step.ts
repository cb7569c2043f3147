import type { Kysely, Migration } from 'kysely';

/**
 * Two-factor log-in's replay guard (issue 33): `logins.totp_last_step`, the time step (RFC 6238:
 * seconds since 1970 / 30) of the last TOTP code a login gave. A code is taken only for a later
 * step, so a code seen over someone's shoulder, or sent twice, opens nothing within its window.
 * An integer holds steps until the year 3990.
 * Written against Kysely<unknown>: a migration sees the schema as it was then.
 */
export const totpStep: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('logins').addColumn('totp_last_step', 'integer').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('logins').dropColumn('totp_last_step').execute();
  },
};
