import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { contentTypeOf } from './content-types.ts';
import {
  MediaLinkSigner,
  isMediaKey,
  pathUnder,
  type MediaAnswer,
  type MediaStore,
  type SignedLink,
} from './media-store.ts';

export interface S3Settings {
  bucket: string;
  /** Unset: AWS S3 of `region`. */
  endpoint: string | undefined;
  /** The endpoint presigned links name, when callers reach the store at another address than the service. */
  publicEndpoint: string | undefined;
  region: string;
  /** Unset: the SDK's default credential chain (environment, shared files, container or instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
  /** Files above this go up in parts of this size (multipart upload). */
  partSizeBytes: number;
  /** The read-through copies kept under the cache folder stay below this many bytes. */
  cacheMaxBytes: number;
}

/** S3 refuses presigned links that live longer than a week. */
const MAX_PRESIGN_SECONDS = 7 * 86_400;
/** A copy read this recently is not evicted: a render that just asked for it is about to open it. */
const EVICTION_GRACE_MS = 10 * 60_000;

function notFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Files in an S3-compatible bucket. Uploads go through the SDK's managed upload (multipart above the part
 * size, CRC32 checksums checked by the store); an object becomes visible only when its upload completes, so
 * nothing half-written is ever read or linked. Links point at the service's /media/ route, which answers with
 * a short redirect to a presigned GET: the bytes (and byte ranges) come from the store, not from the API.
 */
export class S3MediaStore implements MediaStore {
  readonly remote = true;
  private readonly client: S3Client;
  private readonly presigner: S3Client;
  private readonly links: MediaLinkSigner;
  private readonly fetching = new Map<string, Promise<string | undefined>>();
  private cachedBytes: number | undefined;

  constructor(
    private readonly settings: S3Settings,
    publicBaseUrl: string,
    secret: string,
    /** Where read-through copies are kept (a folder of this machine). */
    private readonly cacheDir: string,
  ) {
    const base: S3ClientConfig = {
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
    };
    this.client = new S3Client({ ...base, ...(settings.endpoint ? { endpoint: settings.endpoint } : {}) });
    const publicEndpoint = settings.publicEndpoint ?? settings.endpoint;
    this.presigner =
      publicEndpoint === settings.endpoint
        ? this.client
        : new S3Client({ ...base, ...(publicEndpoint ? { endpoint: publicEndpoint } : {}) });
    this.links = new MediaLinkSigner(publicBaseUrl, secret);
  }

  async put(key: string, sourcePath: string, options: { move?: boolean } = {}): Promise<{ bytes: number }> {
    if (!isMediaKey(key)) throw new Error(`invalid media key ${key}`);
    const { size } = await stat(sourcePath);
    const upload = new Upload({
      client: this.client,
      partSize: this.settings.partSizeBytes,
      queueSize: 2,
      // A failed upload aborts its multipart upload: no parts are left behind and no object appears.
      leavePartsOnError: false,
      params: {
        Bucket: this.settings.bucket,
        Key: key,
        Body: createReadStream(sourcePath),
        ContentType: contentTypeOf(key),
        ChecksumAlgorithm: 'CRC32',
      },
    });
    await upload.done();
    if (options.move) await rm(sourcePath, { force: true });
    return { bytes: size };
  }

  async exists(key: string): Promise<boolean> {
    if (!isMediaKey(key)) return false;
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return true;
    } catch (error) {
      if (notFound(error)) return false;
      throw error;
    }
  }

  fetchToLocal(key: string, signal?: AbortSignal): Promise<string | undefined> {
    const running = this.fetching.get(key);
    if (running) return running;
    const fetching = this.download(key, signal).finally(() => this.fetching.delete(key));
    this.fetching.set(key, fetching);
    return fetching;
  }

  private async download(key: string, signal?: AbortSignal): Promise<string | undefined> {
    const target = pathUnder(this.cacheDir, key);
    if (!target) return undefined;
    const cached = await stat(target).catch(() => undefined);
    if (cached?.isFile()) {
      const now = new Date();
      await utimes(target, now, now).catch(() => {});
      return target;
    }
    let body: Readable;
    let length: number | undefined;
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }),
        signal ? { abortSignal: signal } : {},
      );
      body = object.Body as Readable;
      length = object.ContentLength;
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
    await mkdir(dirname(target), { recursive: true });
    // Another process of this machine may fetch the same key: each writes its own file and renames it in.
    const partial = `${target}.partial-${randomBytes(6).toString('hex')}`;
    try {
      await pipeline(body, createWriteStream(partial), signal ? { signal } : {});
      const { size } = await stat(partial);
      if (length !== undefined && size !== length)
        throw new Error(`reading ${key} from the bucket stopped after ${size} of ${length} bytes`);
      await rename(partial, target);
      await this.noteCached(size);
    } finally {
      await rm(partial, { force: true });
    }
    return target;
  }

  /** Keeps the cache folder below its size: the least recently read copies go first. */
  private async noteCached(bytes: number): Promise<void> {
    this.cachedBytes = (this.cachedBytes ?? (await this.cacheSize())) + bytes;
    if (this.cachedBytes <= this.settings.cacheMaxBytes) return;
    const files = await this.cacheFiles();
    files.sort((a, b) => a.usedAt - b.usedAt);
    let total = files.reduce((sum, f) => sum + f.size, 0);
    const goal = this.settings.cacheMaxBytes * 0.8;
    const now = Date.now();
    for (const file of files) {
      if (total <= goal || now - file.usedAt < EVICTION_GRACE_MS) break;
      await rm(file.path, { force: true });
      total -= file.size;
    }
    this.cachedBytes = total;
  }

  private async cacheFiles(): Promise<{ path: string; size: number; usedAt: number }[]> {
    const entries = await readdir(this.cacheDir, { recursive: true, withFileTypes: true }).catch(() => []);
    const files: { path: string; size: number; usedAt: number }[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.includes('.partial-')) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => undefined);
      if (info) files.push({ path, size: info.size, usedAt: info.mtimeMs });
    }
    return files;
  }

  private async cacheSize(): Promise<number> {
    return (await this.cacheFiles()).reduce((sum, f) => sum + f.size, 0);
  }

  sign(key: string, ttlSeconds: number, now = new Date()): SignedLink {
    return this.links.sign(key, ttlSeconds, now);
  }

  verify(key: string, expires: string, signature: string, now = new Date()): boolean {
    return this.links.verify(key, expires, signature, now);
  }

  /** A presigned GET living as long as the link that asked for it (at most S3's week). */
  async answer(key: string, expiresAt: Date, now = new Date()): Promise<MediaAnswer | undefined> {
    if (!isMediaKey(key)) return undefined;
    const seconds = Math.ceil((expiresAt.getTime() - now.getTime()) / 1000);
    const redirect = await getSignedUrl(
      this.presigner,
      new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }),
      { expiresIn: Math.max(1, Math.min(MAX_PRESIGN_SECONDS, seconds)), signingDate: now },
    );
    return { redirect };
  }

  async list(prefix: string): Promise<string[]> {
    if (!isMediaKey(prefix)) return [];
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: `${prefix}/`,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async remove(prefix: string): Promise<void> {
    if (!isMediaKey(prefix)) return;
    const keys = [prefix, ...(await this.list(prefix))];
    // DeleteObjects takes at most 1000 keys.
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.settings.bucket,
          Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
    const cached = pathUnder(this.cacheDir, prefix);
    if (cached) await rm(cached, { recursive: true, force: true });
  }

  close(): void {
    this.client.destroy();
    if (this.presigner !== this.client) this.presigner.destroy();
  }
}
