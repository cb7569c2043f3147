import type { Kysely } from 'kysely';
import type { Database } from '../../../service/db/index.js';
import { MessageTemplateRepository, PresetRepository } from '../../../service/companies/index.js';
import { servedSchemes, type EidConfig } from '../../../service/eid/index.js';
import type { NewCaseChoices } from './new-case-settings.js';

/**
 * The New case form's choices: the company's own presets and message templates (another
 * company's are never offered, and the service refuses one named anyway), and the eID schemes
 * this installation serves, the same list the case service accepts as a signing method.
 */
export async function newCaseChoices(
  db: Kysely<Database>,
  eid: EidConfig,
  company: string,
): Promise<NewCaseChoices> {
  const [presets, templates] = await Promise.all([
    new PresetRepository(db).list(company),
    new MessageTemplateRepository(db).list(company),
  ]);
  return {
    presets: presets.map((p) => ({ id: p.id, name: p.name })),
    templates: templates.map((t) => ({ id: t.id, name: t.name, subject: t.subject })),
    schemes: servedSchemes(eid),
  };
}
