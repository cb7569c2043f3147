import { PresetRepository, type Preset } from '../../../service/companies/index.js';
import { addRecordFromFile, listRecords } from './company-records.js';
import { textTable, when } from './text-table.js';

/** `docpipe presets add`, declared in commands/presets.ts. */
export function addPreset(file: string, flags: { company: string; json?: boolean }): Promise<void> {
  return addRecordFromFile(
    file,
    flags,
    (db, company, data) => new PresetRepository(db).add(company, data),
    (preset, company) =>
      `added preset ${JSON.stringify(preset.name)} (presetId ${preset.id}) to company ${company}`,
  );
}

/** `docpipe presets list`, declared in commands/presets.ts. */
export function listPresets(flags: { company: string; json?: boolean }): Promise<void> {
  return listRecords(
    flags,
    (db, company) => new PresetRepository(db).list(company),
    table,
    (company) =>
      `company ${company} has no presets; add one with: docpipe presets add --company ${company} <file.json>`,
  );
}

function table(presets: Preset[]): string {
  return textTable(
    ['ID', 'CREATED', 'NAME'],
    presets.map((p) => [p.id, when(p.createdAt), p.name]),
  );
}
