/**
 * Writes the sample library under templates/. The .docx files are committed; rerun this after
 * changing it: `npm run build && node dist/scripts/make-sample-templates.js`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/base/paths/index.js';
import { buildDocx, heading, pageBreak, para, run } from '../test/helpers/docx-builder.js';

const root = join(projectRoot(), 'templates');

function write(id: string, files: Record<string, string | Buffer>): void {
  for (const [name, data] of Object.entries(files)) {
    const path = join(root, id, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, data);
  }
}

const clause = (n: number, title: string, ...paragraphs: string[]): string =>
  heading(`§ ${n}. ${title}`) + paragraphs.join('');

// W1 of the benchmarks: a 2-page contract with about 15 tags, some split across runs the way
// Word splits them after a spelling check, with a header, a footer and two conditional sections.
const lease = buildDocx({
  title: 'Lejekontrakt {contract_no}',
  header: para('Lejekontrakt nr. ', run('{contract'), run('_no}')),
  footer: para('Lejer: {tenant_name} · Side 1-2'),
  body: [
    heading('Lejekontrakt for beboelse'),
    para('Denne kontrakt er indgået den {signing_date} i {signing_city} mellem parterne nedenfor.'),
    clause(
      1,
      'Parterne',
      para('Udlejer: {landlord_name}, {landlord_address}.'),
      para('Lejer: ', run('{tenant_'), run('name}', true), ', {tenant_address}.'),
    ),
    clause(
      2,
      'Det lejede',
      para('Lejemålet er beliggende {property_address} og udgør i alt {area} m² beboelse.'),
      para(
        'Lejemålet overtages i den stand, det er i ved overtagelsen. Lejer har pligt til inden 14 dage efter overtagelsen skriftligt at gøre udlejer opmærksom på mangler ved det lejede, som lejer ikke selv har forårsaget.',
      ),
    ),
    clause(
      3,
      'Lejeforholdets begyndelse',
      para(
        'Lejeforholdet begynder den {start_date} og fortsætter, indtil det opsiges af en af parterne.',
      ),
      para(
        'Lejeforholdet kan opsiges af lejer med tre måneders varsel til den første hverdag i en måned. Udlejer kan kun opsige lejeforholdet i overensstemmelse med lejelovens regler.',
      ),
    ),
    clause(
      4,
      'Leje og betaling',
      para(
        'Den årlige leje er fastsat til ',
        run('{monthly_'),
        run('rent}'),
        ' kr. pr. måned, som betales forud den første hverdag i hver måned.',
      ),
      para(
        'Lejen betales til udlejers konto eller på anden måde, som udlejer skriftligt anviser. Ved for sen betaling opkræves gebyr efter lejelovens regler.',
      ),
    ),
    clause(
      5,
      'Depositum og forudbetalt leje',
      para(
        'Lejer betaler et depositum på {deposit} kr. samt forudbetalt leje på {prepaid_rent} kr. før overtagelsen.',
      ),
      para(
        'Depositum tjener som sikkerhed for lejers forpligtelser ved fraflytning og forrentes ikke. Forudbetalt leje modregnes i lejen for de sidste måneder af lejeforholdet.',
      ),
    ),
    pageBreak(),
    clause(
      6,
      'Husdyr',
      para(
        '{#pets_allowed}Lejer må holde én hund eller én kat i lejemålet, forudsat at dyret ikke er til gene for de øvrige beboere.{/pets_allowed}',
      ),
      para('{^pets_allowed}Det er ikke tilladt at holde husdyr i lejemålet.{/pets_allowed}'),
    ),
    clause(
      7,
      'Vedligeholdelse',
      para(
        'Den indvendige vedligeholdelse af lejemålet påhviler lejer. Den udvendige vedligeholdelse påhviler udlejer. Lejer skal straks underrette udlejer om skader, som udlejer har pligt til at udbedre.',
      ),
      para(
        'Ved fraflytning skal lejemålet afleveres i samme stand som ved overtagelsen, bortset fra forringelse som følge af almindeligt slid og ælde.',
      ),
    ),
    clause(
      8,
      'Kaution',
      para(
        '{#has_guarantor}{guarantor_name} indestår som selvskyldnerkautionist for lejers forpligtelser efter denne kontrakt.{/has_guarantor}',
      ),
      para('{^has_guarantor}Der er ikke stillet kaution for lejers forpligtelser.{/has_guarantor}'),
    ),
    clause(9, 'Særlige vilkår', para('{special_terms}')),
    clause(
      10,
      'Underskrift',
      para(
        'Kontrakten er udfærdiget i to eksemplarer, hvoraf hver part modtager ét. Parterne bekræfter med deres underskrift at have læst og accepteret kontraktens vilkår.',
      ),
      para('{signing_city}, den {signing_date}'),
      para('Udlejer: {landlord_name}'),
      para('Lejer: {tenant_name}'),
    ),
  ].join(''),
});

write('lease', {
  'template.docx': lease,
  'document.json': `${JSON.stringify(
    {
      name: 'Lejekontrakt (beboelse)',
      description: 'Residential lease, Danish; W1 of the benchmarks.',
      locale: 'da',
    },
    null,
    2,
  )}\n`,
  'fixtures/basic.tags.json': `${JSON.stringify(
    [
      { tag: 'contract_no', value: 'LK-2025-0042', type: 'text' },
      { tag: 'signing_date', value: '2025-03-05', type: 'date', format: 'D. MMMM YYYY' },
      { tag: 'signing_city', value: 'Aarhus', type: 'text' },
      { tag: 'landlord_name', value: 'Ejendomsselskabet Å & Ø ApS', type: 'text' },
      { tag: 'landlord_address', value: 'Havnegade 12, 8000 Aarhus C', type: 'text' },
      { tag: 'tenant_name', value: 'Mette Sørensen', type: 'text' },
      { tag: 'tenant_address', value: 'Vestergade 3, 2. th., 8000 Aarhus C', type: 'text' },
      { tag: 'property_address', value: 'Nørregade 7, 1. tv., 8000 Aarhus C', type: 'text' },
      { tag: 'area', value: 78.5, type: 'number', format: '0.0' },
      { tag: 'start_date', value: '2025-04-01', type: 'date', format: 'DD-MM-YYYY' },
      { tag: 'monthly_rent', value: '9850', type: 'number', format: '#,##0.00' },
      { tag: 'deposit', value: 29550, type: 'number', format: '#,##0.00' },
      { tag: 'prepaid_rent', value: 29550, type: 'number', format: '#,##0' },
      { tag: 'pets_allowed', value: true, type: 'boolean' },
      { tag: 'has_guarantor', value: true, type: 'boolean' },
      { tag: 'guarantor_name', value: 'Jens Sørensen', type: 'text' },
      {
        tag: 'special_terms',
        value: 'Lejer overtager vaskemaskinen.\nCykelkælderen må benyttes.',
        type: 'text',
      },
    ],
    null,
    2,
  )}\n`,
  'fixtures/basic.expected.txt': [
    'Denne kontrakt er indgået den 5. marts 2025 i Aarhus',
    'Udlejer: Ejendomsselskabet Å & Ø ApS, Havnegade 12, 8000 Aarhus C.',
    'Lejer: Mette Sørensen, Vestergade 3, 2. th., 8000 Aarhus C.',
    'udgør i alt 78,5 m² beboelse',
    'Lejeforholdet begynder den 01-04-2025',
    'fastsat til 9.850,00 kr. pr. måned',
    'depositum på 29.550,00 kr. samt forudbetalt leje på 29.550 kr.',
    'Lejer må holde én hund eller én kat',
    'Jens Sørensen indestår som selvskyldnerkautionist',
    'Lejer overtager vaskemaskinen.',
    'Cykelkælderen må benyttes.',
    'Lejekontrakt nr. LK-2025-0042',
    '',
  ].join('\n'),
  'fixtures/no-guarantor.tags.json': `${JSON.stringify(
    [
      { tag: 'contract_no', value: 'LK-2025-0043', type: 'text' },
      {
        tag: 'signing_date',
        value: '2025-12-31T23:30:00Z',
        type: 'date',
        format: 'D. MMMM YYYY [kl.] HH:mm',
      },
      { tag: 'signing_city', value: 'København', type: 'text' },
      { tag: 'landlord_name', value: 'Boligfonden', type: 'text' },
      { tag: 'landlord_address', value: 'Strandvejen 100, 2900 Hellerup', type: 'text' },
      { tag: 'tenant_name', value: 'Ali Hassan', type: 'text' },
      { tag: 'tenant_address', value: 'Amagerbrogade 50, 2300 København S', type: 'text' },
      { tag: 'property_address', value: 'Amagerbrogade 52, st., 2300 København S', type: 'text' },
      { tag: 'area', value: 54, type: 'number' },
      { tag: 'start_date', value: '2026-01-15', type: 'date' },
      { tag: 'monthly_rent', value: 7200.5, type: 'number', format: '#,##0.00' },
      { tag: 'deposit', value: 21601.5, type: 'number', format: '#,##0.00' },
      { tag: 'prepaid_rent', value: 0, type: 'number', format: '#,##0' },
      { tag: 'pets_allowed', value: false, type: 'boolean' },
      { tag: 'has_guarantor', value: 'false', type: 'boolean' },
      { tag: 'special_terms', value: 'Ingen.', type: 'text' },
    ],
    null,
    2,
  )}\n`,
  'fixtures/no-guarantor.expected.txt': [
    'Denne kontrakt er indgået den 1. januar 2026 kl. 00:30 i København',
    'Lejeforholdet begynder den 15. januar 2026',
    'udgør i alt 54 m² beboelse',
    'fastsat til 7.200,50 kr. pr. måned',
    'Det er ikke tilladt at holde husdyr i lejemålet.',
    'Der er ikke stillet kaution for lejers forpligtelser.',
    '',
  ].join('\n'),
});

const letter = buildDocx({
  header: para('{{company}}'),
  body: [
    para('{{city}}, {{letter_date}}'),
    para('Dear {{recipient}},'),
    para(
      'Welcome aboard. Your first day is {{first_day}} and your annual salary will be {{salary}}.',
    ),
    para('{{#remote}}You will work remotely; equipment ships to {{address}}.{{/remote}}'),
    para('Kind regards,'),
    para('{{sender}}'),
  ].join(''),
});

write('welcome-letter', {
  'template.docx': letter,
  'document.json': `${JSON.stringify(
    {
      name: 'Welcome letter',
      description: 'English letter using {{tag}} delimiters.',
      locale: 'en',
      delimiters: '{{ }}',
    },
    null,
    2,
  )}\n`,
  'fixtures/remote.tags.json': `${JSON.stringify(
    [
      { tag: 'company', value: 'Nordic Signing A/S', type: 'text' },
      { tag: 'city', value: 'Copenhagen', type: 'text' },
      { tag: 'letter_date', value: '2025-06-02', type: 'date', format: 'MMMM D, YYYY' },
      { tag: 'recipient', value: 'Sam Taylor', type: 'text' },
      { tag: 'first_day', value: '2025-07-01', type: 'date', format: 'dddd, MMMM D' },
      { tag: 'salary', value: 64000, type: 'number', format: "'EUR '#,##0" },
      { tag: 'remote', value: true, type: 'boolean' },
      { tag: 'address', value: '1 Main St, Springfield', type: 'text' },
      { tag: 'sender', value: 'Kim Berg', type: 'text' },
    ],
    null,
    2,
  )}\n`,
  'fixtures/remote.expected.txt': [
    'Copenhagen, June 2, 2025',
    'Dear Sam Taylor,',
    'Your first day is Tuesday, July 1 and your annual salary will be EUR 64,000.',
    'You will work remotely; equipment ships to 1 Main St, Springfield.',
    'Nordic Signing A/S',
    '',
  ].join('\n'),
});

process.stdout.write(`wrote sample templates under ${root}\n`);
