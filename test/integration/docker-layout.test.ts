import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { projectRoot } from '../../src/base/paths/index.js';
import { alive, redisPid } from '../helpers/docpipe-start.js';
import {
  execForm,
  last,
  listArgs,
  parseDockerfile,
  parseHealthcheck,
  stageEnv,
  stageNamed,
  type Healthcheck,
  type Stage,
} from '../helpers/dockerfile.js';
import { parseDockerIgnore } from '../helpers/dockerignore.js';
import {
  acceptAll,
  assemble,
  resolveIn,
  stageLayout,
  type LayoutInput,
  type StageEntry,
  type StageLayout,
  type TreeSource,
} from '../helpers/image-layout.js';
import { leaseTags } from '../helpers/lease.js';
import { pdfPages, pdfText } from '../helpers/pdf-text.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * The Docker image without Docker: the runtime stage's files laid out as the Dockerfile's COPY
 * lines say (the build stage's /app being this checkout after `npm run build`), and docpipe run
 * from there, so that a file the runtime needs but the image leaves out fails here. Beside it,
 * the image's contract read from the Dockerfile, scripts/setup.sh's modes, and compose.yaml.
 */

const root = projectRoot();
const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const runtime = stages.at(-1)!;
const build = stageNamed(stages, 'build');
const env = stageEnv(runtime);
const input: LayoutInput = {
  stages,
  context: root,
  ignore: parseDockerIgnore(readFileSync(join(root, '.dockerignore'), 'utf8')),
  products: (layout) => (layout.stage === build ? buildProducts(layout) : []),
};

/**
 * What the build stage's RUN steps leave in its folder. Installing and then pruning with
 * --omit=dev leaves the lock file's production packages: taken here from this checkout's
 * node_modules (only those), so a package the code imports that is a devDependency is missing
 * here as it would be in the image. `npm run build` (tsc) writes dist/<folder> for each folder of
 * tsconfig.json into which the stage copied TypeScript, taken from this checkout's dist.
 */
function buildProducts(layout: StageLayout): StageEntry[] {
  const products: StageEntry[] = [];
  for (const run of layout.stage.instructions.filter((i) => i.keyword === 'RUN')) {
    const workdir = layout.workdirAt.get(run)!;
    if (/npm run build\b/.test(run.args)) products.push(...compiled(layout, workdir));
    if (/npm prune --omit=dev\b/.test(run.args))
      products.push({
        imagePath: posix.join(workdir, 'node_modules'),
        source: productionModules(),
      });
  }
  return products;
}

function compiled(layout: StageLayout, workdir: string): StageEntry[] {
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as {
    include: string[];
  };
  return tsconfig.include
    .filter((folder) => hasTypeScript(layout, posix.join(workdir, folder)))
    .map((folder) => {
      const path = join(root, 'dist', folder);
      if (!existsSync(path)) throw new Error(`${path} is missing: run "npm run build" first`);
      return {
        imagePath: posix.join(workdir, 'dist', folder),
        source: { path, accept: acceptAll },
      };
    });
}

function hasTypeScript(layout: StageLayout, imagePath: string): boolean {
  let parts: ReturnType<typeof resolveIn>;
  try {
    parts = resolveIn(layout, imagePath);
  } catch {
    return false;
  }
  const walk = (source: TreeSource, rel: string): boolean => {
    const path = join(source.path, rel);
    if (!statSync(path).isDirectory()) return /(?<!\.d)\.ts$/.test(path);
    return readdirSync(path).some((name) => {
      const child = rel === '' ? name : posix.join(rel, name);
      return source.accept(child, lstatSync(join(path, name)).isDirectory()) && walk(source, child);
    });
  };
  return parts.some((p) => walk(p.source, ''));
}

function productionModules(): TreeSource {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean }>;
  };
  const names = new Set<string>();
  for (const [key, meta] of Object.entries(lock.packages)) {
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
    // devOptional packages stay: --omit=dev leaves out only what nothing else needs.
    if (!name || meta.dev) continue;
    if (existsSync(join(root, key))) names.add(name);
    else if (!meta.optional) throw new Error(`${key} is in the lock file but not installed`);
  }
  return {
    path: join(root, 'node_modules'),
    accept: (rel, isDir) => {
      const [first = '', second] = rel.split('/');
      if (!first.startsWith('@')) return names.has(first);
      if (second === undefined) return isDir && [...names].some((n) => n.startsWith(first + '/'));
      return names.has(`${first}/${second}`);
    },
  };
}

