import { describe, expect, it } from 'vitest';
import {
  MARKER_PATTERN,
  TEXT_TAG_PATTERN,
  markerRunXml,
  markerText,
  markerWidth,
  nearMissAnchor,
  placedAnchor,
  placesFromMarkers,
  placesFromTextTags,
  readAnchor,
  readMarker,
  readTextTag,
  type FoundText,
} from '../../src/document/anchors/index.js';

const A4 = { width: 595.3, height: 841.9 };

describe('anchor grammar', () => {
  it('reads the four kinds with a recipient from 1 to 99', () => {
    expect(readAnchor('sign:1')).toEqual({ status: 'anchor', kind: 'sign', recipient: 1 });
    expect(readAnchor('initials:2')).toEqual({ status: 'anchor', kind: 'initials', recipient: 2 });
    expect(readAnchor('name:10')).toEqual({ status: 'anchor', kind: 'name', recipient: 10 });
    expect(readAnchor('date:99')).toEqual({ status: 'anchor', kind: 'date', recipient: 99 });
  });

  it.each([
    ['sign:0', 'names recipient 0', 'sign:1'],
    ['sign:100', 'names recipient 100', 'sign:1'],
    ['sign:x', 'is not an anchor', 'sign:1'],
    ['sign:', 'names no recipient', 'sign:1'],
    ['sign', 'names no recipient', 'sign:1'],
    ['initials', 'names no recipient', 'initials:1'],
    ['sign:1 ', 'has spaces', 'sign:1'],
    [' date:2', 'has spaces', 'date:2'],
    ['Sign:1', 'lower case', 'sign:1'],
    ['sign:01', 'leading zero', 'sign:1'],
    ['sign1', 'no colon', 'sign:1'],
    ['name:x', 'is not an anchor', 'name:1'],
  ])('refuses %j as a malformed anchor', (content, problem, suggestion) => {
    const read = readAnchor(content);
    expect(read.status).toBe('malformed');
    expect(read).toMatchObject({ suggestion });
    expect((read as { problem: string }).problem).toContain(problem);
  });

  it('leaves ordinary tags alone, {name} and {date} among them', () => {
    for (const tag of [
      'name',
      'date',
      'signature',
      'signing_date',
      'client',
      '#items',
      'sign_date',
    ])
      expect(readAnchor(tag)).toEqual({ status: 'other' });
  });

  it('names the anchor a near miss meant, for lint', () => {
    expect(nearMissAnchor('sgn:1')).toBe('sign:1');
    expect(nearMissAnchor('signature:2')).toBe('sign:2');
    expect(nearMissAnchor('initals:1')).toBe('initials:1');
    expect(nearMissAnchor('dato:3')).toBe('date:3');
    expect(nearMissAnchor('sign:1')).toBeUndefined();
    expect(nearMissAnchor('client:1')).toBeUndefined();
    expect(nearMissAnchor('sgn')).toBeUndefined();
  });
});

describe('markers', () => {
  it('writes DP, the kind letter, the recipient, the serial, and x up to the kind length', () => {
    expect(markerText('sign', 1, 1)).toBe('DPS01001xxxx');
    expect(markerText('initials', 12, 7)).toBe('DPI12007');
    expect(markerText('name', 3, 42)).toBe('DPN03042xxxxxxxxxxxxxxxx');
    expect(markerText('date', 99, 999)).toBe('DPD99999xxxxxx');
    for (const [kind, length] of [
      ['sign', 12],
      ['initials', 8],
      ['name', 24],
      ['date', 14],
    ] as const)
      expect(markerText(kind, 1, 1)).toHaveLength(length);
  });

  it('matches the shared pattern and reads back only whole markers', () => {
    const m = markerText('name', 3, 42);
    expect([...m.matchAll(MARKER_PATTERN)].map((x) => x[0])).toEqual([m]);
    expect(readMarker(m)).toEqual(placedAnchor('name', 3, 42));
    expect(readMarker(m.slice(0, 12))).toBeUndefined();
    expect(readMarker('DPS01001xx')).toBeUndefined();
  });

  it('sizes each kind: sign 24 pt, initials 14, name and date 10, in Liberation Mono', () => {
    const xml = markerRunXml('sign', 'DPS01001xxxx');
    expect(xml).toContain('w:ascii="Liberation Mono"');
    expect(xml).toContain('<w:sz w:val="48"/>');
    expect(xml).toContain('<w:noProof/>');
    expect(xml).toContain('<w:kern w:val="0"/>');
    expect(xml).toContain('<w:t>DPS01001xxxx</w:t>');
    expect(markerRunXml('initials', 'DPI01002')).toContain('<w:sz w:val="28"/>');
    expect(markerRunXml('date', 'DPD01003xxxxxx')).toContain('<w:sz w:val="20"/>');
    expect(markerWidth('sign')).toBeCloseTo(172.8);
    expect(markerWidth('date')).toBeCloseTo(84);
  });
});

describe('text tags', () => {
  it('reads {{kind:N}}, spaces inside allowed', () => {
    expect(readTextTag('{{sign:1}}')).toEqual({ kind: 'sign', recipient: 1 });
    expect(readTextTag('{{ date : 2 }}')).toEqual({ kind: 'date', recipient: 2 });
    expect(readTextTag('{sign:1}')).toBeUndefined();
    expect(readTextTag('{{sign:0}}')).toBeUndefined();
    const found = [...'Sign {{sign:1}} on {{date:2}}'.matchAll(TEXT_TAG_PATTERN)].map((m) => m[0]);
    expect(found).toEqual(['{{sign:1}}', '{{date:2}}']);
  });
});

