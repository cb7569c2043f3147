import type { Kysely, Transaction } from 'kysely';
import { CprKeyMissingError, type CprCipher } from '../cpr/index.js';
import type { Database } from '../db/index.js';
import type { AnswerWrite } from './answer-check.js';
import type { FlowSitting } from './answer-sitting.js';

/** What saving and sending need: the database, the CPR cipher (for CPR answers) and a clock. */
export interface AnswerDeps {
  db: Kysely<Database>;
  /** The cipher recipients' CPR numbers are stored with; without it a CPR answer is refused. */
  cprCipher?: Pick<CprCipher, 'encrypt'>;
  now?: () => Date;
}

/**
 * Writes a sitting's checked answers in its transaction: each changed answer as the person's
 * (answers are shared per flow, whoever gave one last), a CPR number only encrypted for the
 * flow's company, an emptied one removed. An answer given again unchanged keeps who gave it.
 * The first answer of a flow moves it from `pending` to `in_progress`. Returns how many answers
 * changed.
 */
export async function writeAnswers(
  tx: Transaction<Database>,
  deps: AnswerDeps,
  sitting: FlowSitting,
  writes: readonly AnswerWrite[],
  now: Date,
): Promise<number> {
  let changed = 0;
  for (const w of writes) {
    const before = sitting.answers.get(w.tag);
    if ('clear' in w) {
      if (!before) continue;
      await tx
        .deleteFrom('webflow_answers')
        .where('flow_id', '=', sitting.flowId)
        .where('tag', '=', w.tag)
        .execute();
      changed++;
      continue;
    }
    let value: string | null = null;
    let encrypted: Buffer | null = null;
    if ('cpr' in w) {
      if (!deps.cprCipher) throw new CprKeyMissingError();
      encrypted = deps.cprCipher.encrypt(w.cpr, sitting.company);
    } else {
      if (before && !before.secret && before.value === w.value) continue;
      value = JSON.stringify(w.value);
    }
    await tx
      .insertInto('webflow_answers')
      .values({
        flow_id: sitting.flowId,
        tag: w.tag,
        type: w.type,
        value,
        value_encrypted: encrypted,
        answered_by: sitting.recipient.id,
        answered_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['flow_id', 'tag']).doUpdateSet({
          type: w.type,
          value,
          value_encrypted: encrypted,
          answered_by: sitting.recipient.id,
          answered_at: now,
        }),
      )
      .execute();
    changed++;
  }
  if (changed > 0)
    await tx
      .updateTable('webflows')
      .set((eb) => ({
        updated_at: now,
        state: eb
          .case()
          .when('state', '=', 'pending')
          .then('in_progress' as const)
          .else(eb.ref('state'))
          .end(),
      }))
      .where('id', '=', sitting.flowId)
      .execute();
  return changed;
}
