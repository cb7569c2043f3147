import type { Kysely, Migration } from 'kysely';

/**
 * API keys copied from Redis, where docpipe kept them before PostgreSQL, are marked with when
 * they were copied. Such a key had no user and keeps working without one; a key whose user is
 * removed has no user either, and is refused (`key-has-no-user`). The mark tells the two apart.
 */
export const apiKeysFromRedis: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('api_keys')
      .addColumn('copied_from_redis_at', 'timestamptz')
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('api_keys').dropColumn('copied_from_redis_at').execute();
  },
};
