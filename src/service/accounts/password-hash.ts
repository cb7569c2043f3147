import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id's cost for dashboard passwords, chosen by measurement (docs/security.md, "Dashboard
 * passwords"): 64 MiB and 3 passes cost about 56 ms of CPU per verification on the 2-core
 * machine docpipe is built on, inside the 30 to 100 ms the issue asks: slow for a guesser with a
 * stolen table, unnoticed by a person logging in. One lane: a log-in never takes both cores.
 */
export const PASSWORD_HASH_PARAMS = {
  algorithm: Algorithm.Argon2id,
  memoryCost: 65536,
  timeCost: 3,
  parallelism: 1,
} as const;

/** The PHC string (`$argon2id$v=19$m=65536,t=3,p=1$...`) stored in logins.password_hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_PARAMS);
}

/** Whether `password` is the one of `stored`; a malformed stored hash is no match. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * A hash no password matches, made once per process with the same cost: an unknown e-mail is
 * checked against it, so that its answer takes as long as a wrong password's and the time tells
 * no one which addresses have an account.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(`no account ${Math.random()} ${Date.now()}`);
  return dummy;
}
