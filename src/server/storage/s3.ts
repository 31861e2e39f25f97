/**
 * The S3-compatible driver (AWS S3, MinIO, Cloudflare R2, …): the same files by key as the disk,
 * in one bucket that every instance shares. Large files go up in parts, streamed from the disk;
 * reads pass Range and conditional requests to the bucket, which answers them itself; browsers
 * can be sent to a presigned address instead of having the bytes relayed.
 */
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type GetObjectCommandInput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentTypeOf } from '../../lib/mime.ts';
import type { S3Config } from '../config.ts';
import { digestBytes, digestFile } from './checksum.ts';
import { assertSafeKey, type StorageBase } from './driver.ts';
import { AppError, NETWORK_UNREACHABLE } from '../http/errors.ts';

/** How soon a client may try again while the bucket is out of reach (`Retry-After`). */
const STORAGE_RETRY_SECONDS = 5;

/** Parts of a multipart upload: 8 MB, two in flight, so a 1 GB video costs 16 MB of memory. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** How long a presigned download address lives: enough to start a slow download, short enough not to be shared. */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;
/** The longest a SigV4 presigned address may live. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

/** The conditions of a browser's GET or HEAD, for the bucket to answer. */
export interface BucketReadRequest {
  method: 'GET' | 'HEAD';
  /** One `bytes=` range (S3 answers no more than one). */
  range?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifModifiedSince?: Date | undefined;
  ifMatch?: string | undefined;
  ifUnmodifiedSince?: Date | undefined;
}

/** The bucket's answer to a `BucketReadRequest`: the status and validators to send on, and the bytes. */
export interface BucketReadAnswer {
  status: 200 | 206 | 304 | 412 | 416;
  size: number | undefined;
  contentLength: number | undefined;
  contentRange: string | undefined;
  etag: string | undefined;
  lastModified: Date | undefined;
  body: Readable | null;
}

/** What the bucket holds under a key, with the SHA-256 this site wrote beside it (if it wrote it). */
export interface BucketObjectInfo {
  size: number;
  sha256: string | undefined;
}

export interface BucketStorage extends StorageBase {
  readonly driver: 's3';
  readonly bucket: string;
  /**
   * An address a browser may GET `key` from, straight from the bucket, for `expiresIn` seconds;
   * the bucket answers with `disposition` (`attachment; filename=…`) and `contentType` if given.
   */
  signedUrl(key: string, options: { expiresIn: number; disposition?: string; contentType?: string }): Promise<string>;
  /** A GET or HEAD of `key` answered by the bucket (Range, ETag and dates); null when missing. */
  readForHttp(key: string, request: BucketReadRequest): Promise<BucketReadAnswer | null>;
  /** Size and recorded SHA-256 of `key`, or null when missing. */
  describe(key: string): Promise<BucketObjectInfo | null>;
  /** Streams the file at `source` to `key` with its SHA-256 recorded, keeping `source`. */
  upload(key: string, source: string, sha256: string): Promise<void>;
}

/**
 * Whether the bucket could not be reached at all (no HTTP answer: refused, reset, timed out, no
 * such host), after the SDK's own retries: the bucket is away, not the request wrong.
 */
function isUnreachable(error: unknown): boolean {
  if (statusOf(error) !== undefined) return false;
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return NETWORK_UNREACHABLE.has(String(code)) || name === 'TimeoutError';
}

