import type { Kysely, Selectable } from 'kysely';
import type { Database, PresetsTable } from '../db/index.js';
import { companyMissing, requireCompany } from './company-scope.js';
import { foreignKeyViolation, uniqueViolation } from './pg-violation.js';
import { presetSettingsProblems } from './preset-settings.js';
import {
  RecordExistsError,
  RecordNotFoundError,
  refuseProblems,
  type RecordProblem,
} from './record-errors.js';
import { collect, nameProblem, recordIdProblem } from './record-fields.js';
import { fileMembers, stringMember } from './record-file.js';
import type { Preset } from './records.js';

/** A preset as its file gives it: `{id?, name, settings}`. */
export interface NewPreset {
  /** Chosen by the operator for `presetId`; made by the database (a UUID) when absent. */
  id?: string;
  name: string;
  settings: Record<string, unknown>;
}

/** A preset file's members. */
const PRESET_MEMBERS = ['id', 'name', 'settings'] as const;

/**
 * The preset a file describes, or RecordInvalidError with every problem, each with its path in
 * the file (`settings.reminders.amount`).
 */
export function parsePreset(data: unknown): NewPreset {
  const problems: RecordProblem[] = [];
  const file = fileMembers(data, PRESET_MEMBERS, problems);
  const id = stringMember(file, 'id', false, problems);
  if (id !== undefined) collect(problems, 'id', recordIdProblem(id));
  const name = stringMember(file, 'name', true, problems);
  if (name !== undefined) collect(problems, 'name', nameProblem(name));
  if (file.settings === undefined) problems.push({ path: 'settings', message: 'is required' });
  else problems.push(...presetSettingsProblems(file.settings));
  refuseProblems('preset', problems);
  return {
    ...(id === undefined ? {} : { id }),
    name: name!,
    settings: file.settings as Record<string, unknown>,
  };
}

/**
 * A company's presets: named sets of v3 case settings that a case applies by `presetId`. Names
 * and ids are unique in the company. Every query names the company.
 */
export class PresetRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the preset `data` describes (checked by parsePreset); RecordExistsError for a taken id or name. */
  async add(company: string, data: unknown): Promise<Preset> {
    const preset = parsePreset(data);
    try {
      const row = await this.db
        .insertInto('presets')
        .values({
          company_id: company,
          ...(preset.id === undefined ? {} : { id: preset.id }),
          name: preset.name,
          settings: JSON.stringify(preset.settings),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return presetOf(row);
    } catch (err) {
      const unique = uniqueViolation(err);
      if (unique === 'presets_pk') throw new RecordExistsError('preset', preset.id!, company);
      if (unique === 'presets_company_name')
        throw new RecordExistsError('preset', JSON.stringify(preset.name), company);
      if (companyMissing(foreignKeyViolation(err)))
        throw new RecordNotFoundError('company', company);
      throw err;
    }
  }

  /** The company's presets, by name. */
  async list(company: string): Promise<Preset[]> {
    await requireCompany(this.db, company);
    const rows = await this.db
      .selectFrom('presets')
      .selectAll()
      .where('company_id', '=', company)
      .orderBy('name')
      .execute();
    return rows.map(presetOf);
  }

  /**
   * Replaces the name and settings of the company's preset `id` with what `data` describes
   * (checked by parsePreset; an `id` in it must be `id`); RecordNotFoundError when the company
   * has no such preset, RecordExistsError when another of its presets has the name. Cases made
   * before keep the settings they were made with.
   */
  async update(company: string, id: string, data: unknown): Promise<Preset> {
    const preset = parsePreset(data);
    if (preset.id !== undefined && preset.id !== id)
      refuseProblems('preset', [{ path: 'id', message: `must be the preset's own id, ${id}` }]);
    try {
      const row = await this.db
        .updateTable('presets')
        .set({ name: preset.name, settings: JSON.stringify(preset.settings) })
        .where('company_id', '=', company)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new RecordNotFoundError('preset', id, company);
      return presetOf(row);
    } catch (err) {
      if (uniqueViolation(err) === 'presets_company_name')
        throw new RecordExistsError('preset', JSON.stringify(preset.name), company);
      throw err;
    }
  }

  /** The company's preset with this id, or undefined (also for another company's). */
  async find(company: string, id: string): Promise<Preset | undefined> {
    const row = await this.db
      .selectFrom('presets')
      .selectAll()
      .where('company_id', '=', company)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && presetOf(row);
  }
}

export function presetOf(row: Selectable<PresetsTable>): Preset {
  return {
    id: row.id,
    company: row.company_id,
    name: row.name,
    // jsonb comes back parsed by pg.
    settings: row.settings as Record<string, unknown>,
    createdAt: row.created_at,
  };
}
