import type { Storage } from '../../render/storage/index.js';
import { DEFAULT_CONTRACT_LIMITS, type ContractLimits } from './job-contract.js';
import { COMPANY_ID_RULE, isCompanyId } from '../../base/tenancy/index.js';
import {
  connectionProblems,
  givenOptions,
  nonNegativeInteger,
  positiveDuration,
  positiveInteger,
  refuseProblems,
} from './option-checks.js';
import { DEFAULT_PREFIX } from './queue-names.js';

/** How long, and how many, finished jobs stay in Redis. */
export interface KeepJobs {
  /** Seconds. */
  age: number;
  count: number;
}

export interface DocpipeClientOptions {
  redisUrl: string;
  /** @defaultValue 'docpipe' */
  prefix?: string;
  /** Where content over the inline limit goes; workers must read the same storage. */
  storage?: Storage;
  /** @defaultValue DEFAULT_CONTRACT_LIMITS */
  contract?: ContractLimits;
  /** Tries of a job whose failure is transient. @defaultValue 3 */
  attempts?: number;
  /** First retry delay, doubling after. @defaultValue 1000 ms */
  backoffMs?: number;
  /** Finished jobs are removed after this age or count. @defaultValue { age: 3600 s, count: 1000 } */
  keepCompleted?: KeepJobs;
  /** @defaultValue { age: 86 400 s, count: 5000 } */
  keepFailed?: KeepJobs;
  /** @defaultValue 120 000 ms */
  timeoutMs?: number;
  /**
   * Waits fail with QueueUnavailableError ('redis-unreachable') when Redis has not answered for
   * this long. @defaultValue 30 000 ms
   */
  unreachableMs?: number;
  /**
   * Waits fail with QueueUnavailableError ('no-worker') when no worker has been connected for
   * this long while Redis answers; a request with no worker refuses after this long, before
   * queuing anything. @defaultValue 10 000 ms
   */
  noWorkerMs?: number;
  /** How often Redis and its workers are looked at while waiting. @defaultValue 1000 ms */
  healthIntervalMs?: number;
  /**
   * Where Redis is now, asked when it stops answering: `docpipe start` writes its URL down and
   * moves to another port when its last one was taken. A new URL that answers is switched to
   * and every wait goes on there. @defaultValue none: the first URL only
   */
  rediscover?: () => Promise<string | undefined>;
  /**
   * The base of the URLs docpipe's HTTP service issues (DOCPIPE_PUBLIC_URL). A document whose
   * `url` names an upload under it is rendered from storage (the storage the service and the
   * workers share), like the convert endpoint does; any other URL is kept by reference, not
   * fetched. @defaultValue none: every URL is kept by reference
   */
  publicUrl?: string;
  /**
   * The company this producer's jobs are done for, unless a request names another: companies'
   * jobs take turns. @defaultValue none: they wait in the line of jobs that name no company
   */
  company?: string;
  /**
   * Jobs one company may have waiting; a request that would pass it is refused whole with
   * CompanyQueueFullError. 0 is no cap. @defaultValue 10 000
   */
  companyMaxQueued?: number;
  /**
   * Whether jobs take turns between companies (BullMQ priorities). Every producer of one
   * installation must agree: jobs without a place go ahead of every job with one. Off only to
   * measure what fairness changes. @defaultValue true
   */
  fairShare?: boolean;
}

export type FilledClientOptions = Required<
  Omit<DocpipeClientOptions, 'storage' | 'rediscover' | 'publicUrl' | 'company'>
> &
  Pick<DocpipeClientOptions, 'storage' | 'rediscover' | 'publicUrl' | 'company'>;

/** The client's defaults, in one place: the configuration reads them from here too. */
export const DEFAULT_CLIENT_OPTIONS: Readonly<
  Omit<
    FilledClientOptions,
    'redisUrl' | 'storage' | 'rediscover' | 'keepCompleted' | 'keepFailed' | 'publicUrl' | 'company'
  >
> & { readonly keepCompleted: Readonly<KeepJobs>; readonly keepFailed: Readonly<KeepJobs> } =
  Object.freeze({
    prefix: DEFAULT_PREFIX,
    contract: DEFAULT_CONTRACT_LIMITS,
    attempts: 3,
    backoffMs: 1000,
    keepCompleted: Object.freeze({ age: 3600, count: 1000 }),
    keepFailed: Object.freeze({ age: 86_400, count: 5000 }),
    timeoutMs: 120_000,
    unreachableMs: 30_000,
    noWorkerMs: 10_000,
    healthIntervalMs: 1000,
    companyMaxQueued: 10_000,
    fairShare: true,
  });

/** Fills the client's defaults and checks every option, reporting every problem together. */
export function fillClientOptions(options: DocpipeClientOptions): FilledClientOptions {
  const filled: FilledClientOptions = {
    ...DEFAULT_CLIENT_OPTIONS,
    ...givenOptions(options),
  };
  refuseProblems('docpipe client options', clientOptionProblems(filled));
  return filled;
}

function clientOptionProblems(o: FilledClientOptions): (string | undefined)[] {
  return [
    ...connectionProblems(o),
    positiveInteger('contract.maxInlineBytes', o.contract.maxInlineBytes),
    positiveInteger('attempts', o.attempts),
    nonNegativeInteger('backoffMs', o.backoffMs),
    nonNegativeInteger('keepCompleted.age', o.keepCompleted.age),
    nonNegativeInteger('keepCompleted.count', o.keepCompleted.count),
    nonNegativeInteger('keepFailed.age', o.keepFailed.age),
    nonNegativeInteger('keepFailed.count', o.keepFailed.count),
    positiveDuration('timeoutMs', o.timeoutMs),
    positiveDuration('unreachableMs', o.unreachableMs),
    positiveDuration('noWorkerMs', o.noWorkerMs),
    positiveDuration('healthIntervalMs', o.healthIntervalMs),
    nonNegativeInteger('companyMaxQueued', o.companyMaxQueued),
    o.company === undefined || isCompanyId(o.company)
      ? undefined
      : `company ${COMPANY_ID_RULE} (got ${JSON.stringify(o.company)})`,
  ];
}
