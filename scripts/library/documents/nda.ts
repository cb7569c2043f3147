import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks } from '../kit/signatures.js';
import { factsTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

/** The one library document with `{{tag}}` delimiters, as many law-firm templates have. */
const look: Look = {
  lang: 'en',
  wordLanguage: 'en-GB',
  body: 'Times New Roman',
  headings: 'Times New Roman',
  size: 11,
  accent: '17365D',
  clauses: '%1.',
  justify: true,
  delimiters: ['{{', '}}'],
};

const DATE = 'D MMMM YYYY';

const fields = {
  agreement_date: field.date(DATE, 'the date the agreement is made'),
  mutual: field.flag('both parties disclose (mutual) or only the Company does (one-way)'),
  company_name: field.text('the first party (the Company)'),
  company_reg_no: field.text('the Company’s registration number'),
  company_address: field.text('the Company’s registered office'),
  counterparty_name: field.text('the second party (the Counterparty)'),
  counterparty_reg_no: field.text('the Counterparty’s registration number'),
  counterparty_address: field.text('the Counterparty’s registered office'),
  purpose: field.text('what the parties discuss, completing “The parties wish to …”'),
  term_years: field.number('0', 'years the agreement runs'),
  confidentiality_years: field.number('0', 'years confidentiality lasts after the agreement ends'),
  non_solicit: field.flag('whether the parties agree not to poach each other’s employees'),
  non_solicit_months: field.number('0', 'months the non-solicitation lasts after the agreement'),
  governing_law: field.text('the law that governs, such as “Denmark”'),
  courts: field.text('the courts with jurisdiction, such as “courts of Copenhagen”'),
  company_signatory_name: field.text('who signs for the Company'),
  company_signatory_title: field.text('the Company signatory’s title'),
  counterparty_signatory_name: field.text('who signs for the Counterparty'),
  counterparty_signatory_title: field.text('the Counterparty signatory’s title'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Non-Disclosure Agreement',
    subject: 'Confidentiality agreement',
    header: { left: '{{company_name}}', right: 'Non-Disclosure Agreement' },
    footer: 'Confidential',
    body: [
      b.title('{{#mutual}}Mutual {{/mutual}}Non-Disclosure Agreement'),
      b.subtitle('Agreement for the protection of confidential information'),
      b.p('**This Agreement** is made on {{agreement_date}} between:'),
      factsTable(look, [
        [
          'The Company',
          ['**{{company_name}}**', 'Registration no. {{company_reg_no}}', '{{company_address}}'],
        ],
        [
          'The Counterparty',
          [
            '**{{counterparty_name}}**',
            'Registration no. {{counterparty_reg_no}}',
            '{{counterparty_address}}',
          ],
        ],
      ]),
      b.h2('Background'),
      b.lettered(
        'The parties wish to {{purpose}} (the “Purpose”).',
        '{{#mutual}}In connection with the Purpose each party expects to disclose Confidential Information to the other. This Agreement sets out the terms on which each party, as Recipient, will hold the other party’s Confidential Information.{{/mutual}}{{^mutual}}In connection with the Purpose the Company expects to disclose Confidential Information to the Counterparty. This Agreement sets out the terms on which the Counterparty, as Recipient, will hold the Company’s Confidential Information.{{/mutual}}',
      ),
      b.h1('Definitions'),
      b.clause(
        '“Confidential Information” means all information of a confidential nature, in whatever form, disclosed by or on behalf of the Discloser to the Recipient, before or after the date of this Agreement, in connection with the Purpose, including:',
      ),
      b.lettered(
        'business plans, forecasts, prices, and information about customers and suppliers;',
        'technical information, source code, designs, specifications and know-how;',
        'information about employees and contractors and the terms on which they are engaged; and',
        'the existence and terms of this Agreement and of the discussions between the parties.',
      ),
      b.clause(
        '“Discloser” means {{#mutual}}the party disclosing Confidential Information{{/mutual}}{{^mutual}}the Company{{/mutual}}, and “Recipient” means {{#mutual}}the party receiving it{{/mutual}}{{^mutual}}the Counterparty{{/mutual}}. “Representatives” means the Recipient’s directors, employees, professional advisers and financiers who need to know the Confidential Information for the Purpose.',
      ),
      b.h1('Obligations of confidentiality'),
      b.clause('The Recipient shall:'),
      b.lettered(
        'keep the Confidential Information secret and use it only for the Purpose;',
        'not disclose it to any person other than its Representatives, and ensure that each Representative is bound by obligations of confidentiality no less strict than those in this Agreement;',
        'protect it with at least the care it uses for its own confidential information, and never less than reasonable care; and',
        'promptly notify the Discloser of any unauthorised use or disclosure that comes to its attention.',
      ),
      b.clause(
        'The Recipient is responsible for any act or omission of its Representatives that would be a breach of this Agreement if done by the Recipient.',
      ),
      b.h1('Exceptions'),
      b.clause(
        'The obligations in clause 2 do not apply to information that the Recipient can show:',
      ),
      b.bullets(
        'is or becomes publicly available other than through a breach of this Agreement;',
        'was lawfully in its possession, free of any duty of confidence, before the Discloser disclosed it;',
        'is received from a third party who is free to disclose it; or',
        'is developed independently, without use of the Confidential Information.',
      ),
      b.clause(
        'The Recipient may disclose Confidential Information to the extent required by law, by a court or by a regulator, provided that, where the law allows, it gives the Discloser prompt notice and reasonable help to seek a protective order.',
      ),
      b.h1('Term and return of information'),
      b.clause(
        'This Agreement starts on the date above and continues for {{term_years}} years. The obligations of confidentiality continue for {{confidentiality_years}} years after this Agreement ends.',
      ),
      b.clause(
        'On the Discloser’s written request the Recipient shall promptly return or destroy all documents and materials containing Confidential Information and confirm in writing that it has done so, except for copies it must keep by law or that are held in routine electronic back-ups, which remain subject to this Agreement.',
      ),
      b.when(
        'non_solicit',
        b.h1('Non-solicitation'),
        b.clause(
          'During this Agreement and for {{non_solicit_months}} months after it ends, neither party shall, without the other’s prior written consent, solicit or entice away any employee of the other party with whom it had contact in connection with the Purpose. General advertisements not aimed at those employees are not a breach of this clause.',
        ),
      ),
      b.h1('No licence and no warranty'),
      b.clause(
        'All Confidential Information remains the property of the Discloser. This Agreement grants no licence under any patent, copyright or other intellectual property right.',
      ),
      b.clause(
        'Confidential Information is provided “as is”. The Discloser gives no warranty as to its accuracy or completeness, and neither party is obliged to enter into any further agreement.',
      ),
      b.h1('Remedies'),
      b.clause(
        'Damages alone may not be an adequate remedy for a breach of this Agreement. The Discloser may seek an injunction or specific performance for any threatened or actual breach, in addition to any other remedy.',
      ),
      b.h1('General'),
      b.clause(
        'This Agreement is the entire agreement between the parties about its subject matter and may be changed only in writing signed by both parties.{{^non_solicit}} Nothing in this Agreement restricts either party from recruiting or employing any person.{{/non_solicit}}',
      ),
      b.clause(
        'This Agreement may be signed electronically and in counterparts, each of which is an original and which together are one agreement.',
      ),
      b.clause(
        'This Agreement and any dispute arising from it are governed by the laws of {{governing_law}}, and the {{courts}} have exclusive jurisdiction.',
      ),
      b.p('**Signed** by the parties on the dates below.', {
        keepNext: true,
        spacing: { before: 360, after: 240 },
      }),
      signatureBlocks(look, [
        {
          role: 'For {{company_name}}',
          name: '{{company_signatory_name}}',
          title: '{{company_signatory_title}}',
          recipient: 1,
        },
        {
          role: 'For {{counterparty_name}}',
          name: '{{counterparty_signatory_name}}',
          title: '{{counterparty_signatory_title}}',
          recipient: 2,
        },
      ]),
    ],
  });
}

