import { describe, expect, it } from 'vitest';
import { canonicalJson, renderCacheKey } from '../../src/render/pipeline/index.js';

describe('render cache key', () => {
  const bytes = Buffer.from('template bytes');
  const tags = [{ tag: 'a', value: 1, type: 'number' }];

  it('is the same for equal inputs, whatever the key order or document path', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    const k1 = renderCacheKey(
      bytes,
      tags,
      { locale: 'da', pdfa: false, field: 'documents[0]' },
      'Name',
      'office-pool',
    );
    const k2 = renderCacheKey(
      bytes,
      [{ type: 'number', value: 1, tag: 'a' }],
      { field: 'documents[7]', pdfa: false, locale: 'da' },
      'Name',
      'office-pool',
    );
    expect(k1).toBe(k2);
    expect(k1).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with bytes, values, options, name and converter', () => {
    const base = renderCacheKey(bytes, tags, {}, 'Name', 'office-pool');
    expect(renderCacheKey(Buffer.from('other'), tags, {}, 'Name', 'office-pool')).not.toBe(base);
    expect(
      renderCacheKey(bytes, [{ tag: 'a', value: 2, type: 'number' }], {}, 'Name', 'office-pool'),
    ).not.toBe(base);
    expect(renderCacheKey(bytes, tags, { pdfa: true }, 'Name', 'office-pool')).not.toBe(base);
    expect(renderCacheKey(bytes, tags, {}, 'Other', 'office-pool')).not.toBe(base);
    expect(renderCacheKey(bytes, tags, {}, 'Name', 'libreoffice-convert')).not.toBe(base);
  });
});
