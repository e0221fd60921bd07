import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCertificate } from './tls.js';

/** Bodies as the receiver got them (checked field by field by the tests). */
type Json = any;

export interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Json;
}

export type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export interface Receiver {
  url: string;
  requests: Received[];
  answer(with_: Answer): void;
  /** Requests of one event type (Design A: the header; Design B: the envelope's type). */
  of(event: string): Received[];
  server: Server;
}

export const reply =
  (status: number, body = 'ok', headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
  };

/** A customer's HTTPS receiver on 127.0.0.1 that keeps every request exactly as it came. */
export async function startWebhookReceiver(certificate: TestCertificate, answer: Answer = reply(200)): Promise<Receiver> {
  const requests: Received[] = [];
  let current = answer;
  const server = createServer({ cert: certificate.cert, key: certificate.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Json;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      requests.push({ at: Date.now(), method: req.method ?? '', path: req.url ?? '', headers: req.headers, raw, body });
      current(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/interviews`,
    requests,
    answer: (next) => {
      current = next;
    },
    of: (event) => requests.filter((request) => (request.headers['x-webhook-event'] ?? request.body?.type) === event),
    server,
  };
}

/** Closes receivers at the end of a file, connections kept alive by the service's client included. */
export function closeReceivers(servers: Server[]): void {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
}
