import { Value } from 'typebox/value';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  resolveTagInputs,
  resolveLocale,
  TagInputSchema,
  type ResolvedLocale,
  type TagInput,
} from '../../src/document/values/index.js';
import { DocumentJobDataSchema } from '../../src/jobs/queue/index.js';

const context = { locale: resolveLocale('da') as ResolvedLocale, timeZone: 'Europe/Copenhagen' };

describe('the TagInput schema', () => {
  it('is where the TagInput type comes from', () => {
    expectTypeOf<TagInput>().toEqualTypeOf<{
      tag: string;
      value: unknown;
      type: string;
      format?: string | null;
    }>();
  });

  it("is the queue contract's tag list, as the same JSON Schema", () => {
    const tags = (DocumentJobDataSchema as unknown as { properties: { tags: { items: unknown } } })
      .properties.tags;
    expect(JSON.parse(JSON.stringify(tags.items))).toEqual(
      JSON.parse(JSON.stringify(TagInputSchema)),
    );
    expect(JSON.parse(JSON.stringify(TagInputSchema))).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['tag', 'value', 'type'],
    });
  });

  it('and fill refuse the same members', () => {
    const misspelt = { tag: 'start', value: '2025-06-02', type: 'date', fromat: 'd MMMM yyyy' };
    expect(Value.Check(TagInputSchema, misspelt)).toBe(false);
    expect(resolveTagInputs([misspelt], context).problems).toEqual([
      expect.objectContaining({ message: expect.stringContaining('unknown field "fromat"') }),
    ]);
    const full: TagInput = { tag: 'start', value: '2025-06-02', type: 'date', format: null };
    expect(Value.Check(TagInputSchema, full)).toBe(true);
    expect(resolveTagInputs([full], context).problems).toEqual([]);
  });
});
