import { rgb, type EmbeddedFont, type PDF, type PDFPage } from '@libpdf/core';
import { writtenDateTime } from '../../base/util/index.js';
import { AUDIT_WORDING, type AuditLanguage, type AuditWording } from './audit-wording.js';
import { drawableText } from './drawable-text.js';
import { stampFont } from './stamp-fonts.js';
import { layoutField } from './field-layout.js';
import { wrapText } from './text-layout.js';

/** How a recipient signed. */
export type AuditMethod =
  | { kind: 'draw' }
  | { kind: 'typed' }
  /** An eID through the broker: the scheme (`urn:grn:authn:dk:mitid:substantial`) and claims. */
  | { kind: 'eid'; scheme: string; claims?: readonly { name: string; value: string }[] };

export interface AuditRecipient {
  /** 1-based position in the case's recipients[]. */
  position: number;
  name: string;
  email?: string;
  status: 'signed' | 'denied' | 'pending';
  method?: AuditMethod;
  /** When they signed or denied. */
  at?: Date;
  ip?: string;
  userAgent?: string;
  /** A denial's reason. */
  reason?: string;
}

export type AuditDocument =
  | {
      name: string;
      /** SHA-256 of the bytes shown to the signers, hex. */
      sha256: string;
    }
  | {
      name: string;
      /**
       * A document kept by reference (another host's URL): its link. Its bytes were never read,
       * so the trail says it was signed by reference and that the seal does not cover it.
       */
      byReference: string;
    };

/**
 * What a company's member did to the case that no recipient did: taking a pending signer's
 * signing link from the dashboard, so that a signature reached by a link that was handed on
 * says so in the sealed file.
 */
export interface AuditAction {
  kind: 'signing-link-taken';
  at: Date;
  /** The member, by name as it was then. */
  by: string;
  /** The recipient whose link it was: 1-based position and name. */
  recipient: { position: number; name: string };
}

/** What the audit trail records of a case. Every string in it is drawn as plain text. */
export interface AuditTrail {
  case: { id: string; title: string; sender: string; createdAt: Date };
  recipients: readonly AuditRecipient[];
  documents: readonly AuditDocument[];
  /** In the order they happened; the section is left out when there are none. */
  actions?: readonly AuditAction[];
}

/**
 * A claim that may hold a CPR number is left out whatever the broker called it: by its name, or
 * by a value of ten digits (with or without the dash). The audit trail never shows one.
 */
const CPR_NAME = /cpr/i;
const CPR_VALUE = /^\s*\d{6}-?\d{4}\s*$/;

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const BODY = 9;
const HEADING = 12;
const TITLE = 16;
const LEADING = 1.35;
const LABEL_WIDTH = 150;
/** Kept free between a label and its value, so a label that fills its column still reads apart. */
const LABEL_GAP = 8;
const GREY = rgb(0.35, 0.35, 0.35);
const BLACK = rgb(0, 0, 0);

/**
 * Appends the audit trail to `pdf` (in place) as one or more A4 pages at the end: the case, each
 * recipient (method, identity, status, time, IP address, user agent), each document's SHA-256 as
 * shown to the signers and a line saying the seal covers it. Times are written as the signing
 * page and the e-mails write them, to the second, in `timeZone` with its offset from UTC
 * (`4. marts 2026 kl. 06.06.07 (UTC+1)`). Long values wrap; what does not fit a page flows onto
 * the next. Returns the number of pages added.
 */
export function appendAuditTrail(
  pdf: PDF,
  audit: AuditTrail,
  language: AuditLanguage,
  timeZone: string,
): number {
  const w = AUDIT_WORDING[language];
  const time = (date: Date) => writtenDateTime(date, language, timeZone, { seconds: true });
  const writer = new PageWriter(pdf, w);
  writer.title(w.title);
  writer.heading(w.caseHeading);
  writer.field(w.caseTitle, audit.case.title);
  writer.field(w.caseId, audit.case.id);
  writer.field(w.sender, audit.case.sender);
  writer.field(w.created, time(audit.case.createdAt));
  writer.heading(w.recipientsHeading);
  for (const r of audit.recipients) {
    writer.subheading(`${r.position}. ${r.name}${r.email ? ` <${r.email}>` : ''}`);
    writer.field(w.status, w.statuses[r.status]);
    if (r.method) writer.field(w.method, methodText(r.method, w));
    const identity = identityText(r);
    if (identity) writer.field(w.identity, identity);
    if (r.at) writer.field(w.time, time(r.at));
    if (r.ip) writer.field(w.ip, r.ip);
    if (r.userAgent) writer.field(w.userAgent, r.userAgent);
    if (r.reason) writer.field(w.denialReason, r.reason);
  }
  if (audit.actions && audit.actions.length > 0) {
    writer.heading(w.actionsHeading);
    for (const a of audit.actions)
      writer.field(time(a.at), w.linkTaken(a.by, a.recipient.position, a.recipient.name));
  }
  writer.heading(w.documentsHeading);
  for (const d of audit.documents) {
    writer.subheading(d.name);
    if ('byReference' in d) writer.field(w.byReference, d.byReference);
    else writer.field(w.sha256Shown, d.sha256);
  }
  writer.space(BODY);
  writer.paragraph(w.coveredBySeal);
  if (audit.documents.some((d) => 'byReference' in d)) writer.paragraph(w.notCoveredBySeal);
  return writer.finish();
}

