import pino, { type Logger } from 'pino';

/** JSON logs. API keys never reach a log line: headers are not logged and these paths are redacted anyway. */
export function createLogger(level: string, destination: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    {
      level,
      base: { service: 'reelsmith' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers["x-api-key"]',
          'apiKey',
          'key',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination(destination === 'stdout' ? 1 : 2),
  );
}