const at = (page: number, text: string, x: number, y: number, width: number): FoundText => ({
  page,
  text,
  rect: { x, y, width, height: 20 },
});

describe('places from markers', () => {
  const sign = placedAnchor('sign', 1, 1);
  const date = placedAnchor('date', 2, 2);
  const head = placedAnchor('initials', 1, 3);

  it('gives one place per marker found, a header anchor one per page', () => {
    const found = [
      at(2, head.marker, 400, 800, markerWidth('initials')),
      at(1, sign.marker, 72, 500, markerWidth('sign')),
      at(1, date.marker, 72, 400, markerWidth('date')),
      at(1, head.marker, 400, 800, markerWidth('initials')),
    ];
    const out = placesFromMarkers([sign, date, head], found, [A4, A4], 'documents[0]');
    expect(out.problems).toEqual([]);
    expect(out.places.map((p) => [p.kind, p.recipient, p.page])).toEqual([
      ['sign', 1, 1],
      ['date', 2, 1],
      ['initials', 1, 1],
      ['initials', 1, 2],
    ]);
    expect(out.places[0]!.rect).toEqual({ x: 72, y: 500, width: markerWidth('sign'), height: 20 });
    expect(out.markers).toHaveLength(4);
  });

  it('names an anchor lost in conversion, and one broken over two lines', () => {
    const found = [at(1, sign.marker.slice(0, 9), 72, 500, 100)];
    const out = placesFromMarkers([sign, date], found, [A4], 'documents[1]');
    expect(out.places).toEqual([]);
    expect(out.problems.map((p) => p.field)).toEqual([
      'documents[1].anchors.sign:1',
      'documents[1].anchors.date:2',
    ]);
    expect(out.problems[0]!.message).toContain('did not fit on one line');
    expect(out.problems[0]!.message).toContain('172.8 pt wide');
    expect(out.problems[1]!.message).toContain('lost in conversion');
  });

  it('names an anchor outside its page', () => {
    const found = [at(1, sign.marker, 500, 500, markerWidth('sign'))];
    const out = placesFromMarkers([sign], found, [A4], '');
    expect(out.problems).toEqual([
      { field: 'anchors.sign:1', message: expect.stringContaining('outside page 1') as string },
    ]);
  });

  it('names two anchors that overlap, and lets touching ones be', () => {
    const w = markerWidth('sign');
    const overlapping = [
      at(1, sign.marker, 72, 500, w),
      at(1, date.marker, 100, 510, markerWidth('date')),
    ];
    const out = placesFromMarkers([sign, date], overlapping, [A4], 'documents[0]');
    expect(out.problems).toHaveLength(1);
    expect(out.problems[0]!.field).toBe('documents[0].anchors.sign:1');
    expect(out.problems[0]!.message).toContain('overlaps date:2 on page 1');
    // Lines set solid: the boxes share a fraction of a point.
    const solid = [
      at(1, sign.marker, 72, 500, w),
      at(1, date.marker, 72, 480.4, markerWidth('date')),
    ];
    expect(placesFromMarkers([sign, date], solid, [A4], '').problems).toEqual([]);
    const touching = [
      at(1, sign.marker, 72, 500, w),
      at(1, date.marker, 72 + w, 500, markerWidth('date')),
    ];
    expect(placesFromMarkers([sign, date], touching, [A4], '').problems).toEqual([]);
    // A date on the line above a signature reaches into the top of the signature's box, which
    // its mark never uses (sealing stamps in the lower four fifths): not an overlap.
    const stacked = [
      at(1, sign.marker, 72, 500, w),
      at(1, date.marker, 72, 525, markerWidth('date')),
    ];
    expect(placesFromMarkers([sign, date], stacked, [A4], '').problems).toEqual([]);
  });

  it('leaves a value that copies a marker in another size alone', () => {
    const found = [
      at(1, sign.marker, 72, 300, 60),
      at(1, sign.marker, 72, 500, markerWidth('sign')),
    ];
    const out = placesFromMarkers([sign], found, [A4], '');
    expect(out.places.map((p) => p.rect.y)).toEqual([500]);
    expect(out.markers.map((m) => m.rect.y)).toEqual([500]);
  });
});

describe('places from text tags', () => {
  it('reads each whole tag, in reading order, and checks overlap', () => {
    const found = [at(1, '{{date:2}}', 72, 300, 50), at(1, '{{sign:1}}', 72, 500, 50)];
    const out = placesFromTextTags(found, [A4], 'documents[0]');
    expect(out.places.map((p) => `${p.kind}:${p.recipient}`)).toEqual(['sign:1', 'date:2']);
    expect(out.problems).toEqual([]);
    const clash = [at(1, '{{date:2}}', 72, 500, 50), at(1, '{{sign:1}}', 80, 505, 50)];
    expect(placesFromTextTags(clash, [A4], 'documents[0]').problems.map((p) => p.field)).toEqual([
      'documents[0].anchors.sign:1',
    ]);
  });
});