/** The runtime stage's WORKDIR at its ENTRYPOINT, where the image's commands run. */
function workdirOf(layout: StageLayout): string {
  return layout.workdirAt.get(last(runtime, 'ENTRYPOINT')!)!;
}

function entrypoint(): string[] {
  const ins = last(runtime, 'ENTRYPOINT')!;
  return execForm(ins.args, ins.line)!;
}

/** The image's command as this machine runs it: without tini (not installed here), Node for node. */
function imageCommand(rootfs: string, args: string[]): [string, string[], string] {
  const [, , node, ...rest] = entrypoint();
  expect(node).toBe('node');
  const cwd = join(rootfs, workdirOf(layoutOfRuntime));
  return [process.execPath, [...rest, ...args], cwd];
}

/**
 * The image's environment: its ENV, with paths into the laid-out folder, and nothing of this
 * machine's docpipe settings. Frugal with the machine's two cores.
 */
function imageEnv(rootfs: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('DOCPIPE_') && !k.startsWith('AWS_') && k !== 'REDIS_URL') out[k] = v;
  for (const [k, v] of Object.entries(env)) out[k] = v.startsWith('/') ? join(rootfs, v) : v;
  return { ...out, DOCPIPE_ENGINE_THREADS: '1', DOCPIPE_OFFICE_PROCESSES: '1', ...extra };
}

function healthcheck(): Healthcheck {
  const check = parseHealthcheck(last(runtime, 'HEALTHCHECK')!);
  if (check === 'NONE') throw new Error('HEALTHCHECK NONE');
  return check;
}

/** The HEALTHCHECK command, run as Docker runs it in the container: its exit status. */
function runHealthcheck(rootfs: string, port: string): number | null {
  const command = healthcheck().command;
  if (!Array.isArray(command) || command[0] !== 'node')
    throw new Error('the HEALTHCHECK is not node in exec form');
  const r = spawnSync(process.execPath, command.slice(1), {
    env: imageEnv(rootfs, { DOCPIPE_HTTP_PORT: port }),
    encoding: 'utf8',
    timeout: 10_000,
  });
  return r.status;
}

