/** The part of s3rver (a real S3-compatible server for tests, without types) the tests use. */
declare module 's3rver' {
  import { EventEmitter } from 'node:events';
  export default class S3rver extends EventEmitter {
    constructor(options: { port?: number; address?: string; silent?: boolean; directory: string; resetOnClose?: boolean });
    run(): Promise<{ address: string; family: string; port: number }>;
    close(): Promise<void>;
  }
}
