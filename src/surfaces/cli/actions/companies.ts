import {
  CompanyRepository,
  RecordInvalidError,
  type Company,
} from '../../../service/companies/index.js';
import { printJson } from '../print-json.js';
import { withRecordsDatabase } from './records-database.js';
import { textTable, when } from './text-table.js';

/** The flag or argument a person typed for each field of a company. */
const FIELDS = {
  id: '<id>',
  name: '--name',
  signingDomain: '--signing-domain',
  defaultLanguage: '--language',
  sendSignedCopyToSender: '--signed-copy-to-sender',
};

/** An on/off flag's value, or a record problem naming it. */
function onOff(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === 'on' || v === 'true' || v === 'yes') return true;
  if (v === 'off' || v === 'false' || v === 'no') return false;
  throw new RecordInvalidError('company', [
    { path: 'sendSignedCopyToSender', message: `must be on or off (got ${JSON.stringify(value)})` },
  ]);
}

/** `docpipe companies create`, declared in commands/companies.ts. */
export async function createCompany(
  id: string,
  flags: {
    name: string;
    signingDomain?: string;
    language?: string;
    signedCopyToSender?: string;
    json?: boolean;
  },
): Promise<void> {
  await withRecordsDatabase({ json: flags.json, fields: FIELDS }, async (db) => {
    const created = await new CompanyRepository(db).create({
      id,
      name: flags.name,
      ...(flags.signingDomain === undefined ? {} : { signingDomain: flags.signingDomain }),
      ...(flags.language === undefined ? {} : { defaultLanguage: flags.language }),
      ...(flags.signedCopyToSender === undefined
        ? {}
        : { sendSignedCopyToSender: onOff(flags.signedCopyToSender) }),
    });
    if (flags.json) printJson(created);
    else
      process.stdout.write(
        `created company ${created.company.id} (${JSON.stringify(created.company.name)}) with its ` +
          `default folder ${JSON.stringify(created.defaultFolder.name)}\n`,
      );
  });
}

/** `docpipe companies list`, declared in commands/companies.ts. */
export async function listCompanies(flags: { json?: boolean }): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const companies = await new CompanyRepository(db).list();
    if (flags.json) printJson(companies);
    else if (companies.length === 0)
      process.stderr.write(
        'docpipe: no companies; create one with: docpipe companies create <id> --name <name>\n',
      );
    else process.stdout.write(table(companies));
  });
}

/** `docpipe companies set`, declared in commands/companies.ts. */
export async function setCompany(
  id: string,
  flags: { signedCopyToSender: string; json?: boolean },
): Promise<void> {
  await withRecordsDatabase({ json: flags.json, fields: FIELDS }, async (db) => {
    const company = await new CompanyRepository(db).setSettings(id, {
      sendSignedCopyToSender: onOff(flags.signedCopyToSender),
    });
    if (flags.json) printJson(company);
    else
      process.stdout.write(
        company.sendSignedCopyToSender
          ? `company ${id}: the sender of a case gets its signed copy too\n`
          : `company ${id}: only the recipients of a case get its signed copy\n`,
      );
  });
}

/** `docpipe companies disable` and `enable`, declared in commands/companies.ts. */
export async function setCompanyDisabled(
  id: string,
  disabled: boolean,
  flags: { json?: boolean },
): Promise<void> {
  await withRecordsDatabase({ json: flags.json }, async (db) => {
    const outcome = await new CompanyRepository(db).setDisabled(id, disabled);
    if (flags.json) printJson(outcome);
    else if (!outcome.changed)
      process.stdout.write(`company ${id} was already ${disabled ? 'disabled' : 'enabled'}\n`);
    else
      process.stdout.write(
        disabled
          ? `disabled company ${id}: its API keys are refused (company-disabled) until "docpipe companies enable ${id}"\n`
          : `enabled company ${id}: its API keys work again\n`,
      );
  });
}

function table(companies: Company[]): string {
  return textTable(
    ['ID', 'STATUS', 'LANGUAGE', 'SIGNING DOMAIN', 'CREATED', 'NAME'],
    companies.map((c) => [
      c.id,
      c.disabled ? 'disabled' : 'enabled',
      c.defaultLanguage ?? '-',
      c.signingDomain ?? '-',
      when(c.createdAt),
      c.name,
    ]),
  );
}
