// detectFaces and segmentPerson as the rest of the service calls them: run in one worker thread that starts on
// the first call and exits after a quiet spell, so a process that analysed a few photos (a persona, a parallax
// plate, a clip's faces) gives the models' memory back before it renders. Calls are answered in order.
import { Worker } from 'node:worker_threads';
import type { DetectFacesOptions, Face } from './faces.ts';
import type { ImageInput } from './image-input.ts';
import { VisionModelsMissingError } from './models-missing-error.ts';
import type { PersonMask } from './person-mask.ts';

/** The thread exits after this long without a call (VISION_THREAD_IDLE_MS overrides; read at each call). */
const DEFAULT_IDLE_MS = 5_000;

export type ThreadRequest =
  | { id: number; op: 'detectFaces'; args: [ImageInput, DetectFacesOptions?] }
  | { id: number; op: 'segmentPerson'; args: [ImageInput] };

export type ThreadReply =
  | { id: number; result: unknown; error?: undefined }
  | { id: number; error: { message: string; missing: string[] | undefined } };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface VisionThread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle: NodeJS.Timeout | undefined;
}

let thread: VisionThread | null = null;
let nextId = 1;

// Worker threads do not inherit tsx's loader hooks from `node --import tsx`: the thread registers them first.
function bootstrap(): string {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./vision-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
}

function idleMs(): number {
  const configured = Number(process.env.VISION_THREAD_IDLE_MS);
  return Number.isFinite(configured) && configured >= 0 ? configured : DEFAULT_IDLE_MS;
}

function failAll(current: VisionThread, error: Error): void {
  for (const pending of current.pending.values()) pending.reject(error);
  current.pending.clear();
}

function startThread(): VisionThread {
  const worker = new Worker(bootstrap(), { eval: true });
  const current: VisionThread = { worker, pending: new Map(), idle: undefined };
  worker.on('message', (reply: ThreadReply) => {
    const pending = current.pending.get(reply.id);
    if (!pending) return;
    current.pending.delete(reply.id);
    if (reply.error) {
      pending.reject(
        reply.error.missing
          ? new VisionModelsMissingError(reply.error.missing)
          : new Error(reply.error.message),
      );
    } else {
      pending.resolve(reply.result);
    }
    if (current.pending.size === 0) scheduleExit(current);
  });
  worker.on('error', (error) => {
    if (thread === current) thread = null;
    failAll(current, error);
  });
  worker.on('exit', (code) => {
    if (thread === current) thread = null;
    clearTimeout(current.idle);
    failAll(current, new Error(`the vision thread exited (code ${code}) before answering`));
  });
  return current;
}

function scheduleExit(current: VisionThread): void {
  // An idle thread must not keep the process alive.
  current.worker.unref();
  current.idle = setTimeout(() => {
    if (thread === current) thread = null;
    void current.worker.terminate();
  }, idleMs());
  current.idle.unref();
}

function call<T>(request: Omit<ThreadRequest, 'id'>): Promise<T> {
  const current = (thread ??= startThread());
  clearTimeout(current.idle);
  current.worker.ref();
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    current.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    current.worker.postMessage({ ...request, id });
  });
}

/** Every face in a picture with landmarks, regions and an identity descriptor (see faces.ts). */
export function detectFaces(input: ImageInput, options?: DetectFacesOptions): Promise<Face[]> {
  return call<Face[]>({ op: 'detectFaces', args: options ? [input, options] : [input] });
}

/** The person in a picture as a soft alpha mask, or null when there is none (see segment.ts). */
export function segmentPerson(input: ImageInput): Promise<PersonMask | null> {
  return call<PersonMask | null>({ op: 'segmentPerson', args: [input] });
}

/** Whether the vision thread is running (it starts on demand and exits when idle). */
export function visionThreadRunning(): boolean {
  return thread !== null;
}

/**
 * Stops the vision thread now if no call is waiting on it: a render about to start has no use for the models'
 * memory, which would otherwise stay until the idle time ran out.
 */
export function releaseIdleVision(): void {
  const current = thread;
  if (!current || current.pending.size > 0) return;
  thread = null;
  clearTimeout(current.idle);
  void current.worker.terminate();
}

/** Stops the vision thread now; calls still waiting fail. For shutdown. */
export async function stopVisionThread(): Promise<void> {
  const current = thread;
  thread = null;
  if (current) {
    clearTimeout(current.idle);
    await current.worker.terminate();
  }
}
