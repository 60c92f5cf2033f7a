export { Reelsmith, type CreateOptions, type CreatedVideo, type ReelsmithOptions } from './client.ts';
export {
  downloadArtifacts,
  DownloadError,
  type DownloadableJob,
  type DownloadedFile,
  type DownloadOptions,
} from './download-artifacts.ts';
export { isTransient, ReelsmithError, type ApiErrorBody } from './errors.ts';
export { FINAL_STATUSES, isFinalStatus, type FinalStatus } from './job-status.ts';
export type { components, paths } from './openapi.ts';
export { followProgressStream, StreamError, type StreamMessage } from './progress-stream.ts';
export type {
  Artifacts,
  DryRunResult,
  GenerateBody,
  Job,
  LibraryPage,
  LibraryVideo,
  Receipt,
  Usage,
  VideoEndpoint,
} from './types.ts';
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookRefusal,
} from './verify-webhook.ts';
export type { JobProgress, WaitOptions, WaitTarget } from './wait-for-job.ts';
