import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './test-service.ts';

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  on(event: 'event', listener: (event: S3rverEvent) => void): void;
  close(): Promise<void>;
  httpServer?: Server;
}
interface S3rverEvent {
  Records: { eventName: string; s3: { object: { key: string } } }[];
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships no types; it is only ever started here.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/** s3rver's fixed account: any other key pair is refused with InvalidAccessKeyId / SignatureDoesNotMatch. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The S3_* settings that point the service at this server. */
  env: Record<string, string>;
  /** Objects created so far, in order: `Put` (PutObject) or `Post` (a completed multipart upload). */
  created: { key: string; how: string }[];
  /** Stops answering (connections are refused) until `start` again; the stored objects stay. */
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** A real S3-protocol server (s3rver, from npm) on a loopback port, with one empty bucket. */
export async function startS3Server(bucket = 'reelsmith-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const port = await freePort();
  let server: S3rverInstance | undefined;
  const created: { key: string; how: string }[] = [];
  const start = async () => {
    if (server) return;
    server = new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: [{ name: bucket }],
    });
    server.on('event', (event) => {
      for (const record of event.Records) {
        const how = /^ObjectCreated:(\w+)$/.exec(record.eventName)?.[1];
        if (how) created.push({ key: decodeURIComponent(record.s3.object.key), how });
      }
    });
    await server.run();
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running) return;
    running.httpServer?.closeAllConnections();
    await running.close();
  };
  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    created,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    stop,
    start,
    dispose: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
