// detectFaces and segmentPerson as the rest of the service calls them: run in one child process that starts on
// the first call and exits after a quiet spell. The models' memory (TensorFlow.js, Human, the weights and the
// WebAssembly heap, which never shrinks) is thus never this process's: a worker thread's would be, and it
// raised an API-and-worker process analysing a few personas from about 280 to 550+ MB (BENCHMARKS.md).
import { fork, type ChildProcess } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DetectFacesOptions, Face } from './faces.ts';
import type { ImageInput } from './image-input.ts';
import { VisionModelsMissingError } from './models-missing-error.ts';
import type { PersonMask } from './person-mask.ts';

/** The process exits after this long without a call (VISION_IDLE_MS overrides; read at each call). */
const DEFAULT_IDLE_MS = 5_000;

/**
 * A picture as it crosses to the vision process: an image file's path, or raw pixels written to a scratch file.
 * Pixels sent down the channel would be copied whole into a serialisation buffer and the pipe's queue of this
 * process, several megabytes a call that its allocator then kept (+60–120 MB over the benchmark's personas).
 */
export type WireImage = string | { rawFile: string; width: number; height: number };

export type VisionRequest =
  | { id: number; op: 'detectFaces'; args: [WireImage, DetectFacesOptions?] }
  | { id: number; op: 'segmentPerson'; args: [WireImage] };

export type VisionReply =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: { message: string; missing: string[] | undefined } };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface VisionProcess {
  child: ChildProcess;
  pending: Map<number, Pending>;
  idle: NodeJS.Timeout | undefined;
  exited: Promise<void>;
}

let current: VisionProcess | null = null;
let nextId = 1;

