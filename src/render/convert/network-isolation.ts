import { spawn } from 'node:child_process';
import type { NetworkIsolation } from './convert-options.js';

/** Decides once whether this host can give a process a network namespace without interfaces. */
let namespaceSupport: Promise<boolean> | undefined;
export function canIsolateNetwork(): Promise<boolean> {
  namespaceSupport ??= new Promise((resolve) => {
    const probe = spawn('unshare', ['--net', '--', 'true'], { stdio: 'ignore' });
    probe.on('error', () => resolve(false));
    probe.on('exit', (code) => resolve(code === 0));
  });
  return namespaceSupport;
}

/**
 * Whether office processes run in a network namespace, as `network` asks: `namespace` insists
 * (failing where the host cannot), `auto` takes one where it can, `profile` never does.
 */
export async function usesNetworkNamespace(network: NetworkIsolation): Promise<boolean> {
  if (network === 'profile') return false;
  const can = await canIsolateNetwork();
  if (!can && network === 'namespace')
    throw new Error(
      'network: namespace was asked for, but this host cannot create network namespaces (unshare --net)',
    );
  return can;
}
