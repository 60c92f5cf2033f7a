import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A local server speaking the OpenAI chat-completions protocol (POST {base}/chat/completions), for services
// started with LLM_BASE_URL pointing at it. Each request is answered by `answer` with the assistant's content.

export interface ChatRequest {
  path: string;
  authorization: string | undefined;
  body: { model: string; messages: { role: string; content: string }[]; response_format?: unknown };
}

export interface FakeChatServer {
  /** The base URL to configure as LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

export async function startChatServer(answer: (request: ChatRequest) => string): Promise<FakeChatServer> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const request: ChatRequest = {
        path: req.url,
        authorization: req.headers.authorization,
        body: JSON.parse(raw) as ChatRequest['body'],
      };
      requests.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: request.body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: answer(request), refusal: null },
              logprobs: null,
              finish_reason: 'stop',
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
