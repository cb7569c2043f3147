import { chmod, link, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../base/log/index.js';
import {
  isSealerError,
  loadSealer,
  makeSelfSignedP12,
  type Sealer,
} from '../../formats/pades/index.js';
import { ConfigError } from '../env/index.js';

export const SEAL_P12_VARIABLE = 'DOCPIPE_SEAL_P12';
export const SEAL_P12_PASSWORD_VARIABLE = 'DOCPIPE_SEAL_P12_PASSWORD';
export const TSA_URL_VARIABLE = 'DOCPIPE_TSA_URL';

/** The self-signed PKCS#12 a one-machine installation makes on its first start, and its password. */
export const SELF_SIGNED_P12_FILE = 'seal.p12';
export const SELF_SIGNED_PASSWORD_FILE = 'seal.p12.password';
/** The name PDF readers show for a self-signed seal. */
export const SELF_SIGNED_COMMON_NAME = 'docpipe seal (self-signed)';

/** What the sealing job needs: who seals, and the timestamp authority if any. */
export interface SealingConfig {
  sealer: Sealer;
  /** DOCPIPE_TSA_URL: seals are PAdES B-T with it, B-B without. */
  tsaUrl?: string;
  /** Where the PKCS#12 came from. */
  source:
    { kind: 'configured'; path: string } | { kind: 'self-signed'; path: string; made: boolean };
}

/**
 * The sealing configuration, checked whole (every problem at once, naming the variable):
 * `DOCPIPE_SEAL_P12` (a PKCS#12 file's path) with `DOCPIPE_SEAL_P12_PASSWORD`, and
 * `DOCPIPE_TSA_URL`. Without a PKCS#12, the data folder's self-signed one is used, made on the
 * first start (`seal.p12` and its random password in `seal.p12.password`, both mode 0600) and
 * kept, so that every seal of an installation carries the same certificate; a warning says that
 * PDF readers show such a seal as untrusted. Not wired here: the runtime calls it.
 */
export async function loadSealingConfig(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  options: { logger?: Logger; now?: Date } = {},
): Promise<SealingConfig> {
  const problems: string[] = [];
  const p12Path = env[SEAL_P12_VARIABLE] || undefined;
  const password = env[SEAL_P12_PASSWORD_VARIABLE];
  const tsaUrl = tsaUrlFrom(env, problems);
  if (p12Path && password === undefined)
    problems.push(
      `${SEAL_P12_PASSWORD_VARIABLE} must be set with ${SEAL_P12_VARIABLE} (empty for a file without one)`,
    );
  if (!p12Path && password)
    problems.push(`${SEAL_P12_PASSWORD_VARIABLE} is set without ${SEAL_P12_VARIABLE}`);
  let configured: Sealer | undefined;
  if (p12Path && password !== undefined) {
    try {
      configured = await loadSealer(await readFile(p12Path), password, { now: options.now });
    } catch (err) {
      problems.push(`${SEAL_P12_VARIABLE} (${p12Path}): ${sealerProblem(err)}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const logger = options.logger;
  if (configured) {
    logger?.info(
      {
        subject: configured.subject,
        notAfter: configured.notAfter.toISOString(),
        fingerprint: configured.fingerprint,
        tsa: tsaUrl !== undefined,
      },
      'sealing with the configured certificate',
    );
    if (configured.selfSigned) logger?.warn({ subject: configured.subject }, UNTRUSTED_WARNING);
    return {
      sealer: configured,
      ...(tsaUrl ? { tsaUrl } : {}),
      source: { kind: 'configured', path: p12Path! },
    };
  }
  const { p12, password: selfPassword, made } = await ensureSelfSignedP12(dataDir);
  const path = join(dataDir, SELF_SIGNED_P12_FILE);
  let sealer: Sealer;
  try {
    sealer = await loadSealer(p12, selfPassword, { now: options.now });
  } catch (err) {
    throw new ConfigError([
      `${path}: ${sealerProblem(err)}; remove it and ${SELF_SIGNED_PASSWORD_FILE} to make a new one, or set ${SEAL_P12_VARIABLE}`,
    ]);
  }
  logger?.warn(
    { subject: sealer.subject, fingerprint: sealer.fingerprint, path, made },
    UNTRUSTED_WARNING,
  );
  return { sealer, ...(tsaUrl ? { tsaUrl } : {}), source: { kind: 'self-signed', path, made } };
}

const UNTRUSTED_WARNING = `sealing with a self-signed certificate: PDF readers show the seal as untrusted (the document is still proven unchanged); set ${SEAL_P12_VARIABLE} to a certificate from a trusted issuer`;

function tsaUrlFrom(env: NodeJS.ProcessEnv, problems: string[]): string | undefined {
  const text = env[TSA_URL_VARIABLE];
  if (!text) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push(`${TSA_URL_VARIABLE} must be an http or https URL`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`${TSA_URL_VARIABLE} must be an http or https URL`);
    return undefined;
  }
  return url.href;
}

function sealerProblem(err: unknown): string {
  if (isSealerError(err)) return err.message;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'not readable by docpipe';
  return err instanceof Error ? err.message : String(err);
}

/**
 * The data folder's self-signed PKCS#12 and its password, made when absent. Each file is written
 * whole to a temporary file with mode 0600 and moved into place, the password first: a reader
 * never sees half a file, nor the P12 without its password. The password may replace one left
 * by a start that stopped before its P12 was in place (no P12 uses it); the P12 is linked, never
 * replacing one there (the data folder's lock lets one start through anyway).
 */
export async function ensureSelfSignedP12(
  dataDir: string,
): Promise<{ p12: Uint8Array; password: string; made: boolean }> {
  const p12Path = join(dataDir, SELF_SIGNED_P12_FILE);
  const passwordPath = join(dataDir, SELF_SIGNED_PASSWORD_FILE);
  const found = await readPair(p12Path, passwordPath);
  if (found) return { ...found, made: false };
  const { p12, password } = await makeSelfSignedP12({ commonName: SELF_SIGNED_COMMON_NAME });
  await writeFileAtomically(passwordPath, `${password}\n`, 'replace');
  if (await writeFileAtomically(p12Path, p12, 'once')) return { p12, password, made: true };
  // Another start made them first: use its pair.
  const theirs = await readPair(p12Path, passwordPath);
  if (!theirs) throw new Error(`${p12Path} or ${passwordPath} is missing while the other is there`);
  return { ...theirs, made: false };
}

async function readPair(
  p12Path: string,
  passwordPath: string,
): Promise<{ p12: Uint8Array; password: string } | undefined> {
  let p12: Buffer;
  try {
    p12 = await readFile(p12Path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let password: string;
  try {
    password = (await readFile(passwordPath, 'utf8')).trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new ConfigError([
        `${p12Path} is there without ${SELF_SIGNED_PASSWORD_FILE}: restore it, or remove ${SELF_SIGNED_P12_FILE} to make a new certificate`,
      ]);
    throw err;
  }
  return { p12, password };
}

/** Writes `data` to `path` with mode 0600; `once`: not over a file there (false when one was). */
async function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  mode: 'once' | 'replace',
): Promise<boolean> {
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, 'wx', 0o600);
  try {
    await file.writeFile(data);
    await file.sync();
  } finally {
    await file.close();
  }
  await chmod(temporary, 0o600);
  try {
    if (mode === 'replace') await rename(temporary, path);
    else await link(temporary, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    await rm(temporary, { force: true });
  }
}
