/**
 * The most bind parameters one statement may carry: PostgreSQL's wire protocol counts them in 16
 * bits (the driver refuses a statement with more, which a case of 3,641 recipients of 18 columns
 * reached). A multi-row insert is cut into statements below it.
 */
export const MAX_BIND_PARAMETERS = 65_535;

/**
 * `rows` cut into runs that each fit one insert: at most MAX_BIND_PARAMETERS values a statement,
 * counting every row as wide as the widest (Kysely fills a missing column with DEFAULT, which
 * takes no parameter, so this overcounts, never under). No run when there are no rows.
 */
export function rowBatches<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const columns = Math.max(1, ...rows.map((r) => Object.keys(r).length));
  const perBatch = Math.max(1, Math.floor(MAX_BIND_PARAMETERS / columns));
  const batches: T[][] = [];
  for (let i = 0; i < rows.length; i += perBatch) batches.push(rows.slice(i, i + perBatch));
  return batches;
}
