/**
 * Reads a Dockerfile as Docker's builder does, as far as docpipe's image needs: comments, line
 * continuations, stages, and the instructions that decide an image's files and contract. What it
 * does not model (ADD, variables, globs, quoting in paths, another escape character) it refuses,
 * so that a test built on it cannot pass by misreading the file.
 */

export interface Instruction {
  /** Upper case, as Docker matches keywords case-insensitively. */
  keyword: string;
  args: string;
  /** 1-based line where the instruction starts. */
  line: number;
}

export interface Stage {
  name: string | undefined;
  base: string;
  instructions: Instruction[];
}

export interface Copy {
  /** The stage (or image) of `--from`; undefined copies from the build context. */
  from: string | undefined;
  sources: string[];
  dest: string;
  line: number;
}

export interface Healthcheck {
  options: Record<string, string>;
  /** Exec form, or the shell form's text (run by /bin/sh -c). */
  command: string[] | string;
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const ins of instructions(text)) {
    if (ins.keyword === 'FROM') {
      stages.push(parseFrom(ins));
    } else if (stages.length === 0) {
      if (ins.keyword !== 'ARG') throw new Error(`line ${ins.line}: ${ins.keyword} before FROM`);
    } else {
      stages[stages.length - 1]!.instructions.push(ins);
    }
  }
  if (stages.length === 0) throw new Error('no FROM: not a Dockerfile');
  return stages;
}

/** Logical instructions: continuation lines joined, comment and blank lines dropped. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: { text: string; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (/^#\s*escape\s*=/i.test(trimmed) && !pending && out.length === 0)
      throw new Error('an escape directive is not modelled: keep the default backslash');
    // Docker drops comment and blank lines, also in the middle of a continued instruction.
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const continues = /\\\s*$/.test(raw);
    const body = continues ? raw.replace(/\\\s*$/, '') : raw;
    pending = pending
      ? { text: pending.text + body, line: pending.line }
      : { text: body, line: index + 1 };
    if (continues) return;
    out.push(split(pending.text, pending.line));
    pending = undefined;
  });
  if (pending) throw new Error(`line ${pending.line}: the last instruction ends in a backslash`);
  return out;
}

function split(text: string, line: number): Instruction {
  const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`line ${line}: no instruction`);
  return { keyword: match[1]!.toUpperCase(), args: match[2]!.trim(), line };
}

function parseFrom(ins: Instruction): Stage {
  const words = plainWords(ins.args, ins.line).filter((w) => !w.startsWith('--platform='));
  if (words.length === 1) return { name: undefined, base: words[0]!, instructions: [] };
  if (words.length === 3 && words[1]!.toUpperCase() === 'AS')
    return { name: words[2]!.toLowerCase(), base: words[0]!, instructions: [] };
  throw new Error(`line ${ins.line}: FROM ${ins.args} is not "image [AS name]"`);
}

/** The stage named `name` (or, by number, as --from=0 names the first). */
export function stageNamed(stages: Stage[], name: string): Stage {
  const stage = /^\d+$/.test(name)
    ? stages[Number(name)]
    : stages.find((s) => s.name === name.toLowerCase());
  if (!stage) throw new Error(`no stage "${name}" in the Dockerfile`);
  return stage;
}

