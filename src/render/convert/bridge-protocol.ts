/**
 * The protocol between an office process and its UNO bridge (workers/uno-bridge.py): one JSON
 * object a line on the bridge's stdin and stdout, and right after a line that announces `bytes`,
 * that many raw bytes (bridge-frames.ts splits the stream). Every message is declared here, and
 * OfficeProcess speaks only through `encodeRequest` and `parseReply`.
 *
 * Requests, docpipe to the bridge (read by `serve()` in uno-bridge.py):
 *   convert    {"id", "bytes", "title"?, "pdfa"?} then `bytes` bytes of .docx
 *   watch      {"watch": pid}: soffice.bin was started again and has a new pid to own
 * Replies, the bridge to docpipe (all written by `send()`):
 *   ready      {"ready": true, "ms"}: `main()`, once connected to the office
 *   started    {"id", "started": true}: `serve()`, as it begins a conversion
 *   converted  {"id", "ok": true, "ms", "bytes"} then `bytes` bytes of PDF: `serve()`, when
 *              `convert()` (through `store()`) succeeded; `bytes` is 0 when LibreOffice wrote none
 *   failed     {"id", "ok": false, "error", "message", "ms", "bytes": 0}: `serve()`, when `store()`
 *              could not load the document (`load-failed`) or `convert()` raised (`office-gone`
 *              for a disposed office, else `convert-failed`)
 * A reply is checked field by field, extra fields included: the bridge and this file change
 * together, and a reply that does not fit is a broken bridge, not something to guess at.
 */

/** The failures the bridge reports; the others of OfficeFailureKind are docpipe's own. */
export const BRIDGE_FAILURE_KINDS = ['load-failed', 'convert-failed', 'office-gone'] as const;
export type BridgeFailureKind = (typeof BRIDGE_FAILURE_KINDS)[number];

export interface ConvertRequestMessage {
  kind: 'convert';
  id: number;
  docx: Uint8Array;
  title?: string;
  pdfa?: boolean;
}

export interface WatchRequestMessage {
  kind: 'watch';
  pid: number;
}

export type BridgeRequest = ConvertRequestMessage | WatchRequestMessage;

export interface ReadyReply {
  kind: 'ready';
  /** How long the bridge took to connect to the office. */
  ms: number;
}

export interface StartedReply {
  kind: 'started';
  id: number;
}

export interface ConvertedReply {
  kind: 'converted';
  id: number;
  ms: number;
  /** What LibreOffice wrote; empty when it wrote nothing. */
  pdf: Buffer;
}

export interface FailedReply {
  kind: 'failed';
  id: number;
  error: BridgeFailureKind;
  message: string;
  ms: number;
}

export type BridgeReply = ReadyReply | StartedReply | ConvertedReply | FailedReply;

/** A reply that is not one of the bridge's messages. */
export class BridgeProtocolError extends Error {
  override readonly name = 'BridgeProtocolError';
}

/** The line (and the document after it) that carries a request to the bridge. */
export function encodeRequest(request: BridgeRequest): [string] | [string, Uint8Array] {
  if (request.kind === 'watch') return [`${JSON.stringify({ watch: request.pid })}\n`];
  const { id, docx, title, pdfa } = request;
  return [`${JSON.stringify({ id, bytes: docx.byteLength, title, pdfa })}\n`, docx];
}

/**
 * Reads one message from the bridge: its JSON line and the bytes that came after it. Throws a
 * BridgeProtocolError, naming what is wrong, for anything that is not exactly one of the replies.
 */
export function parseReply(header: Record<string, unknown>, payload: Buffer): BridgeReply {
  const fields = new Fields(header);
  if ('ready' in header) {
    fields.only('ready', ['ready', 'ms']);
    fields.literal('ready', true);
    return { kind: 'ready', ms: fields.duration('ms') };
  }
  if ('started' in header) {
    fields.only('started', ['id', 'started']);
    fields.literal('started', true);
    return { kind: 'started', id: fields.id() };
  }
  if (header.ok === true) {
    fields.only('converted', ['id', 'ok', 'ms', 'bytes']);
    fields.byteCount(payload.length);
    return { kind: 'converted', id: fields.id(), ms: fields.duration('ms'), pdf: payload };
  }
  if (header.ok === false) {
    fields.only('failed', ['id', 'ok', 'error', 'message', 'ms', 'bytes']);
    fields.byteCount(0);
    return {
      kind: 'failed',
      id: fields.id(),
      error: fields.failureKind(),
      message: fields.text('message'),
      ms: fields.duration('ms'),
    };
  }
  throw new BridgeProtocolError(
    `the UNO bridge sent an unknown reply (no ready, started or boolean ok): ${quote(header)}`,
  );
}

/** Checks of a reply's fields, each throwing with the reply quoted. */
class Fields {
  private kind = 'unknown';

  constructor(private readonly header: Record<string, unknown>) {}

  /** Exactly these fields, all present: the bridge always writes each of them. */
  only(kind: string, names: readonly string[]): void {
    this.kind = kind;
    const extra = Object.keys(this.header).filter((name) => !names.includes(name));
    if (extra.length > 0) this.fail(`unexpected field ${extra.join(', ')}`);
    const missing = names.filter((name) => !(name in this.header));
    if (missing.length > 0) this.fail(`missing field ${missing.join(', ')}`);
  }

  literal(name: string, value: boolean): void {
    if (this.header[name] !== value) this.fail(`${name} must be ${String(value)}`);
  }

  id(): number {
    const id = this.header.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
      this.fail('id must be a positive integer');
    return id;
  }

  duration(name: string): number {
    const ms = this.header[name];
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
      this.fail(`${name} must be a number of milliseconds`);
    return ms;
  }

  text(name: string): string {
    const value = this.header[name];
    if (typeof value !== 'string') this.fail(`${name} must be a string`);
    return value;
  }

  /** `bytes` says how many bytes followed the line; the frames read exactly that many. */
  byteCount(expected: number): void {
    if (this.header.bytes !== expected)
      this.fail(`bytes must be ${expected}, the size of what followed`);
  }

  failureKind(): BridgeFailureKind {
    const error = this.header.error;
    const kind = BRIDGE_FAILURE_KINDS.find((k) => k === error);
    if (!kind) this.fail(`error must be one of ${BRIDGE_FAILURE_KINDS.join(', ')}`);
    return kind;
  }

  private fail(problem: string): never {
    throw new BridgeProtocolError(
      `the UNO bridge sent a malformed ${this.kind} reply (${problem}): ${quote(this.header)}`,
    );
  }
}

/** The reply as sent, cut short: a bridge gone wrong may write anything. */
function quote(header: Record<string, unknown>): string {
  const text = JSON.stringify(header);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