function idleMs(): number {
  const configured = Number(process.env.VISION_IDLE_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_IDLE_MS;
}

function failAll(vision: VisionProcess, error: Error): void {
  for (const pending of vision.pending.values()) pending.reject(error);
  vision.pending.clear();
}

/** Keeps this process alive for the child only while a call waits on it. */
function holdOpen(vision: VisionProcess, hold: boolean): void {
  if (hold) {
    vision.child.ref();
    vision.child.channel?.ref();
  } else {
    vision.child.unref();
    vision.child.channel?.unref();
  }
}

/**
 * The child's entry, next to this module: compiled JavaScript in build/ (npm start), or TypeScript under tsx
 * (tests, benchmarks), then loaded by tsx's resolved path whatever this process's own flags and working
 * directory (a test runner's, a CLI's).
 */
function entry(): { path: string; execArgv: string[] } {
  const compiled = import.meta.url.endsWith('.js');
  return {
    path: fileURLToPath(new URL(compiled ? './vision-process.js' : './vision-process.ts', import.meta.url)),
    execArgv: compiled ? [] : ['--import', import.meta.resolve('tsx')],
  };
}

function start(): VisionProcess {
  const { path, execArgv } = entry();
  const child = fork(path, [], {
    execArgv,
    // Structured clone: masks and descriptors come back as typed arrays, not as JSON number lists.
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // glibc gives each thread (libvips' workers, the WASM runtime's) its own malloc arena, kept once grown: with
    // two, four photos analysed peaked at 289–315 MB against 307–353 MB, with the same answers.
    env: { MALLOC_ARENA_MAX: '2', ...process.env },
  });
  let exited!: () => void;
  const vision: VisionProcess = {
    child,
    pending: new Map(),
    idle: undefined,
    exited: new Promise<void>((resolve) => (exited = resolve)),
  };
  child.on('message', (reply: VisionReply) => {
    const pending = vision.pending.get(reply.id);
    if (!pending) return;
    vision.pending.delete(reply.id);
    if (reply.error) {
      pending.reject(
        reply.error.missing
          ? new VisionModelsMissingError(reply.error.missing)
          : new Error(reply.error.message),
      );
    } else {
      pending.resolve(reply.result);
    }
    if (vision.pending.size === 0) scheduleExit(vision);
  });
  child.on('error', (error) => {
    if (current === vision) current = null;
    failAll(vision, error);
  });
  child.on('exit', (code, signal) => {
    if (current === vision) current = null;
    clearTimeout(vision.idle);
    failAll(vision, new Error(`the vision process exited (${signal ?? `code ${code}`}) before answering`));
    exited();
  });
  return vision;
}

/** Ends a process: it exits by itself once its channel closes, having nothing left to answer. */
function end(vision: VisionProcess): void {
  clearTimeout(vision.idle);
  holdOpen(vision, false);
  if (vision.child.connected) vision.child.disconnect();
}

function scheduleExit(vision: VisionProcess): void {
  // An idle process must not keep this one alive.
  holdOpen(vision, false);
  vision.idle = setTimeout(() => {
    if (current === vision) current = null;
    end(vision);
  }, idleMs());
  vision.idle.unref();
}

/** The picture as the vision process reads it: raw pixels go through `rawFile`. */
function wireImage(input: ImageInput, rawFile: string): WireImage {
  return typeof input === 'string' ? input : { rawFile, width: input.width, height: input.height };
}

/**
 * Sends a call with its picture. The call is the process's (started if need be, kept from an idle exit) from
 * the moment it is made; raw pixels go through a scratch file that lives as long as the call.
 */
async function call<T>(op: VisionRequest['op'], input: ImageInput, options?: DetectFacesOptions): Promise<T> {
  const vision = (current ??= start());
  clearTimeout(vision.idle);
  holdOpen(vision, true);
  const id = nextId++;
  let settle!: Pending;
  const answer = new Promise<T>((resolve, reject) => {
    settle = { resolve: resolve as (value: unknown) => void, reject };
  });
  vision.pending.set(id, settle);
  // The process may fail the call while its pixels are still being written: that is answered below.
  answer.catch(() => undefined);
  const rawFile = join(tmpdir(), `reelsmith-vision-${process.pid}-${id}.raw`);
  try {
    // A person's photo: readable by this user only, and removed when the call ends.
    if (typeof input !== 'string') await writeFile(rawFile, input.data, { mode: 0o600 });
    const image = wireImage(input, rawFile);
    const message: VisionRequest =
      op === 'detectFaces'
        ? { id, op, args: options ? [image, options] : [image] }
        : { id, op, args: [image] };
    vision.child.send(message, (error) => {
      if (error && vision.pending.delete(id))
        settle.reject(new Error(`the vision process could not take the call: ${error.message}`));
    });
  } catch (error) {
    if (vision.pending.delete(id)) settle.reject(error as Error);
    if (vision.pending.size === 0 && current === vision) scheduleExit(vision);
  }
  try {
    return await answer;
  } finally {
    if (typeof input !== 'string') await rm(rawFile, { force: true });
  }
}

/** Every face in a picture with landmarks, regions and an identity descriptor (see faces.ts). */
export function detectFaces(input: ImageInput, options?: DetectFacesOptions): Promise<Face[]> {
  return call<Face[]>('detectFaces', input, options);
}

/** The person in a picture as a soft alpha mask, or null when there is none (see segment.ts). */
export function segmentPerson(input: ImageInput): Promise<PersonMask | null> {
  return call<PersonMask | null>('segmentPerson', input);
}

/** Whether the vision process is running (it starts on demand and exits when idle). */
export function visionProcessRunning(): boolean {
  return current !== null;
}

/** The running vision process's id, for measuring it (bench/presenter); null when none runs. */
export function visionProcessId(): number | null {
  return current?.child.pid ?? null;
}

/**
 * Stops the vision process now if no call is waiting on it: a render about to start has no use for the models,
 * whose process would otherwise stay until the idle time ran out.
 */
export function releaseIdleVision(): void {
  const vision = current;
  if (!vision || vision.pending.size > 0) return;
  current = null;
  end(vision);
}

/** Stops the vision process now and waits for it to exit; calls still waiting fail. For shutdown. */
export async function stopVisionProcess(): Promise<void> {
  const vision = current;
  current = null;
  if (!vision) return;
  end(vision);
  if (vision.pending.size > 0) vision.child.kill();
  // Waited for, so this process stays up until the child is gone.
  vision.child.ref();
  await vision.exited;
}
