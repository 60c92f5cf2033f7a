import WebSocket from 'ws';

export interface StreamMessage {
  type: string;
  job_id: string;
  progress: number;
  status: string;
  stage: string;
  message: string;
  url: string | null;
  at: string;
}

export interface StreamResult {
  messages: StreamMessage[];
  closeCode: number;
  closeReason: string;
}

/** Opens a job's progress stream and collects every message until the server closes the socket. */
export function readStream(url: string, timeoutMs = 30_000): Promise<StreamResult> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    const messages: StreamMessage[] = [];
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`the stream did not close within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
    }, timeoutMs);
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as StreamMessage));
    socket.on('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ messages, closeCode: code, closeReason: reason.toString() });
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