const mutual = {
  agreement_date: '2025-03-03',
  mutual: true,
  company_name: 'Nordic Signing A/S',
  company_reg_no: '39 12 84 55',
  company_address: 'Kalvebod Brygge 45, 1560 Copenhagen V, Denmark',
  counterparty_name: 'Fjeldstad Analytics AS',
  counterparty_reg_no: '921 555 301',
  counterparty_address: 'Dronning Eufemias gate 16, 0191 Oslo, Norway',
  purpose: 'evaluate a joint offering of electronic signing and document analytics',
  term_years: 2,
  confidentiality_years: 5,
  non_solicit: true,
  non_solicit_months: 12,
  governing_law: 'Denmark',
  courts: 'courts of Copenhagen',
  company_signatory_name: 'Camilla Friis',
  company_signatory_title: 'Chief Executive Officer',
  counterparty_signatory_name: 'Henrik Fjeldstad',
  counterparty_signatory_title: 'Managing Director',
};

const oneWay = {
  agreement_date: '2025-11-20',
  mutual: false,
  company_name: 'Harbour & Finch Ltd',
  company_reg_no: '11820457',
  company_address: '14 Quayside, Newcastle upon Tyne NE1 3DX, United Kingdom',
  counterparty_name: 'Penrose Print Solutions Ltd',
  counterparty_reg_no: '09344120',
  counterparty_address: 'Unit 7, Riverside Park, Leeds LS10 1QN, United Kingdom',
  purpose: 'discuss the outsourcing of the Company’s printed customer correspondence',
  term_years: 3,
  confidentiality_years: 5,
  non_solicit: false,
  governing_law: 'England and Wales',
  courts: 'courts of England and Wales',
  company_signatory_name: 'Olivia Finch',
  company_signatory_title: 'Director',
  counterparty_signatory_name: 'Raj Patel',
  counterparty_signatory_title: 'Operations Director',
};

