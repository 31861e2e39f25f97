/**
 * A response object for Astro's handler that keeps a page in memory when it may be stored, and
 * otherwise passes it through to the visitor as it is written (a download, a page for a member, a
 * redirect): nothing large or private is ever held or kept.
 */
import type http from 'node:http';
import { Writable } from 'node:stream';
import { PAGE_EXPIRES_HEADER, PAGE_TAGS_HEADER } from './key.ts';

export interface CapturedPage {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

/** The headers decide whether a response may be kept; a body past `maxBytes` is passed on instead. */
export type Keepable = (status: number, headers: http.OutgoingHttpHeaders) => boolean;

type HeaderValue = number | string | string[];

export class CapturingResponse extends Writable {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  /** Whether the response is kept (false once it is passed through or was never keepable). */
  kept = true;
  readonly req: http.IncomingMessage;
  private readonly headers = new Map<string, HeaderValue>();
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly target: http.ServerResponse | null;
  private readonly keepable: Keepable;
  private readonly maxBytes: number;
  readonly done: Promise<CapturedPage | null>;
  private settle!: (page: CapturedPage | null) => void;

  constructor(options: { req: http.IncomingMessage; target: http.ServerResponse | null; keepable: Keepable; maxBytes: number }) {
    super();
    this.req = options.req;
    this.target = options.target;
    this.keepable = options.keepable;
    this.maxBytes = options.maxBytes;
    this.done = new Promise((resolve) => (this.settle = resolve));
    this.once('finish', () => this.settle(this.kept ? { status: this.statusCode, headers: this.getHeaders(), body: Buffer.concat(this.chunks) } : null));
    this.once('close', () => this.settle(null));
    // A visitor who leaves stops a page that is passed through to them.
    this.target?.once('close', () => {
      if (!this.kept && !this.writableFinished) this.destroy();
    });
  }

  setHeader(name: string, value: HeaderValue): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string): HeaderValue | undefined {
    return this.headers.get(name.toLowerCase());
  }
  getHeaders(): http.OutgoingHttpHeaders {
    return Object.fromEntries(this.headers);
  }
  getHeaderNames(): string[] {
    return [...this.headers.keys()];
  }
  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }
  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  writeHead(status: number, ...rest: unknown[]): this {
    const headers = (typeof rest[0] === 'string' ? rest[1] : rest[0]) as http.OutgoingHttpHeaders | undefined;
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    if (!this.keepable(status, this.getHeaders())) this.passThrough();
    return this;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.headersSent) this.writeHead(this.statusCode);
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    if (this.kept) {
      this.chunks.push(buffer);
      this.size += buffer.length;
      if (this.size > this.maxBytes) this.passThrough();
      callback();
      return;
    }
    if (!this.target || this.target.destroyed) return callback();
    if (this.target.write(buffer)) callback();
    else this.target.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (!this.kept && this.target && !this.target.destroyed) this.target.end(() => callback());
    else callback();
  }

  /** From here on the response goes to the visitor as it comes (or nowhere, for a refresh). */
  private passThrough(): void {
    if (!this.kept) return;
    this.kept = false;
    const target = this.target;
    if (!target || target.headersSent) return;
    target.statusCode = this.statusCode;
    // A render's tags and expiry are the cache's alone (an answer it does not keep goes without them).
    for (const [name, value] of this.headers) if (name !== PAGE_TAGS_HEADER && name !== PAGE_EXPIRES_HEADER) target.setHeader(name, value);
    target.writeHead(this.statusCode);
    for (const chunk of this.chunks) target.write(chunk);
    this.chunks.length = 0;
  }
}
