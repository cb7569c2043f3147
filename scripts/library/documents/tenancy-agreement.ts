import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks, signatureRows } from '../kit/signatures.js';
import { factsTable, gridTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

const look: Look = {
  lang: 'en',
  wordLanguage: 'en-GB',
  body: 'Arial',
  headings: 'Arial',
  size: 10,
  accent: '1D5C63',
  clauses: '%1.',
  justify: false,
  delimiters: ['{', '}'],
};

const DATE = 'D MMMM YYYY';
const POUNDS = '#,##0.00';

const fields = {
  agreement_date: field.date(DATE, 'the date of the agreement'),
  landlord_name: field.text('the landlord'),
  landlord_address: field.text('the landlord’s address for service in England and Wales'),
  tenants: field.list('the tenants, each signing: joint and several', {
    name: field.text('a tenant’s full name'),
    email: field.text('a tenant’s email address for notices'),
  }),
  property_address: field.text('the property let'),
  start_date: field.date(DATE, 'the first day of the tenancy'),
  end_date: field.date(DATE, 'the last day of the fixed term'),
  term_months: field.number('0', 'the fixed term in months'),
  rent: field.number(POUNDS, 'monthly rent in pounds'),
  deposit: field.number(POUNDS, 'the deposit in pounds (at most five weeks’ rent)'),
  deposit_scheme: field.text('the government-authorised deposit protection scheme'),
  furnished: field.flag('let furnished, with an inventory'),
  pets_allowed: field.flag('whether the tenant may keep the pet described'),
  pet_description: field.text('the animal the tenant may keep'),
  break_clause: field.flag('whether either party may end the tenancy early'),
  break_after_months: field.number('0', 'months before notice under the break clause can end it'),
  break_notice_months: field.number('0', 'months of notice under the break clause'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Assured Shorthold Tenancy Agreement',
    subject: 'Residential tenancy',
    header: { left: '{landlord_name}', right: 'Assured Shorthold Tenancy Agreement' },
    footer: '{property_address}',
    body: [
      b.title('Assured Shorthold Tenancy Agreement'),
      b.subtitle('For letting a furnished or unfurnished dwelling house or flat'),
      b.p(
        'This agreement is made on **{agreement_date}** between the Landlord and the Tenant named below. It creates an assured shorthold tenancy as defined in section 19A of the Housing Act 1988.',
      ),
      b.h2('Particulars'),
      factsTable(look, [
        ['Landlord', ['**{landlord_name}**', '{landlord_address}']],
        ['Property', '{property_address}'],
        ['Term', '{term_months} months, from {start_date} to {end_date}'],
        ['Rent', '£{rent} per calendar month, payable in advance'],
        ['Deposit', '£{deposit}, protected with {deposit_scheme}'],
      ]),
      b.h2('The Tenant'),
      gridTable(
        look,
        [
          { heading: 'Tenant', share: 0.5 },
          { heading: 'Email for notices', share: 0.5 },
        ],
        [['{#tenants}**{name}**', '{email}{/tenants}']],
      ),
      b.h1('The tenancy'),
      b.clause(
        'The Landlord lets the Property to the Tenant for the Term on the terms of this agreement.',
      ),
      b.clause(
        'Where the Tenant is more than one person, their obligations are joint and several: each of them is responsible for the whole of the rent and for all of the Tenant’s obligations.',
      ),
      b.h1('Rent'),
      b.clause(
        'The Tenant shall pay the rent of **£{rent}** per calendar month in advance by standing order, the first payment on or before {start_date} and then on the same day of each following month.',
      ),
      b.clause(
        'If rent is more than 14 days late, the Landlord may charge interest at 3% a year above the Bank of England base rate from the date it was due until it is paid.',
      ),
      b.h1('Deposit'),
      b.clause(
        'The Tenant shall pay a deposit of **£{deposit}** on signing this agreement. The Landlord shall protect it with {deposit_scheme} within 30 days of receiving it and give the Tenant the prescribed information about the scheme.',
      ),
      b.clause(
        'The deposit will be returned within 10 days of the parties agreeing the deductions at the end of the tenancy, less any sums properly due for unpaid rent, damage beyond fair wear and tear, or other breaches of this agreement. Disputes may be referred to the scheme’s free dispute resolution service.',
      ),
      b.h1('The Tenant’s obligations'),
      b.clause('The Tenant shall:'),
      b.bullets(
        'pay the council tax and the charges for water, gas, electricity, telephone and broadband at the Property during the tenancy;',
        'keep the interior of the Property clean and in good condition, fair wear and tear excepted;',
        'report promptly to the Landlord any disrepair or defect in the Property;',
        'not sublet, assign or part with possession of the Property or any part of it;',
        'not cause a nuisance or annoyance to neighbours; and',
        'allow the Landlord or its contractors access at reasonable times, on at least 24 hours’ written notice, to inspect the Property or carry out repairs.',
      ),
      b.clause(
        '{#pets_allowed}The Tenant may keep {pet_description} at the Property. The Tenant shall make good any damage the animal causes and have the Property professionally cleaned at the end of the tenancy.{/pets_allowed}{^pets_allowed}The Tenant shall not keep any animal at the Property without the Landlord’s prior written consent, which shall not be unreasonably withheld.{/pets_allowed}',
      ),
      b.h1('The Landlord’s obligations'),
      b.clause('The Landlord shall:'),
      b.bullets(
        'allow the Tenant quiet enjoyment of the Property during the tenancy;',
        'keep in repair the structure and exterior of the Property and the installations for water, gas, electricity, sanitation and heating, as section 11 of the Landlord and Tenant Act 1985 requires;',
        'have the gas appliances checked every year by a Gas Safe registered engineer and give the Tenant a copy of the certificate; and',
        'insure the building against fire and other usual risks.',
      ),
      b.h1('Furniture and inventory'),
      b.when(
        'furnished',
        b.clause(
          'The Property is let furnished. The furniture and effects are listed in the inventory that the parties sign at the start of the tenancy.',
        ),
        b.clause(
          'The Tenant shall keep them in the same condition as at the start, fair wear and tear excepted, and shall replace or pay for any item lost or damaged.',
        ),
      ),
      b.unless(
        'furnished',
        b.clause(
          'The Property is let unfurnished. Any item the Landlord leaves at the Property is recorded in the check-in report and remains the Landlord’s.',
        ),
      ),
      b.h1('Ending the tenancy'),
      b.clause(
        '{#break_clause}Either party may end this tenancy once {break_after_months} months of the Term have passed by giving the other at least {break_notice_months} months’ notice in writing; a notice from the Landlord must also meet the requirements of section 21 of the Housing Act 1988.{/break_clause}{^break_clause}Neither party may end the tenancy before the end of the Term, except as the law allows.{/break_clause}',
      ),
      b.clause(
        'At the end of the tenancy the Tenant shall return all keys and leave the Property clean and clear of the Tenant’s belongings.',
      ),
      b.h1('Notices'),
      b.clause(
        'The Landlord’s address for service of notices, including notices in proceedings, is {landlord_address} (section 48 of the Landlord and Tenant Act 1987). Notices may also be given by email to the addresses above.',
      ),
      b.h2('Signatures'),
      b.p('Signed by the Landlord and by each Tenant on the dates below.', { keepNext: true }),
      signatureBlocks(look, [{ role: 'Landlord', name: '{landlord_name}', recipient: 1 }]),
      b.p('Each Tenant:', { keepNext: true, spacing: { before: 120 } }),
      signatureRows(look, 'tenants', '{name}', 'Tenant'),
    ],
  });
}