/** The status S3 answered with, for errors the SDK throws (304 and 412 included). */
function statusOf(error: unknown): number | undefined {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode;
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

export function createS3Storage(config: S3Config): BucketStorage {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's newer
    // default (a CRC32 trailer on every upload); the SHA-256 below is this site's own check.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // Every call: the bucket out of reach is `storage_unavailable` (503, to be tried again), which
  // the API's envelope and file reads answer as such, instead of an internal error.
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isUnreachable(error)) throw new AppError('storage_unavailable', undefined, { retryAfterSeconds: STORAGE_RETRY_SECONDS });
        throw error;
      }
    },
    { step: 'initialize', name: 'copperhubStorageUnavailable' },
  );
  const Bucket = config.bucket;
  const keyOf = (key: string) => {
    assertSafeKey(key);
    return key;
  };
  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  };
  const upload = async (key: string, source: string, sha256: string) => {
    const parts = new Upload({
      client,
      params: { Bucket, Key: keyOf(key), Body: createReadStream(source), ContentType: contentTypeOf(key), Metadata: { sha256 } },
      partSize: S3_PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    await parts.done();
  };

  return {
    driver: 's3',
    bucket: Bucket,
    async put(key, data) {
      await client.send(
        new PutObjectCommand({ Bucket, Key: keyOf(key), Body: data, ContentLength: data.byteLength, ContentType: contentTypeOf(key), Metadata: { sha256: digestBytes(data) } }),
      );
    },
    async putFile(key, source) {
      // Read twice from the disk, never held: once for the hash (sent before the first part), once to upload.
      const { sha256 } = await digestFile(source);
      await upload(key, source, sha256);
      await rm(source, { force: true });
    },
    upload,
    async read(key, range) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
        return (answer.Body as Readable | undefined) ?? null;
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
    },
    async stat(key) {
      const info = await head(key);
      return info ? { size: info.ContentLength ?? 0, modified: info.LastModified ?? new Date(0) } : null;
    },
    async size(key) {
      return (await head(key))?.ContentLength ?? null;
    },
    async describe(key) {
      const info = await head(key);
      return info ? { size: info.ContentLength ?? 0, sha256: info.Metadata?.sha256 } : null;
    },
    async delete(key) {
      // S3 answers a missing key with success too.
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
    async list(folder) {
      if (!folder.endsWith('/')) throw new Error(`not a folder: ${folder}`);
      const found = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: keyOf(folder), ...(ContinuationToken ? { ContinuationToken } : {}) }));
        for (const item of page.Contents ?? []) if (item.Key) found.push({ key: item.Key, size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) });
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return found;
    },
    async signedUrl(key, { expiresIn, disposition, contentType }) {
      const input: GetObjectCommandInput = {
        Bucket,
        Key: keyOf(key),
        ...(disposition ? { ResponseContentDisposition: disposition } : {}),
        ...(contentType ? { ResponseContentType: contentType } : {}),
      };
      return getSignedUrl(client, new GetObjectCommand(input), { expiresIn: Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor(expiresIn))) });
    },
    async readForHttp(key, request) {
      const input = {
        Bucket,
        Key: keyOf(key),
        ...(request.range ? { Range: request.range } : {}),
        ...(request.ifNoneMatch ? { IfNoneMatch: request.ifNoneMatch } : {}),
        ...(request.ifModifiedSince ? { IfModifiedSince: request.ifModifiedSince } : {}),
        ...(request.ifMatch ? { IfMatch: request.ifMatch } : {}),
        ...(request.ifUnmodifiedSince ? { IfUnmodifiedSince: request.ifUnmodifiedSince } : {}),
      };
      try {
        const answer = request.method === 'HEAD' ? await client.send(new HeadObjectCommand(input)) : await client.send(new GetObjectCommand(input));
        const contentRange = 'ContentRange' in answer ? answer.ContentRange : undefined;
        const size = contentRange ? Number(contentRange.split('/')[1]) || undefined : answer.ContentLength;
        return {
          status: contentRange ? 206 : 200,
          size,
          contentLength: answer.ContentLength,
          contentRange,
          etag: answer.ETag,
          lastModified: answer.LastModified,
          body: 'Body' in answer ? ((answer.Body as Readable | undefined) ?? null) : null,
        };
      } catch (error) {
        const status = statusOf(error);
        if (status === 404) return null;
        if (status === 304 || status === 412 || status === 416) {
          // The validators (304) and the size (`bytes */size` of a 416) come from a plain HEAD.
          const info = await head(key);
          if (!info) return null;
          return { status, size: info.ContentLength, contentLength: undefined, contentRange: undefined, etag: info.ETag, lastModified: info.LastModified, body: null };
        }
        throw error;
      }
    },
  };
}
