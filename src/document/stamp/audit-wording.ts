/** The audit trail's fixed wording, in the languages a case can have. */
export type AuditLanguage = 'da' | 'en';

export interface AuditWording {
  title: string;
  caseHeading: string;
  caseTitle: string;
  caseId: string;
  sender: string;
  created: string;
  recipientsHeading: string;
  method: string;
  methods: { draw: string; typed: string; eid: string };
  identity: string;
  status: string;
  statuses: { signed: string; denied: string; pending: string };
  time: string;
  ip: string;
  userAgent: string;
  denialReason: string;
  /** The heading of what the company's members did (a signing link taken). */
  actionsHeading: string;
  linkTaken: (by: string, position: number, name: string) => string;
  documentsHeading: string;
  sha256Shown: string;
  /** The label of a document kept by reference, before its link. */
  byReference: string;
  coveredBySeal: string;
  /** Said when some document was kept by reference: what the seal does not cover. */
  notCoveredBySeal: string;
  continued: string;
  page: (n: number, of: number) => string;
  signaturesTitle: string;
  signer: (n: number) => string;
  name: string;
  date: string;
  signature: string;
}

export const AUDIT_WORDING: Record<AuditLanguage, AuditWording> = {
  en: {
    title: 'Audit trail',
    caseHeading: 'Case',
    caseTitle: 'Title',
    caseId: 'Case id',
    sender: 'Sender',
    created: 'Created',
    recipientsHeading: 'Recipients',
    method: 'Method',
    methods: { draw: 'Drawn signature', typed: 'Typed name', eid: 'Electronic ID' },
    identity: 'Identity',
    status: 'Status',
    statuses: { signed: 'Signed', denied: 'Denied', pending: 'Not signed' },
    time: 'Time',
    ip: 'IP address',
    userAgent: 'User agent',
    denialReason: 'Reason given',
    actionsHeading: 'Actions by the sender’s company',
    linkTaken: (by, position, name) =>
      `${by} took the signing link of recipient ${position} (${name}) from the dashboard`,
    documentsHeading: 'Documents',
    sha256Shown: 'SHA-256 as shown to the signers',
    byReference: 'Link (not sealed)',
    coveredBySeal:
      "This file's digital seal (PAdES) covers the document and this audit trail: any change after sealing breaks the seal.",
    notCoveredBySeal:
      'A document given by link was signed by reference to that link: its content was not read here, and no seal covers what the link shows.',
    continued: 'continued',
    page: (n, of) => `Audit trail page ${n} of ${of}`,
    signaturesTitle: 'Signatures',
    signer: (n) => `Signer ${n}`,
    name: 'Name',
    date: 'Date',
    signature: 'Signature',
  },
  da: {
    title: 'Revisionsspor',
    caseHeading: 'Sag',
    caseTitle: 'Titel',
    caseId: 'Sags-id',
    sender: 'Afsender',
    created: 'Oprettet',
    recipientsHeading: 'Modtagere',
    method: 'Metode',
    methods: { draw: 'Tegnet underskrift', typed: 'Skrevet navn', eid: 'Elektronisk ID' },
    identity: 'Identitet',
    status: 'Status',
    statuses: { signed: 'Underskrevet', denied: 'Afvist', pending: 'Ikke underskrevet' },
    time: 'Tidspunkt',
    ip: 'IP-adresse',
    userAgent: 'Browser (user agent)',
    denialReason: 'Angivet begrundelse',
    actionsHeading: 'Handlinger i afsenderens virksomhed',
    linkTaken: (by, position, name) =>
      `${by} hentede underskriftslinket til modtager ${position} (${name}) i dashboardet`,
    documentsHeading: 'Dokumenter',
    sha256Shown: 'SHA-256 som vist for underskriverne',
    byReference: 'Link (ikke forseglet)',
    coveredBySeal:
      'Filens digitale segl (PAdES) dækker dokumentet og dette revisionsspor: enhver ændring efter forseglingen bryder seglet.',
    notCoveredBySeal:
      'Et dokument givet som link er underskrevet med henvisning til linket: dets indhold er ikke læst her, og intet segl dækker det, linket viser.',
    continued: 'fortsat',
    page: (n, of) => `Revisionsspor side ${n} af ${of}`,
    signaturesTitle: 'Underskrifter',
    signer: (n) => `Underskriver ${n}`,
    name: 'Navn',
    date: 'Dato',
    signature: 'Underskrift',
  },
};
