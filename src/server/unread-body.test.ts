import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { drainUnreadBody, type DrainLimits } from './unread-body.ts';

// Real HTTP servers that refuse every body unread, answering after drainUnreadBody (as the app's onSend hook
// does), with small limits so each bound shows on its own.
const servers: http.Server[] = [];
after(() => {
  for (const server of servers) server.closeAllConnections();
  return Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

async function refusingServer(limits: DrainLimits): Promise<number> {
  const server = http.createServer((request, response) => {
    void drainUnreadBody(request, limits).then(() => {
      response.writeHead(413, { connection: 'close' }).end('too large');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Sends `sent` of `declared` body bytes, then waits; resolves with the status line and the elapsed ms. */
function upload(port: number, declared: number, sent: number): Promise<{ line: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.end();
      resolve({ line: Buffer.concat(received).toString().split('\r\n')[0]!, ms: Date.now() - started });
    });
    socket.write(`POST / HTTP/1.1\r\nhost: x\r\ncontent-length: ${declared}\r\n\r\n`);
    socket.write(Buffer.alloc(sent, 0x20));
  });
}

const MB = 1024 * 1024;

void describe('drainUnreadBody', () => {
  void test('reads the whole unread body, then the answer goes out', async () => {
    const port = await refusingServer({ maxBytes: 4 * MB, maxMs: 60_000 });
    assert.equal((await upload(port, 3 * MB, 3 * MB)).line, 'HTTP/1.1 413 Payload Too Large');
  });

  void test('a client that stalls mid-body gets its answer when the time bound passes', async () => {
    const port = await refusingServer({ maxBytes: 64 * MB, maxMs: 300 });
    const { line, ms } = await upload(port, 10 * MB, 64 * 1024);
    assert.equal(line, 'HTTP/1.1 413 Payload Too Large');
    assert.ok(ms >= 290, `answered after ${ms} ms, before the time bound`);
  });

  void test(
    'past the byte bound the answer goes out without waiting for the rest',
    { timeout: 20_000 },
    async () => {
      const port = await refusingServer({ maxBytes: MB, maxMs: 60_000 });
      assert.equal((await upload(port, 100 * MB, 2 * MB)).line, 'HTTP/1.1 413 Payload Too Large');
    },
  );
});