function methodText(method: AuditMethod, w: AuditWording): string {
  return method.kind === 'eid' ? `${w.methods.eid}: ${method.scheme}` : w.methods[method.kind];
}

/** The name signed with, and an eID's claims other than a CPR number. */
function identityText(r: AuditRecipient): string {
  if (r.method?.kind !== 'eid') return '';
  return (r.method.claims ?? [])
    .filter((c) => !CPR_NAME.test(c.name) && !CPR_VALUE.test(c.value))
    .map((c) => `${c.name}: ${c.value}`)
    .join('; ');
}

/** A cursor down A4 pages that starts a new page when the next line does not fit. */
class PageWriter {
  private readonly regular: EmbeddedFont;
  private readonly bold: EmbeddedFont;
  private readonly pages: PDFPage[] = [];
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly pdf: PDF,
    private readonly w: AuditWording,
  ) {
    this.regular = stampFont(pdf, 'regular');
    this.bold = stampFont(pdf, 'bold');
    this.newPage();
  }

  title(text: string): void {
    this.line(text, this.bold, TITLE, MARGIN);
    this.space(BODY);
  }

  heading(text: string): void {
    this.space(BODY * 0.6);
    this.ensure(HEADING * LEADING + BODY * LEADING * 2);
    this.line(text, this.bold, HEADING, MARGIN);
  }

  subheading(text: string): void {
    this.space(BODY * 0.5);
    this.ensure(BODY * LEADING * 3);
    this.wrapped(text, this.bold, MARGIN, PAGE.width - 2 * MARGIN);
  }

  /** A label and a value beside it, each wrapped within its own column so they never overlap. */
  field(label: string, value: string): void {
    const layout = layoutField(label, value, this.regular, BODY, {
      labelX: MARGIN,
      valueX: MARGIN + LABEL_WIDTH,
      valueWidth: PAGE.width - 2 * MARGIN - LABEL_WIDTH,
      gap: LABEL_GAP,
    });
    for (let row = 0; row < layout.rows; row++) {
      this.ensure(BODY * LEADING);
      for (const b of layout.label.filter((l) => l.row === row))
        this.draw(b.text, this.regular, BODY, b.x, GREY);
      for (const b of layout.value.filter((v) => v.row === row))
        this.draw(b.text, this.regular, BODY, b.x, BLACK);
      this.y -= BODY * LEADING;
    }
  }

  paragraph(text: string): void {
    this.wrapped(text, this.regular, MARGIN, PAGE.width - 2 * MARGIN);
  }

  space(points: number): void {
    this.y -= points;
  }

  /** Numbers the pages added ("page n of m"), and answers how many there are. */
  finish(): number {
    this.pages.forEach((page, i) =>
      page.drawText(this.w.page(i + 1, this.pages.length), {
        x: MARGIN,
        y: MARGIN / 2,
        font: this.regular,
        size: 7,
        color: GREY,
      }),
    );
    return this.pages.length;
  }

  private wrapped(text: string, font: EmbeddedFont, x: number, width: number): void {
    for (const line of wrapText(drawableText(text, font), font, BODY, width)) {
      this.ensure(BODY * LEADING);
      this.line(line, font, BODY, x);
    }
  }

  private line(text: string, font: EmbeddedFont, size: number, x: number): void {
    this.draw(drawableText(text, font), font, size, x, BLACK);
    this.y -= size * LEADING;
  }

  private draw(text: string, font: EmbeddedFont, size: number, x: number, color: typeof BLACK) {
    this.page.drawText(text, { x, y: this.y - size, font, size, color });
  }

  private ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.newPage();
    this.line(`${this.w.title} (${this.w.continued})`, this.bold, HEADING, MARGIN);
    this.space(BODY * 0.5);
  }

  private newPage(): void {
    this.page = this.pdf.addPage({ width: PAGE.width, height: PAGE.height });
    this.pages.push(this.page);
    this.y = PAGE.height - MARGIN;
  }
}
