import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible chat-completions API (POST /v1/chat/completions with
 * tools). Each request is answered by `respond` (default: a plain answer); tests script tool calls.
 */
export interface LlmRequest { headers: IncomingMessage['headers']; body: { model: string; messages: Array<{ role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }>; tools?: Array<{ function: { name: string } }> } }
export type LlmResponder = (req: LlmRequest, index: number) => { status?: number; delayMs?: number; message?: Record<string, unknown>; raw?: string };

export interface LlmMock { url: string; requests: LlmRequest[]; respond: LlmResponder; close(): Promise<void> }

export async function startLlmMock(): Promise<LlmMock> {
  const mock: LlmMock = {
    url: '',
    requests: [],
    respond: () => ({ message: { role: 'assistant', content: 'Hello from the model' } }),
    close: async () => undefined,
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const request: LlmRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as LlmRequest['body'] };
    mock.requests.push(request);
    const answer = mock.respond(request, mock.requests.length - 1);
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    if (answer.raw !== undefined) { res.end(answer.raw); return; }
    res.end(JSON.stringify({
      id: `chatcmpl-${mock.requests.length}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: request.body.model,
      choices: [{ index: 0, message: answer.message, finish_reason: (answer.message as { tool_calls?: unknown })?.tool_calls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  mock.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  mock.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return mock;
}