const furnished = {
  agreement_date: '2025-08-18',
  landlord_name: 'Ashworth Lettings Ltd',
  landlord_address: '3 Regent Street, Cambridge CB2 1AB',
  tenants: [
    { name: 'Emily Carter', email: 'emily.carter@example.co.uk' },
    { name: 'Tomasz Nowak', email: 't.nowak@example.com' },
  ],
  property_address: 'Flat 4, 27 Mill Road, Cambridge CB1 2AD',
  start_date: '2025-09-01',
  end_date: '2026-08-31',
  term_months: 12,
  rent: 1650,
  deposit: 1903.84,
  deposit_scheme: 'the Deposit Protection Service',
  furnished: true,
  pets_allowed: true,
  pet_description: 'one indoor cat',
  break_clause: true,
  break_after_months: 6,
  break_notice_months: 2,
};

const unfurnished = {
  agreement_date: '2025-12-02',
  landlord_name: 'Margaret Ellis',
  landlord_address: '12 Orchard Close, Bath BA2 4JP',
  tenants: [{ name: 'Daniel Okafor', email: 'daniel.okafor@example.net' }],
  property_address: '9 Belvedere Terrace, Bristol BS6 5QA',
  start_date: '2026-01-05',
  end_date: '2026-07-04',
  term_months: 6,
  rent: 1125.5,
  deposit: 1298.65,
  deposit_scheme: 'mydeposits',
  furnished: false,
  pets_allowed: false,
  break_clause: false,
};

export const tenancyAgreement: LibraryDocument = {
  id: 'tenancy-agreement',
  meta: {
    name: 'Assured Shorthold Tenancy Agreement',
    description:
      'Residential lease (English, England and Wales) for one or more joint tenants, each signing: optional furniture, pet and break clauses; the tenants are a list.',
    locale: 'en-GB',
    timeZone: 'Europe/London',
    signers: [
      { role: 'the landlord', name: 'landlord_name' },
      { role: 'each tenant, in list order', name: 'name', list: 'tenants' },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'furnished-with-break',
      tags: tagInputs(fields, furnished),
      expected: [
        'This agreement is made on 18 August 2025 between the Landlord and the Tenant',
        'Ashworth Lettings Ltd',
        'Flat 4, 27 Mill Road, Cambridge CB1 2AD',
        '12 months, from 1 September 2025 to 31 August 2026',
        '£1,650.00 per calendar month',
        '£1,903.84, protected with the Deposit Protection Service',
        'Emily Carter',
        't.nowak@example.com',
        'The Tenant may keep one indoor cat at the Property.',
        'The Property is let furnished.',
        'once 6 months of the Term have passed by giving the other at least 2 months’ notice',
        'Tomasz Nowak',
      ],
    },
    {
      name: 'unfurnished',
      tags: tagInputs(fields, unfurnished),
      expected: [
        'This agreement is made on 2 December 2025',
        'Margaret Ellis',
        '6 months, from 5 January 2026 to 4 July 2026',
        '£1,125.50 per calendar month',
        '£1,298.65, protected with mydeposits',
        'Daniel Okafor',
        'daniel.okafor@example.net',
        'The Tenant shall not keep any animal at the Property without the Landlord’s prior written consent',
        'The Property is let unfurnished.',
        'Neither party may end the tenancy before the end of the Term',
        'is 12 Orchard Close, Bath BA2 4JP (section 48',
      ],
    },
  ],
};
