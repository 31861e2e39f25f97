import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';

/** A real S3-compatible server (s3rver) on a free port of 127.0.0.1, with its objects in a temp folder. */
export interface TestS3Server {
  /** The `S3_*` variables that make the site use this server's bucket. */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  /** A client of the server, for tests to look at the bucket directly. */
  client: S3Client;
  /** The names of the events the server reported (`ObjectCreated:Put`, `ObjectCreated:Post` for a completed multipart upload, …), with keys. */
  events: { name: string; key: string }[];
  /** Takes the server away (its objects kept), as a bucket out of reach. */
  pause(): Promise<void>;
  /** Brings it back on the same address with the same objects. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts s3rver and creates `bucket` on it. */
export async function startS3Server(bucket = 'copperhub-test'): Promise<TestS3Server> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'copperhub-test-s3-'));
  const events: TestS3Server['events'] = [];
  const serve = (on: number) => {
    const made = new S3rver({ port: on, address: '127.0.0.1', silent: true, directory });
    made.on('event', (event: { Records: { eventName: string; s3: { object: { key: string } } }[] }) => {
      for (const record of event.Records) events.push({ name: record.eventName, key: decodeURIComponent(record.s3.object.key) });
    });
    return made;
  };
  let server = serve(0);
  let running = true;
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's own fixed credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: credentials.accessKeyId, S3_SECRET_ACCESS_KEY: credentials.secretAccessKey },
    endpoint,
    bucket,
    client,
    events,
    async pause() {
      if (running) await server.close();
      running = false;
    },
    async resume() {
      if (running) return;
      server = serve(port);
      await server.run();
      running = true;
    },
    async stop() {
      client.destroy();
      if (running) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * An s3rver for this test file whose bucket becomes the site's storage: the `S3_*` variables are
 * set before any other `beforeAll` of the file runs, so call it before `useApp`/`useTestDatabase`
 * (the configuration is read once per process, at its first use).
 */
export function useS3Storage(): () => TestS3Server {
  let s3: TestS3Server | undefined;
  beforeAll(async () => {
    s3 = await startS3Server();
    Object.assign(process.env, s3.env);
  });
  afterAll(async () => {
    for (const name of Object.keys(s3?.env ?? {})) delete process.env[name];
    await s3?.stop();
  });
  return () => {
    if (!s3) throw new Error('the S3 server starts in beforeAll');
    return s3;
  };
}
