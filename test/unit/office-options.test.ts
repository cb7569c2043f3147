import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIBREOFFICE_CONVERT_OPTIONS,
  DEFAULT_OFFICE_POOL_OPTIONS,
  fillLibreOfficeConvertOptions,
  fillOfficePoolOptions,
} from '../../src/render/convert/index.js';

describe('office pool options', () => {
  it('fills the defaults, and the ones given win', () => {
    expect(fillOfficePoolOptions({}, '/tmp/w')).toEqual({
      ...DEFAULT_OFFICE_POOL_OPTIONS,
      processes: availableParallelism(),
      workDir: '/tmp/w',
    });
    expect(
      fillOfficePoolOptions({ queueDepth: 1, conversionTimeoutMs: undefined }, '/tmp/w'),
    ).toMatchObject({ queueDepth: 1, conversionTimeoutMs: 30_000 });
  });

  it('reports every problem together', () => {
    expect(() =>
      fillOfficePoolOptions(
        { processes: 0, queueDepth: 1.5, network: 'none' as 'auto', allocator: 'x' },
        '/tmp',
      ),
    ).toThrow(
      'invalid office pool options: processes must be a positive integer (got 0); ' +
        'queueDepth must be a positive integer (got 1.5); ' +
        'allocator must be auto, system or the path of an existing malloc library (got x); ' +
        'network must be auto, namespace or profile (got none)',
    );
  });
});

describe('libreoffice-convert options', () => {
  it('takes its defaults from the office pool, and one per core for processes', () => {
    expect(DEFAULT_LIBREOFFICE_CONVERT_OPTIONS).toEqual({
      conversionTimeoutMs: DEFAULT_OFFICE_POOL_OPTIONS.conversionTimeoutMs,
      queueTimeoutMs: DEFAULT_OFFICE_POOL_OPTIONS.queueTimeoutMs,
      network: DEFAULT_OFFICE_POOL_OPTIONS.network,
    });
    expect(fillLibreOfficeConvertOptions({}, '/tmp/w')).toEqual({
      processes: availableParallelism(),
      conversionTimeoutMs: 30_000,
      queueTimeoutMs: 60_000,
      network: 'auto',
      workDir: '/tmp/w',
    });
  });

  it('keeps only what it uses of the office options', () => {
    const filled = fillLibreOfficeConvertOptions(
      { processes: 3, queueDepth: 4, sofficePath: '/x', workDir: '/w', network: 'profile' },
      '/tmp',
    );
    expect(filled).toEqual({
      processes: 3,
      conversionTimeoutMs: 30_000,
      queueTimeoutMs: 60_000,
      network: 'profile',
      workDir: '/w',
    });
  });

  it('reports every problem together, and none of the options it does not use', () => {
    expect(() =>
      fillLibreOfficeConvertOptions(
        {
          processes: -1,
          conversionTimeoutMs: 0,
          queueTimeoutMs: Number.NaN,
          network: 'off' as 'auto',
          queueDepth: 0,
        },
        '/tmp',
      ),
    ).toThrow(
      'invalid libreoffice-convert options: processes must be a positive integer (got -1); ' +
        'conversionTimeoutMs must be a positive integer (got 0); ' +
        'queueTimeoutMs must be a positive integer (got NaN); ' +
        'network must be auto, namespace or profile (got off)',
    );
  });
});