export const nda: LibraryDocument = {
  id: 'nda',
  meta: {
    name: 'Non-Disclosure Agreement',
    description:
      'Confidentiality agreement (English), mutual or one-way, with an optional non-solicitation clause; uses {{tag}} delimiters.',
    locale: 'en',
    timeZone: 'Europe/Copenhagen',
    delimiters: '{{ }}',
    signers: [
      { role: 'the Company’s signatory', name: 'company_signatory_name' },
      { role: 'the Counterparty’s signatory', name: 'counterparty_signatory_name' },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'mutual',
      tags: tagInputs(fields, mutual),
      expected: [
        'Mutual Non-Disclosure Agreement',
        'This Agreement is made on 3 March 2025 between:',
        'Registration no. 921 555 301',
        'The parties wish to evaluate a joint offering of electronic signing and document analytics (the “Purpose”).',
        'each party expects to disclose Confidential Information to the other',
        '“Discloser” means the party disclosing Confidential Information, and “Recipient” means the party receiving it.',
        'continues for 2 years',
        'continue for 5 years after this Agreement ends',
        'for 12 months after it ends, neither party shall',
        'governed by the laws of Denmark, and the courts of Copenhagen have exclusive jurisdiction',
        'For Fjeldstad Analytics AS',
        'Name: Henrik Fjeldstad',
        'Title: Chief Executive Officer',
      ],
    },
    {
      name: 'one-way',
      tags: tagInputs(fields, oneWay),
      expected: [
        'This Agreement is made on 20 November 2025 between:',
        'Harbour & Finch Ltd',
        'the Company expects to disclose Confidential Information to the Counterparty',
        '“Discloser” means the Company, and “Recipient” means the Counterparty.',
        'continues for 3 years',
        'Nothing in this Agreement restricts either party from recruiting or employing any person.',
        'governed by the laws of England and Wales',
        'Name: Raj Patel',
        'Title: Operations Director',
      ],
    },
  ],
};
