import { parseDuration } from '../../base/util/index.js';

/** How long stored documents are kept, and how often the sweeper looks. */
export interface RetentionConfig {
  /** `DOCPIPE_RETENTION_UPLOADS`: age of an upload (spec files) when it is removed; `off` keeps them. @defaultValue '30d' */
  uploadsMs: number | undefined;
  /** `DOCPIPE_RETENTION_RENDERS`: age of a render (and the render cache) when it is removed; `off` keeps them. @defaultValue '30d' */
  rendersMs: number | undefined;
  /** `DOCPIPE_RETENTION_SWEEP_EVERY`: how often a running docpipe sweeps; `off` leaves it to `docpipe storage sweep`. @defaultValue '1h' */
  sweepEveryMs: number | undefined;
}

export const DEFAULT_RETENTION = { uploads: '30d', renders: '30d', sweepEvery: '1h' } as const;

export function retentionConfigFrom(env: NodeJS.ProcessEnv, problems: string[]): RetentionConfig {
  const age = (name: string, fallback: string): number | undefined => {
    const text = env[name] || fallback;
    if (text === 'off') return undefined;
    try {
      return parseDuration(text);
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}, or off`);
      return undefined;
    }
  };
  return {
    uploadsMs: age('DOCPIPE_RETENTION_UPLOADS', DEFAULT_RETENTION.uploads),
    rendersMs: age('DOCPIPE_RETENTION_RENDERS', DEFAULT_RETENTION.renders),
    sweepEveryMs: age('DOCPIPE_RETENTION_SWEEP_EVERY', DEFAULT_RETENTION.sweepEvery),
  };
}
