import { createHmac, timingSafeEqual } from 'node:crypto';

// Browsers cannot set headers on a WebSocket, so the receipt's websocket_url carries a token that grants
// read access to one job's progress and nothing else.

const TOKEN_TTL_SECONDS = 7 * 24 * 3600;

export function streamToken(secret: string, jobId: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + TOKEN_TTL_SECONDS;
  const mac = createHmac('sha256', secret).update(`${jobId}\n${expires}`).digest('base64url');
  return `${expires}.${mac}`;
}

export function verifyStreamToken(secret: string, jobId: string, token: string, now = Date.now()): boolean {
  const [expires, mac] = token.split('.', 2);
  if (!expires || !mac || !/^\d+$/.test(expires) || Number(expires) * 1000 < now) return false;
  const expected = createHmac('sha256', secret).update(`${jobId}\n${expires}`).digest();
  const given = Buffer.from(mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function websocketUrl(publicBaseUrl: string, secret: string, jobId: string): string {
  const base = publicBaseUrl.replace(/^http/, 'ws');
  return `${base}/api/v1/jobs/${jobId}/stream?token=${streamToken(secret, jobId)}`;
}