let dir: string;
let rootfs: string;
let layoutOfRuntime: StageLayout;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'docpipe-image-'));
  // As root the embedded PostgreSQL runs as postgres, who must reach the data folder inside;
  // a folder shutting it out would move the cluster to /var/lib/docpipe (cluster-place.ts).
  chmodSync(dir, 0o711);
  rootfs = join(dir, 'rootfs');
  layoutOfRuntime = stageLayout(runtime, input);
  assemble(layoutOfRuntime, rootfs);
  // The image makes its data folder (the VOLUME) in a RUN step, which is not laid out.
  mkdirSync(join(rootfs, env.DOCPIPE_DATA_DIR!), { recursive: true });
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the image's runtime stage, laid out from the Dockerfile", () => {
  it('holds what its COPY lines say: production packages only, the workers as they are', () => {
    const app = join(rootfs, workdirOf(layoutOfRuntime));
    expect(readdirSync(app).sort()).toEqual([
      'assets',
      'dist',
      'node_modules',
      'package.json',
      'scripts',
      'templates',
      'workers',
    ]);
    expect(readdirSync(join(app, 'dist')).sort()).toEqual(['src', 'workers']);
    expect(readdirSync(join(app, 'workers')).sort()).toEqual([
      'soffice-hardened.sh',
      'uno-bridge.py',
    ]);
    expect(statSync(join(app, 'workers', 'soffice-hardened.sh')).mode & 0o111).toBe(0o111);
    const modules = readdirSync(join(app, 'node_modules'));
    expect(modules).toEqual(expect.arrayContaining(['bullmq', 'fastify', 'piscina', 'pino']));
    expect(modules).not.toContain('vitest');
    expect(modules).not.toContain('eslint');
    expect(modules).not.toContain('s3rver');
    expect(existsSync(join(app, 'node_modules', '@aws-sdk', 'client-s3', 'package.json'))).toBe(
      true,
    );
  });

  // A conversion alone would not notice every missing file: without soffice-hardened.sh,
  // libreoffice-convert falls back to the system's soffice, unhardened, and still converts.
  it('has every file the code names from the project root (projectRoot(), workerFile())', () => {
    const app = join(rootfs, workdirOf(layoutOfRuntime));
    const named = new Set<string>();
    for (const file of jsFiles(join(app, 'dist', 'src'))) {
      const code = readFileSync(file, 'utf8');
      for (const m of code.matchAll(/projectRoot\(\)((?:,\s*'[^']+')+)\)/g))
        named.add([...m[1]!.matchAll(/'([^']+)'/g)].map((p) => p[1]).join('/'));
      for (const m of code.matchAll(/workerFile\('([^']+)'\)/g))
        named.add(`dist/workers/${m[1]}.js`);
    }
    expect([...named].sort()).toEqual([
      'assets/signing/signing.css',
      'assets/signing/signing.js',
      'dist/workers/prepare-task.js',
      'dist/workers/reencode-png-task.js',
      'package.json',
      'workers/soffice-hardened.sh',
      'workers/uno-bridge.py',
    ]);
    for (const path of named) expect(existsSync(join(app, path)), path).toBe(true);
  });

  it("finds docpipe's root there, not in this checkout", () => {
    const paths = pathToFileURL(
      join(rootfs, workdirOf(layoutOfRuntime), 'dist/src/base/paths/index.js'),
    ).href;
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { projectRoot } from ${JSON.stringify(paths)}; console.log(projectRoot());`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(join(rootfs, workdirOf(layoutOfRuntime)));
  });

  it.each(['office-pool', 'libreoffice-convert'])(
    'converts the sample lease there with the %s converter (docpipe render)',
    async (converter) => {
      const contract = `IMAGE-${converter}`;
      const tags = join(dir, `${converter}.tags.json`);
      writeFileSync(
        tags,
        JSON.stringify(
          leaseTags.map((t) => (t.tag === 'contract_no' ? { ...t, value: contract } : t)),
        ),
      );
      const out = join(dir, `${converter}.pdf`);
      const lease = join(root, 'templates/lease/template.docx');
      const [command, args, cwd] = imageCommand(rootfs, [
        'render',
        lease,
        '--tags',
        tags,
        '--out',
        out,
        '--json',
      ]);
      const r = spawnSync(command, args, {
        cwd,
        env: imageEnv(rootfs, { DOCPIPE_CONVERTER: converter }),
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const result = JSON.parse(r.stdout) as { pages: number; cached: boolean; path: string };
      expect(result.pages).toBe(2);
      expect(result.cached).toBe(false);
      // Stored in the image's data folder, the VOLUME.
      expect(result.path.startsWith(join(rootfs, env.DOCPIPE_DATA_DIR!, 'storage') + '/')).toBe(
        true,
      );
      const pdf = readFileSync(out);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(pdf)).toContain(`Lejekontrakt nr. ${contract}`);
      expect(await pdfPages(pdf)).toBe(2);
    },
    120_000,
  );

  it('starts as its CMD says, is healthy by its HEALTHCHECK, and stops on SIGTERM (docker stop)', async () => {
    const cmd = execForm(last(runtime, 'CMD')!.args, 0)!;
    const [command, args, cwd] = imageCommand(rootfs, cmd);
    // A free port, as tests run side by side; the check is told the port it took, as the
    // container's check reads the image's fixed one.
    const runEnv = imageEnv(rootfs, { DOCPIPE_HTTP_PORT: '0' });
    const child = spawn(command, args, { cwd, env: runEnv, stdio: 'pipe', detached: true });
    let log = '';
    child.stdout.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (log += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitUntil(
        () => log.includes('docpipe started') || child.exitCode !== null,
        90_000,
        'docpipe start to start',
      );
      const started = log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; http?: string })
        .find((l) => l.msg.startsWith('docpipe started'));
      expect(started?.http, log).toMatch(/^http:\/\/.+:\d+$/);
      const port = new URL(started!.http!).port;
      await waitUntil(() => runHealthcheck(rootfs, port) === 0, 30_000, 'the health check to pass');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(log).toContain('"msg":"stopped"');
      // Nothing listens any more: the same check fails.
      expect(runHealthcheck(rootfs, port)).toBe(1);
    } finally {
      if (child.exitCode === null && child.signalCode === null)
        process.kill(-child.pid!, 'SIGKILL');
      killLeftRedis(join(rootfs, env.DOCPIPE_DATA_DIR!));
    }
  }, 150_000);
});

function jsFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.js'))
    .map((name) => join(folder, name));
}

function killLeftRedis(dataDir: string): void {
  try {
    const pid = redisPid(dataDir);
    if (alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis-server'))
      process.kill(pid, 'SIGKILL');
  } catch {
    // No Redis left behind.
  }
}

describe("the image's contract, from the Dockerfile", () => {
  it('builds and runs on the Node major that the tests run on (the `node` devDependency)', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const major = /^\^?(\d+)\./.exec(manifest.devDependencies.node!)![1]!;
    expect(major).toBe('24');
    for (const stage of [build, runtime]) expect(stage.base).toMatch(new RegExp(`^node:${major}-`));
  });

  it('runs as a user that is not root', () => {
    const user = last(runtime, 'USER')?.args;
    expect(user).toBeDefined();
    expect(user!.split(':')[0]).not.toMatch(/^(root|0)$/);
  });

  it('runs docpipe under tini, in exec form, so that signals reach it and orphans are reaped', () => {
    const [init, separator, node, cli] = entrypoint();
    expect(posix.basename(init!)).toBe('tini');
    expect(separator).toBe('--');
    expect([node, cli]).toEqual(['node', 'dist/src/surfaces/cli/main.js']);
    expect(execForm(last(runtime, 'CMD')!.args, 0)).toEqual(['start']);
  });

  it('checks its health on /readyz, on the port it listens on', () => {
    const check = healthcheck();
    expect(Array.isArray(check.command)).toBe(true);
    expect(check.command[0]).toBe('node');
    const code = check.command.at(-1)!;
    expect(code).toContain('/readyz');
    expect(code).toContain('process.env.DOCPIPE_HTTP_PORT');
    expect(Number.parseInt(check.options['start-period'] ?? '0', 10)).toBeGreaterThanOrEqual(30);
  });

  it('keeps its data in a volume, listens on every interface and exposes its port', () => {
    expect(runtime.instructions.filter((i) => i.keyword === 'VOLUME').flatMap(listArgs)).toEqual([
      env.DOCPIPE_DATA_DIR,
    ]);
    expect(env.DOCPIPE_HTTP_HOST).toBe('0.0.0.0');
    expect(runtime.instructions.filter((i) => i.keyword === 'EXPOSE').flatMap(listArgs)).toEqual([
      env.DOCPIPE_HTTP_PORT,
    ]);
  });

  it('installs its system packages with the README set-up script, in both stages', () => {
    expect(setupRuns(runtime)).toEqual(['--image']);
    expect(setupRuns(build)).toEqual(['--npm-only']);
  });

  it('says how much /dev/shm to give it, here and in docs/deploy.md', () => {
    expect(dockerfile).toMatch(/^#.*--shm-size=\d+[mg]/m);
    expect(readFileSync(join(root, 'docs/deploy.md'), 'utf8')).toMatch(/--shm-size=\d+[mg]/);
  });
});

/**
 * The arguments of each RUN of `stage` that runs scripts/setup.sh: the copy that a COPY of the
 * context's scripts/setup.sh put at the path the RUN names.
 */
function setupRuns(stage: Stage): string[] {
  const layout = stageLayout(stage, input);
  const script = join(root, 'scripts/setup.sh');
  const copied = new Set(
    layout.entries.filter((e) => e.source.path === script).map((e) => e.imagePath),
  );
  return stage.instructions
    .filter((i) => i.keyword === 'RUN')
    .flatMap((run) => {
      const [program, ...args] = run.args.split(/\s+/);
      const path = posix.resolve(layout.workdirAt.get(run)!, program!);
      if (!copied.has(path)) return [];
      return [args.slice(0, args.includes('&&') ? args.indexOf('&&') : undefined).join(' ')];
    });
}

describe('scripts/setup.sh', () => {
  const runtimePackages = [
    'libreoffice-writer',
    'python3-uno',
    'fonts-liberation2',
    'fonts-crosextra-carlito',
    'fonts-crosextra-caladea',
    'fonts-urw-base35',
    'fonts-dejavu-core',
    'fonts-dejavu-extra',
    'fonts-noto-core',
    'fonts-noto-mono',
    'redis-server',
    'postgresql',
    'libjemalloc2',
    'poppler-utils',
  ];
  const install = 'apt-get install -y -qq --no-install-recommends';

  /**
   * A copy of the project's set-up (the script, and the package.json and lock file of docpipe and
   * of test/node22) with apt-get, dpkg-query, npm, rm, sudo and systemctl replaced by stubs that
   * write down their calls: what the script would do on a fresh machine, without doing it. The
   * stub of `npm ci` leaves what the `node` package leaves: node_modules/.bin/node, here a script
   * that prints the version `nodeOf` gives for the folder (by default the one it installs).
   */
  class SetupProject {
    readonly dir = mkdtempSync(join(tmpdir(), 'docpipe-setup-'));
    private readonly calls = join(this.dir, 'calls');
    private readonly bin = join(this.dir, 'bin');

    constructor(
      nodeOf: { docpipe: string; node22: string } = { docpipe: '24.21.0', node22: '22.23.3' },
    ) {
      mkdirSync(join(this.dir, 'scripts'));
      copyFileSync(join(root, 'scripts/setup.sh'), join(this.dir, 'scripts/setup.sh'));
      for (const folder of ['', 'test/node22']) {
        mkdirSync(join(this.dir, folder), { recursive: true });
        for (const file of ['package.json', 'package-lock.json'])
          copyFileSync(join(root, folder, file), join(this.dir, folder, file));
      }
      mkdirSync(this.bin);
      const stub = (name: string, body: string) => {
        writeFileSync(join(this.bin, name), `#!/bin/sh\n${body}\n`);
        chmodSync(join(this.bin, name), 0o755);
      };
      for (const name of ['apt-get', 'rm']) stub(name, `echo "${name} $*" >> "${this.calls}"`);
      stub(
        'npm',
        [
          `where=\${PWD#"${this.dir}"}`,
          `echo "npm $*\${where:+ (in \${where#/})}" >> "${this.calls}"`,
          'if [ "$1" = ci ]; then',
          '  mkdir -p node_modules/.bin',
          `  case "$where" in /test/node22) v=${nodeOf.node22} ;; *) v=${nodeOf.docpipe} ;; esac`,
          '  printf "#!/bin/sh\\necho $v\\n" > node_modules/.bin/node',
          '  chmod +x node_modules/.bin/node',
          'fi',
        ].join('\n'),
      );
      stub('sudo', '"$@"');
      // Nothing installed; no systemd.
      stub('dpkg-query', 'exit 1');
      stub('systemctl', 'exit 1');
    }

    /** One run of the script: its exit status, what it printed to stderr, and its calls. */
    run(...args: string[]): { status: number | null; stderr: string; calls: string[] } {
      rmSync(this.calls, { force: true });
      const r = spawnSync('bash', [join(this.dir, 'scripts/setup.sh'), ...args], {
        env: {
          ...process.env,
          PATH: `${this.bin}:${process.env.PATH}`,
          // Where it tells Debian's postgresql not to make a cluster: not the machine's /etc.
          CREATECLUSTER_D: join(this.dir, 'createcluster.d'),
        },
        encoding: 'utf8',
      });
      const text = existsSync(this.calls) ? readFileSync(this.calls, 'utf8') : '';
      return { status: r.status, stderr: r.stderr, calls: text.split('\n').filter(Boolean) };
    }

    remove(): void {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  function setupCalls(...args: string[]): { status: number | null; calls: string[] } {
    const project = new SetupProject();
    try {
      const { status, calls } = project.run(...args);
      return { status, calls };
    } finally {
      project.remove();
    }
  }

  const npmCi = 'npm ci --no-audit --no-fund --loglevel=error';

  it("installs as the README says: every package (the tests' too), npm dependencies, the build", () => {
    const { status, calls } = setupCalls();
    expect(status).toBe(0);
    expect(calls).toEqual([
      'apt-get update -qq',
      `${install} ${runtimePackages.join(' ')} chromium`,
      npmCi,
      `${npmCi} (in test/node22)`,
      'npm run --silent build',
    ]);
  });

  it('installs with npm ci again only when package.json or the lock file changed', () => {
    const project = new SetupProject();
    try {
      expect(project.run('--npm-only').calls).toEqual([npmCi]);
      expect(project.run('--npm-only')).toMatchObject({ status: 0, calls: [] });
      // A checkout that touches the files but leaves their content: still nothing to install.
      const lock = join(project.dir, 'package-lock.json');
      writeFileSync(lock, readFileSync(lock));
      expect(project.run('--npm-only').calls).toEqual([]);
      writeFileSync(
        lock,
        readFileSync(lock, 'utf8').replace('"lockfileVersion"', ' "lockfileVersion"'),
      );
      expect(project.run('--npm-only').calls).toEqual([npmCi]);
    } finally {
      project.remove();
    }
  });

  it('fails, naming the folder, when npm scripts would not run on Node 24 (or Node 22 for its test)', () => {
    for (const [nodeOf, folder, found] of [
      [{ docpipe: '20.20.2', node22: '22.23.3' }, './node_modules/.bin/node', '20.20.2'],
      [{ docpipe: '24.21.0', node22: '24.21.0' }, 'test/node22/node_modules/.bin/node', '24.21.0'],
    ] as const) {
      const project = new SetupProject(nodeOf);
      try {
        const { status, stderr, calls } = project.run();
        expect(status).toBe(1);
        expect(stderr).toContain(
          `${folder} is not Node ${folder.startsWith('test') ? 22 : 24} (found: ${found})`,
        );
        expect(calls).not.toContain('npm run --silent build');
      } finally {
        project.remove();
      }
    }
  });

  it("--image: the runtime's packages and tini, apt's lists removed, nothing of npm", () => {
    const { status, calls } = setupCalls('--image');
    expect(status).toBe(0);
    expect(calls).toHaveLength(3);
    expect(calls.slice(0, 2)).toEqual([
      'apt-get update -qq',
      `${install} ${runtimePackages.join(' ')} tini`,
    ]);
    expect(calls[2]).toMatch(/^rm -rf \/var\/lib\/apt\/lists\//);
  });

  it('--npm-only: the npm dependencies alone', () => {
    expect(setupCalls('--npm-only')).toEqual({ status: 0, calls: [npmCi] });
  });

  it('refuses anything else, doing nothing', () => {
    expect(setupCalls('--system-only')).toEqual({ status: 2, calls: [] });
    expect(setupCalls('--image', '--npm-only')).toEqual({ status: 2, calls: [] });
  });
});

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[] | string;
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  shm_size?: string;
  healthcheck?: { test?: string[]; disable?: boolean };
  ports?: string[];
}

describe('compose.yaml', () => {
  const compose = parseYaml(readFileSync(join(root, 'compose.yaml'), 'utf8'), {
    merge: true,
  }) as { services: Record<string, ComposeService> };
  const services = compose.services;
  const docpipe = Object.entries(services).filter(([, s]) => s.build === '.');
  const role = (name: string) => docpipe.filter(([, s]) => s.command?.[0] === name);
  const containers = (list: [string, ComposeService][]) =>
    list.reduce((n, [, s]) => n + (s.deploy?.replicas ?? 1), 0);

  it('runs one docpipe serve and two docpipe workers, built from the Dockerfile', () => {
    expect(docpipe.map(([name]) => name).sort()).toEqual(['serve', 'worker']);
    expect(containers(role('serve'))).toBe(1);
    expect(containers(role('worker'))).toBe(2);
  });

  it('gives every docpipe process one configuration: Redis, S3 storage, the signing secret', () => {
    const [[, serve]] = role('serve') as [[string, ComposeService]];
    const shared = serve.environment!;
    for (const [worker, service] of role('worker')) {
      for (const name of Object.keys(shared)) {
        expect(service.environment![name], `${worker}: ${name}`).toBe(shared[name]);
      }
    }
    expect(shared.DOCPIPE_SIGNING_SECRET).toMatch(/^\$\{DOCPIPE_SIGNING_SECRET:\?.+\}$/);
    expect(shared.DOCPIPE_STORAGE).toBe('s3');
    expect(shared.DOCPIPE_PUBLIC_URL).toBeDefined();
    // Redis keeps its jobs across restarts.
    const redisHost = new URL(String(shared.REDIS_URL)).hostname;
    expect(services[redisHost]!.image).toBe('redis:7');
    expect(services[redisHost]!.command).toEqual(['redis-server', '--appendonly', 'yes']);
    // PostgreSQL keeps the records in a volume, with the user, password and database the URL names.
    const database = new URL(String(shared.DATABASE_URL));
    const postgres = services[database.hostname]!;
    expect(postgres.image).toMatch(/^postgres:\d+$/);
    expect(postgres.environment).toEqual({
      POSTGRES_USER: database.username,
      POSTGRES_PASSWORD: decodeURIComponent(database.password),
      POSTGRES_DB: database.pathname.slice(1),
    });
    // The store signs with the same credentials, and its bucket is made once, before docpipe.
    const store = services[new URL(String(shared.DOCPIPE_S3_ENDPOINT)).hostname]!;
    expect(store.environment!.AWS_ACCESS_KEY_ID).toBe(shared.AWS_ACCESS_KEY_ID);
    expect(store.environment!.AWS_SECRET_ACCESS_KEY).toBe(shared.AWS_SECRET_ACCESS_KEY);
    expect(String(services.bucket!.command)).toContain(
      `create-bucket --bucket ${shared.DOCPIPE_S3_BUCKET}`,
    );
  });

  it('names only variables docpipe reads (docs/configuration.md) or the AWS ones', () => {
    const documented = readFileSync(join(root, 'docs/configuration.md'), 'utf8');
    for (const [, service] of docpipe) {
      for (const name of Object.keys(service.environment!)) {
        if (name.startsWith('AWS_')) continue;
        expect(documented, name).toContain(`\`${name}\``);
      }
    }
  });

  it('starts docpipe after Redis and PostgreSQL are healthy and the bucket exists', () => {
    for (const [name, service] of docpipe) {
      expect(service.depends_on, name).toEqual({
        redis: { condition: 'service_healthy' },
        postgres: { condition: 'service_healthy' },
        bucket: { condition: 'service_completed_successfully' },
      });
    }
    expect(services.redis!.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
    expect(services.postgres!.healthcheck?.test).toContain('pg_isready');
    expect(services.bucket!.depends_on).toEqual({ store: { condition: 'service_healthy' } });
    expect(services.store!.healthcheck?.test?.join(' ')).toContain('/healthz');
  });

  it("serves on the image's port, checked by the image's health check; workers have /dev/shm", () => {
    const [[, serve]] = role('serve') as [[string, ComposeService]];
    expect(serve.ports).toEqual([`${env.DOCPIPE_HTTP_PORT}:${env.DOCPIPE_HTTP_PORT}`]);
    expect(serve.healthcheck).toBeUndefined();
    for (const [name, worker] of role('worker')) {
      // A worker serves no HTTP: the image's check would call it unhealthy.
      expect(worker.healthcheck, name).toEqual({ disable: true });
      // 512 MiB of /dev/shm for each office process (docs/converting.md).
      const processes = Number(worker.environment!.DOCPIPE_OFFICE_PROCESSES);
      expect(mebibytes(worker.shm_size!), name).toBeGreaterThanOrEqual(512 * processes);
    }
  });
});

function mebibytes(size: string): number {
  const m = /^(\d+)(m|mb|g|gb)$/i.exec(size);
  if (!m) throw new Error(`shm_size ${size} is not a number of MB or GB`);
  return Number(m[1]) * (m[2]!.toLowerCase().startsWith('g') ? 1024 : 1);
}
