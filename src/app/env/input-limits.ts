import {
  DEFAULT_SNIFF_LIMITS,
  sniffLimitsProblems,
  type SniffLimits,
} from '../../formats/sniff/index.js';
import { ConfigError } from './config-error.js';
import { envNumbers, type EnvNumbers } from './env-numbers.js';

/**
 * The input limits: `DOCPIPE_MAX_INPUT_BYTES` and the zip limits `DOCPIPE_ZIP_MAX_ENTRIES`,
 * `DOCPIPE_ZIP_MAX_UNCOMPRESSED_BYTES`, `DOCPIPE_ZIP_MAX_RATIO`. Problems go to `problems`.
 */
export function inputLimitsFrom(
  env: NodeJS.ProcessEnv,
  { int }: EnvNumbers,
  problems: string[],
): SniffLimits {
  const limits: SniffLimits = {
    maxInputBytes: int('DOCPIPE_MAX_INPUT_BYTES', DEFAULT_SNIFF_LIMITS.maxInputBytes),
    maxEntries: int('DOCPIPE_ZIP_MAX_ENTRIES', DEFAULT_SNIFF_LIMITS.maxEntries),
    maxUncompressedBytes: int(
      'DOCPIPE_ZIP_MAX_UNCOMPRESSED_BYTES',
      DEFAULT_SNIFF_LIMITS.maxUncompressedBytes,
    ),
    maxCompressionRatio: int('DOCPIPE_ZIP_MAX_RATIO', DEFAULT_SNIFF_LIMITS.maxCompressionRatio),
    ratioCheckMinBytes: DEFAULT_SNIFF_LIMITS.ratioCheckMinBytes,
  };
  problems.push(...sniffLimitsProblems(limits));
  return limits;
}

/**
 * The input limits alone, for a caller that needs nothing else of the configuration (`docpipe
 * sniff`): the same values and problems as loadConfig's `limits`, without loading what the rest
 * of the configuration checks against (fill, the queue, the log).
 */
export function loadInputLimits(env: NodeJS.ProcessEnv = process.env): SniffLimits {
  const problems: string[] = [];
  const limits = inputLimitsFrom(env, envNumbers(env, problems), problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return limits;
}
