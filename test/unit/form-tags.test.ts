import { describe, expect, it } from 'vitest';
import { formTagValues, type TagDefinition } from '../../src/service/forms/index.js';

const definitions: TagDefinition[] = [
  { _id: 'tenant', name: 'Tenant', tag: 'tenant', value: null, type: 'text' },
  { _id: 'rent', name: 'Rent', tag: 'rent', value: 1200, type: 'number' },
  { _id: 'start', name: 'Start', tag: 'start', value: '2026-01-01', type: 'date' },
];

describe("a submit's tag values", () => {
  it('are the submitted ones first, then the defaults of the rest; a submitted tag overrides its default', () => {
    const out = formTagValues(definitions, [
      { tag: 'rent', value: 1500, type: 'number' },
      { tag: 'tenant', value: 'Ann', type: 'text' },
    ]);
    expect(out.problems).toEqual([]);
    expect(out.tags).toEqual([
      { tag: 'rent', value: 1500, type: 'number' },
      { tag: 'tenant', value: 'Ann', type: 'text' },
      { tag: 'start', value: '2026-01-01', type: 'date' },
    ]);
  });

  it('refuse a tag with neither a value nor a default, naming tags and the tag', () => {
    const out = formTagValues(definitions, []);
    expect(out.problems).toEqual([
      { field: 'tags', message: expect.stringContaining('"tenant"') as string },
    ]);
  });

  it('refuse a tag the form does not have, a type other than the form’s, and a tag sent twice', () => {
    const out = formTagValues(definitions, [
      { tag: 'tenant', value: 'Ann', type: 'text' },
      { tag: 'deposit', value: 1, type: 'number' },
      { tag: 'rent', value: '1500', type: 'text' },
      { tag: ' tenant ', value: 'Bob', type: 'text' },
    ]);
    expect(out.problems.map((p) => p.field)).toEqual([
      'tags[1].tag',
      'tags[2].type',
      'tags[3].tag',
    ]);
    expect(out.problems[1]!.message).toContain('send type "number"');
  });
});