/** Words of an instruction without quotes or variables, which the readers here do not model. */
function plainWords(args: string, line: number): string[] {
  if (/["'$]/.test(args)) throw new Error(`line ${line}: quotes and variables are not modelled`);
  return args.split(/\s+/).filter(Boolean);
}

/** The exec (JSON array) form, or undefined for the shell form. */
export function execForm(args: string, line: number): string[] | undefined {
  if (!args.startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((w): w is string => typeof w === 'string'))
    throw new Error(`line ${line}: ${args} is not a JSON array of strings`);
  return parsed;
}

/** Words of a list instruction (VOLUME, EXPOSE): a JSON array or words. */
export function listArgs(ins: Instruction): string[] {
  return execForm(ins.args, ins.line) ?? plainWords(ins.args, ins.line);
}

const COPY_FLAGS = new Set(['from', 'chown', 'chmod', 'link']);

export function parseCopy(ins: Instruction): Copy {
  if (ins.keyword === 'ADD')
    throw new Error(`line ${ins.line}: ADD is not modelled; use COPY for files of the context`);
  if (ins.keyword !== 'COPY') throw new Error(`line ${ins.line}: ${ins.keyword} is not COPY`);
  let rest = ins.args;
  let from: string | undefined;
  for (;;) {
    const flag = /^--([a-z-]+)(?:=(\S+))?\s+/.exec(rest);
    if (!flag) break;
    if (!COPY_FLAGS.has(flag[1]!))
      throw new Error(`line ${ins.line}: COPY --${flag[1]} is not modelled`);
    if (flag[1] === 'from') from = flag[2];
    rest = rest.slice(flag[0].length);
  }
  const words = execForm(rest, ins.line) ?? plainWords(rest, ins.line);
  if (words.length < 2) throw new Error(`line ${ins.line}: COPY needs a source and a destination`);
  const sources = words.slice(0, -1);
  const dest = words[words.length - 1]!;
  for (const s of sources)
    if (/[*?[]/.test(s))
      throw new Error(`line ${ins.line}: COPY wildcards are not modelled (${s})`);
  if (sources.length > 1 && !dest.endsWith('/'))
    throw new Error(`line ${ins.line}: COPY of several sources needs a destination ending in /`);
  return { from, sources, dest, line: ins.line };
}

/** ENV in both forms: `KEY=value KEY2="a b"`, and the legacy `KEY the rest of the line`. */
export function parseEnv(ins: Instruction): Record<string, string> {
  const words = quotedWords(ins.args, ins.line);
  if (!words[0]?.includes('=')) {
    const legacy = /^(\S+)\s+(.*)$/.exec(ins.args);
    if (!legacy) throw new Error(`line ${ins.line}: ENV ${ins.args} has no value`);
    return { [legacy[1]!]: legacy[2]!.trim() };
  }
  const env: Record<string, string> = {};
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new Error(`line ${ins.line}: ENV "${word}" is not KEY=value`);
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return env;
}

/** Shell-like words: double quotes (with backslash escapes) and single quotes; no variables. */
function quotedWords(text: string, line: number): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '$') {
      throw new Error(`line ${line}: variables are not modelled`);
    } else if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`line ${line}: unterminated quote`);
      const inner = text.slice(i + 1, end);
      word = (word ?? '') + (c === '"' ? inner.replace(/\\(.)/g, '$1') : inner);
      i = end;
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

export function parseHealthcheck(ins: Instruction): Healthcheck | 'NONE' {
  if (ins.args.toUpperCase() === 'NONE') return 'NONE';
  const options: Record<string, string> = {};
  let rest = ins.args;
  for (;;) {
    const option = /^--([a-z-]+)=(\S+)\s+/.exec(rest);
    if (!option) break;
    options[option[1]!] = option[2]!;
    rest = rest.slice(option[0].length);
  }
  const cmd = /^CMD\s+([\s\S]+)$/i.exec(rest);
  if (!cmd) throw new Error(`line ${ins.line}: HEALTHCHECK without CMD`);
  return { options, command: execForm(cmd[1]!, ins.line) ?? cmd[1]! };
}

/** The last instruction of a kind in a stage (the one that counts for USER, CMD, ...). */
export function last(stage: Stage, keyword: string): Instruction | undefined {
  return stage.instructions.filter((i) => i.keyword === keyword).at(-1);
}

/** Every ENV of a stage, later ones overriding earlier ones. */
export function stageEnv(stage: Stage): Record<string, string> {
  return Object.assign(
    {},
    ...stage.instructions.filter((i) => i.keyword === 'ENV').map(parseEnv),
  ) as Record<string, string>;
}
