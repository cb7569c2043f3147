import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDF } from '@libpdf/core';
import { describe, expect, it } from 'vitest';
import { writtenDateTime } from '../../src/base/util/index.js';
import { appendAuditTrail } from '../../src/document/stamp/audit-trail.js';
import { AUDIT_WORDING } from '../../src/document/stamp/audit-wording.js';
import { layoutField, type FieldBox } from '../../src/document/stamp/field-layout.js';
import { stampFont } from '../../src/document/stamp/stamp-fonts.js';

// The audit trail's columns (src/document/stamp/audit-trail.ts): a label beside its value.
const COLUMNS = { labelX: 56, valueX: 206, valueWidth: 333.28, gap: 8 };
const SIZE = 9;

/** Two boxes on the same row overlap when their spans cross (or come closer than the gap). */
function overlapping(a: readonly FieldBox[], b: readonly FieldBox[], gap: number): string[] {
  const found: string[] = [];
  for (const l of a)
    for (const v of b)
      if (l.row === v.row && l.x < v.x + v.width && v.x < l.x + l.width + gap)
        found.push(`row ${l.row}: "${l.text}" / "${v.text}"`);
  return found;
}

describe('audit trail field layout', () => {
  const pdf = PDF.create();
  const font = stampFont(pdf, 'regular');
  const longName = 'Nina Bartholomæussen-Kristoffersdatter Wilhelmine Ottosen';
  const at = new Date('2026-03-04T05:06:07Z');

  for (const language of ['da', 'en'] as const) {
    it(`keeps a long time label apart from the actor's name (${language})`, () => {
      const w = AUDIT_WORDING[language];
      // A long zone name makes the time text as long as it gets.
      const time = writtenDateTime(at, language, 'America/Argentina/Buenos_Aires', {
        seconds: true,
      });
      const layout = layoutField(time, w.linkTaken(longName, 12, longName), font, SIZE, COLUMNS);
      expect(overlapping(layout.label, layout.value, COLUMNS.gap)).toEqual([]);
      for (const b of layout.label)
        expect(b.x + b.width).toBeLessThanOrEqual(COLUMNS.valueX - COLUMNS.gap);
      for (const b of layout.value)
        expect(b.x + b.width).toBeLessThanOrEqual(COLUMNS.valueX + COLUMNS.valueWidth);
      // Nothing is lost by the wrapping.
      expect(layout.label.map((b) => b.text).join(' ')).toBe(time);
    });
  }

  it('wraps a label longer than its column onto further rows', () => {
    const label = '4. marts 2026 kl. 06.06.07 (UTC+1) '.repeat(3).trim();
    const layout = layoutField(label, 'Nina User', font, SIZE, COLUMNS);
    expect(layout.label.length).toBeGreaterThan(1);
    expect(layout.rows).toBe(layout.label.length);
    expect(overlapping(layout.label, layout.value, COLUMNS.gap)).toEqual([]);
  });
});

describe('audit trail page', () => {
  it('draws no word over another, for a long actor name and time (both languages)', async () => {
    for (const language of ['da', 'en'] as const) {
      const pdf = PDF.create();
      const at = new Date('2026-03-04T05:06:07Z');
      const name = 'Nina Bartholomæussen-Kristoffersdatter User';
      appendAuditTrail(
        pdf,
        {
          case: { id: 'case_1', title: 'Lejekontrakt', sender: 'Firma ApS', createdAt: at },
          recipients: [{ position: 1, name, status: 'pending' }],
          documents: [{ name: 'kontrakt.pdf', sha256: 'ab'.repeat(32) }],
          actions: [{ kind: 'signing-link-taken', at, by: name, recipient: { position: 1, name } }],
        },
        language,
        'America/Argentina/Buenos_Aires',
      );
      const dir = mkdtempSync(join(tmpdir(), 'audit-'));
      const file = join(dir, 'audit.pdf');
      writeFileSync(file, await pdf.save());
      const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
      const words = [
        ...html.matchAll(/xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g),
      ].map((m) => ({ x0: Number(m[1]), y: Number(m[2]), x1: Number(m[3]), text: m[4] }));
      expect(words.length).toBeGreaterThan(20);
      const clashes = words.flatMap((a, i) =>
        words
          .slice(i + 1)
          .filter((b) => Math.abs(a.y - b.y) < 1 && a.x0 < b.x1 - 0.5 && b.x0 < a.x1 - 0.5)
          .map((b) => `${language}: "${a.text}" over "${b.text}"`),
      );
      expect(clashes).toEqual([]);
      // pdftotext joins glyphs drawn over each other into one word, so also: on a row with a
      // value (a word starting at the value column) no label word reaches into that column.
      const valueRows = new Set(words.filter((w) => Math.abs(w.x0 - 206) < 1).map((w) => w.y));
      const intoValue = words
        .filter((w) => valueRows.has(w.y) && w.x0 < 205 && w.x1 > 206 - 8)
        .map((w) => `${language}: "${w.text}"`);
      expect(intoValue).toEqual([]);
    }
  });
});
