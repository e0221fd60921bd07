import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: Record<string, string>;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** A stand-in for api.stripe.com: records each request and answers from a per-test script. */
export class FakeStripe {
  readonly received: ReceivedRequest[] = [];
  /** Answers by `METHOD /path`; the function form sees the request. */
  routes = new Map<string, Answer | ((request: ReceivedRequest) => Answer)>();
  #server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path,
        headers: req.headers,
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      };
      this.received.push(request);
      const route = this.routes.get(`${request.method} ${path}`);
      const answer = typeof route === 'function' ? route(request) : route;
      const { status, body } = answer ?? notFound(path);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.received.length}` });
      res.end(JSON.stringify(body));
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  reset(): void {
    this.received.length = 0;
    this.routes.clear();
  }
}

export function notFound(path: string): Answer {
  return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path}).` } } };
}

export function paymentIntent(request: ReceivedRequest, status: string, extra: Record<string, unknown> = {}): Answer {
  return {
    status: 200,
    body: {
      id: `pi_${request.headers['idempotency-key']}`,
      object: 'payment_intent',
      status,
      amount: Number(request.form.amount),
      currency: request.form.currency,
      ...extra,
    },
  };
}

export function customer(id: string, defaultPaymentMethod: unknown): Answer {
  return {
    status: 200,
    body: { id, object: 'customer', invoice_settings: { default_payment_method: defaultPaymentMethod, custom_fields: null, footer: null } },
  };
}
