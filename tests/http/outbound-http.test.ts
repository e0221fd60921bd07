import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestCertificate } from '../helpers/tls.js';
import { assertPublicHttpsUrl, OutboundFailedError, outboundRequest, OutboundRefusedError, type OutboundPolicy } from '../../server/lib/outbound-http.js';

type Answers = { address: string; family: 4 | 6 }[];

/** A lookup that must not be reached: literal addresses are judged without DNS. */
function noLookup(): NonNullable<OutboundPolicy['lookup']> & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(
    async (hostname: string): Promise<Answers> => {
      calls.push(hostname);
      throw new Error('no lookup expected');
    },
    { calls },
  );
}

/** Answers from a table, one entry per call (the last repeats), counting calls. */
function scriptedLookup(...answers: Answers[]): NonNullable<OutboundPolicy['lookup']> & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(
    async (hostname: string): Promise<Answers> => {
      calls.push(hostname);
      return answers[Math.min(calls.length, answers.length) - 1]!;
    },
    { calls },
  );
}

const v4 = (address: string) => ({ address, family: 4 as const });
const v6 = (address: string) => ({ address, family: 6 as const });

async function refusal(work: Promise<unknown>): Promise<OutboundRefusedError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundRefusedError);
  return error as OutboundRefusedError;
}

async function failure(work: Promise<unknown>): Promise<OutboundFailedError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundFailedError);
  return error as OutboundFailedError;
}

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  /** TCP connections accepted, whether or not a request followed. */
  connections: () => number;
  /** SNI of each TLS connection. */
  servernames: (string | false | null)[];
  requests: Received[];
  close: () => Promise<void>;
}

let certificate: { cert: string; key: string };
const servers: TestServer[] = [];

/** An HTTPS server on 127.0.0.1 with the run's throwaway certificate (localhost, pinned.test, 127.0.0.1, ::1). */
async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const server = https.createServer({ cert: certificate.cert, key: certificate.key });
  const requests: Received[] = [];
  let connections = 0;
  const servernames: (string | false | null)[] = [];
  server.on('connection', () => connections++);
  server.on('secureConnection', (socket: TLSSocket) => servernames.push(socket.servername));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const started: TestServer = {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    servernames,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(started);
  return started;
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const trusting = (allowHosts: string[], lookup?: OutboundPolicy['lookup']): OutboundPolicy => ({
  allowHosts: new Set(allowHosts),
  extraCa: certificate.cert,
  lookup: lookup ?? noLookup(),
});

const get = (url: string, policy: OutboundPolicy, options: { timeoutMs?: number; maxResponseBytes?: number } = {}) =>
  outboundRequest({ url, method: 'GET', timeoutMs: options.timeoutMs ?? 2_000, maxResponseBytes: options.maxResponseBytes ?? 65_536, policy });

beforeAll(async () => {
  certificate = await makeTestCertificate(['pinned.test']);
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('assertPublicHttpsUrl', () => {
  it('accepts public literal addresses, IPv4-embedding IPv6 forms of a public IPv4 included, without any lookup', async () => {
    const lookup = noLookup();
    for (const url of [
      'https://93.184.216.34/logo.png',
      'https://[2606:4700:4700::1111]/hook',
      'https://[::ffff:8.8.8.8]/',
      'https://[64:ff9b::808:808]/',
      'https://[2002:808:808::1]/',
    ]) {
      expect((await assertPublicHttpsUrl(url, { allowHosts: new Set(), lookup })).href).toBe(new URL(url).href);
    }
    expect(lookup.calls).toEqual([]);
  });

  it('refuses anything but https with not_https', async () => {
    for (const url of ['http://93.184.216.34/', 'ftp://93.184.216.34/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect((await refusal(assertPublicHttpsUrl(url, { allowHosts: new Set() }))).reason).toBe('not_https');
    }
  });

  it('refuses a string that is not a URL with invalid_url', async () => {
    for (const url of ['', 'example.com/logo.png', 'https://', 'https://exa mple.com/', 'https://[::1/']) {
      expect((await refusal(assertPublicHttpsUrl(url, { allowHosts: new Set() }))).reason).toBe('invalid_url');
    }
  });

  it('refuses a user name or password in the URL with credentials_in_url', async () => {
    for (const url of ['https://user:secret@93.184.216.34/', 'https://user@93.184.216.34/', 'https://:secret@93.184.216.34/']) {
      const error = await refusal(assertPublicHttpsUrl(url, { allowHosts: new Set() }));
      expect(error.reason).toBe('credentials_in_url');
      expect(error.message).not.toContain('secret');
    }
  });

  it.each([
    ['decimal', 'https://2130706433/'],
    ['octal', 'https://0177.0.0.1/'],
    ['hex per octet', 'https://0x7f.0x0.0x0.0x1/'],
    ['hex whole', 'https://0x7f000001/'],
    ['short form', 'https://127.1/'],
    ['loopback elsewhere in 127/8', 'https://127.8.9.10:8443/'],
    ['bracketed IPv6 loopback', 'https://[::1]/'],
    ['IPv6 unspecified', 'https://[::]/'],
    ['IPv4-mapped dotted', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped hex', 'https://[::ffff:7f00:1]/'],
    ['IPv4-compatible', 'https://[::127.0.0.1]/'],
    ['NAT64 of a private IPv4', 'https://[64:ff9b::10.0.0.1]/'],
    ['6to4 of a private IPv4', 'https://[2002:c0a8:101::1]/'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['10/8', 'https://10.1.2.3/'],
    ['172.16/12', 'https://172.16.0.1/'],
    ['172.31 (end of 172.16/12)', 'https://172.31.255.254/'],
    ['192.168/16', 'https://192.168.1.1/'],
    ['CGNAT 100.64/10', 'https://100.64.0.1/'],
    ['benchmarking 198.18/15', 'https://198.19.0.1/'],
    ['documentation 203.0.113/24', 'https://203.0.113.7/'],
    ['multicast', 'https://224.0.0.1/'],
    ['reserved 240/4', 'https://240.0.0.1/'],
    ['broadcast', 'https://255.255.255.255/'],
    ['link-local IPv6', 'https://[fe80::1]/'],
    ['unique local IPv6', 'https://[fd12:3456::1]/'],
    ['IPv6 multicast', 'https://[ff02::1]/'],
    ['unspecified IPv4', 'https://0.0.0.0/'],
    ['unspecified IPv4 as 0', 'https://0/'],
  ])('refuses the %s literal %s with private_address, without any lookup', async (_form, url) => {
    const lookup = noLookup();
    const error = await refusal(assertPublicHttpsUrl(url, { allowHosts: new Set(), lookup }));
    expect(error.reason).toBe('private_address');
    expect(lookup.calls).toEqual([]);
  });

  it('refuses a host name whose lookup answers a private address', async () => {
    const lookup = scriptedLookup([v4('10.0.0.5')]);
    const error = await refusal(assertPublicHttpsUrl('https://hooks.example.com/in', { allowHosts: new Set(), lookup }));
    expect(error.reason).toBe('private_address');
    expect(error.message).not.toContain('10.0.0.5');
    expect(lookup.calls).toEqual(['hooks.example.com']);
  });

  it('refuses a host name when any one of its answers is private, IPv4-mapped or link-local IPv6 included', async () => {
    for (const answers of [
      [v4('93.184.216.34'), v4('127.0.0.1')],
      [v6('2606:4700:4700::1111'), v6('::ffff:169.254.169.254')],
      [v4('93.184.216.34'), v6('fe80::1%eth0')],
    ]) {
      const error = await refusal(assertPublicHttpsUrl('https://hooks.example.com/in', { allowHosts: new Set(), lookup: scriptedLookup(answers) }));
      expect(error.reason).toBe('private_address');
    }
  });

  it('accepts a host name whose answers are all public', async () => {
    const lookup = scriptedLookup([v4('93.184.216.34'), v6('2606:2800:220:1:248:1893:25c8:1946')]);
    const url = await assertPublicHttpsUrl('https://Hooks.Example.com:8443/in?x=1', { allowHosts: new Set(), lookup });
    expect(url.hostname).toBe('hooks.example.com');
  });

  it('refuses a host name that does not resolve, resolves to nothing or to something that is not an address, with dns_failure', async () => {
    const failing = async (): Promise<Answers> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    for (const lookup of [failing, scriptedLookup([]), scriptedLookup([v4('not-an-address')])]) {
      const error = await refusal(assertPublicHttpsUrl('https://nowhere.example/', { allowHosts: new Set(), lookup }));
      expect(error.reason).toBe('dns_failure');
      expect(error.message).not.toContain('nowhere.example');
    }
  });

  it('lets allowlisted host names and literal IPs (in any spelling) be private', async () => {
    const lookup = scriptedLookup([v4('127.0.0.1')]);
    const policy: OutboundPolicy = { allowHosts: new Set(['localhost', '127.0.0.1', '::1']), lookup };
    for (const url of ['https://localhost:8443/', 'https://127.0.0.1/', 'https://2130706433/', 'https://[::1]/', 'https://[0:0:0:0:0:0:0:1]/']) {
      await expect(assertPublicHttpsUrl(url, policy)).resolves.toBeInstanceOf(URL);
    }
  });

  it('matches the allowlist against the host, never against what a host name resolves to', async () => {
    const policy: OutboundPolicy = { allowHosts: new Set(['127.0.0.1']), lookup: scriptedLookup([v4('127.0.0.1')]) };
    expect((await refusal(assertPublicHttpsUrl('https://internal.example/', policy))).reason).toBe('private_address');
    expect((await refusal(assertPublicHttpsUrl('https://127.0.0.2/', policy))).reason).toBe('private_address');
  });
});

describe('outboundRequest', () => {
  it('reuses one connection for a host under one policy, and never across policies', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const policy = trusting(['127.0.0.1']);
    const post = (p: OutboundPolicy) =>
      outboundRequest({ url: `https://127.0.0.1:${server.port}/hook`, method: 'POST', body: '{}', timeoutMs: 2_000, maxResponseBytes: 100, policy: p });
    for (let i = 0; i < 3; i++) expect((await post(policy)).status).toBe(200);
    expect(server.connections()).toBe(1);
    await post(trusting(['127.0.0.1']));
    expect(server.connections()).toBe(2);
  });

  it('GETs from an allowlisted 127.0.0.1 server: status, headers and body come back', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'x-answer': 'yes' });
      res.end('PNG bytes');
    });
    const response = await outboundRequest({
      url: `https://127.0.0.1:${server.port}/logo.png?v=2`,
      method: 'GET',
      headers: { accept: 'image/png', 'user-agent': 'interview-service' },
      timeoutMs: 2_000,
      maxResponseBytes: 1_000,
      policy: trusting(['127.0.0.1']),
    });
    expect(response).toMatchObject({ status: 200, truncated: false, remoteAddress: '127.0.0.1' });
    expect(response.body.toString()).toBe('PNG bytes');
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-answer']).toBe('yes');
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/logo.png?v=2', body: '' });
    expect(server.requests[0]!.headers).toMatchObject({ accept: 'image/png', 'user-agent': 'interview-service', host: `127.0.0.1:${server.port}` });
  });

  it('POSTs a body with its headers to an allowlisted server', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(202);
      res.end();
    });
    const body = JSON.stringify({ event: 'session.completed', id: 'ses_1' });
    const response = await outboundRequest({
      url: `https://127.0.0.1:${server.port}/hooks/in`,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': 'v1=abc' },
      body,
      timeoutMs: 2_000,
      maxResponseBytes: 1_000,
      policy: trusting(['127.0.0.1']),
    });
    expect(response.status).toBe(202);
    expect(response.body.length).toBe(0);
    expect(server.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/hooks/in',
        body,
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'x-webhook-signature': 'v1=abc',
          'content-length': String(Buffer.byteLength(body)),
        }),
      }),
    ]);
  });

  it('connects a host name to the address the policy lookup gave, resolving it once, with SNI and Host kept', async () => {
    // pinned.test exists in no DNS: only the injected lookup can lead the connection to this server.
    const server = await startServer((_req, res) => res.end('ok'));
    const lookup = scriptedLookup([v4('127.0.0.1')], [v4('127.0.0.2')]);
    const response = await get(`https://pinned.test:${server.port}/`, trusting(['pinned.test'], lookup));
    expect(response.status).toBe(200);
    expect(response.remoteAddress).toBe('127.0.0.1');
    expect(lookup.calls).toEqual(['pinned.test']);
    expect(server.requests[0]!.headers.host).toBe(`pinned.test:${server.port}`);
    expect(server.servernames).toEqual(['pinned.test']);
  });

  it('refuses a loopback server that is not allowlisted, before connecting', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    for (const url of [`https://127.0.0.1:${server.port}/`, `https://2130706433:${server.port}/`, `https://[::ffff:127.0.0.1]:${server.port}/`]) {
      expect((await refusal(get(url, trusting([])))).reason).toBe('private_address');
    }
    const viaName = trusting([], scriptedLookup([v4('127.0.0.1')]));
    expect((await refusal(get(`https://localhost:${server.port}/`, viaName))).reason).toBe('private_address');
    expect(server.connections()).toBe(0);
  });

  it('refuses http:// and credentials in the URL at request time too', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    expect((await refusal(get(`http://127.0.0.1:${server.port}/`, trusting(['127.0.0.1'])))).reason).toBe('not_https');
    expect((await refusal(get(`https://u:p@127.0.0.1:${server.port}/`, trusting(['127.0.0.1'])))).reason).toBe('credentials_in_url');
    expect(server.connections()).toBe(0);
  });

  it('DNS rebinding: a host public at check time and private at request time is refused before any connection', async () => {
    const server = await startServer((_req, res) => res.end('internal'));
    const lookup = scriptedLookup([v4('93.184.216.34')], [v4('127.0.0.1')]);
    const policy = trusting([], lookup);
    const url = `https://rebind.example:${server.port}/hook`;
    await expect(assertPublicHttpsUrl(url, policy)).resolves.toBeInstanceOf(URL);
    expect((await refusal(get(url, policy))).reason).toBe('private_address');
    expect(lookup.calls).toEqual(['rebind.example', 'rebind.example']);
    // The second answer points at this server: had anything connected to it, it would count here.
    expect(server.connections()).toBe(0);
  });

  it('never follows a redirect: the 302 comes back and its target sees no request', async () => {
    const target = await startServer((_req, res) => res.end('moved here'));
    const redirecting = await startServer((_req, res) => {
      res.writeHead(302, { location: `https://127.0.0.1:${target.port}/elsewhere` });
      res.end('see elsewhere');
    });
    const response = await get(`https://127.0.0.1:${redirecting.port}/logo.png`, trusting(['127.0.0.1']));
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(`https://127.0.0.1:${target.port}/elsewhere`);
    expect(response.body.toString()).toBe('see elsewhere');
    expect(target.connections()).toBe(0);
    expect(target.requests).toEqual([]);
  });

  it('fails with timeout at about timeoutMs when the server never answers', async () => {
    const server = await startServer(() => {});
    const started = performance.now();
    const error = await failure(get(`https://127.0.0.1:${server.port}/`, trusting(['127.0.0.1']), { timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(error.reason).toBe('timeout');
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(1_500);
    // It did reach the server (a timeout, not a refused connection). Whether the request itself was
    // read before the 300 ms ran out depends on the machine: a fresh-clone run with the whole suite
    // beside it (2026-11-29) spent them in the TLS handshake.
    expect(server.connections()).toBe(1);
  });

  it('fails with timeout when the server stops sending halfway through the body', async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('first half');
    });
    const error = await failure(get(`https://127.0.0.1:${server.port}/`, trusting(['127.0.0.1']), { timeoutMs: 300 }));
    expect(error.reason).toBe('timeout');
  });

  it('counts DNS toward the timeout', async () => {
    const hanging = (): Promise<Answers> => new Promise(() => {});
    const error = await failure(get('https://slow-dns.example/', { allowHosts: new Set(), lookup: hanging }, { timeoutMs: 100 }));
    expect(error.reason).toBe('timeout');
  });

  it('keeps at most maxResponseBytes of a larger body, reports it truncated and stops reading', async () => {
    // An endless body: a client that kept reading past the limit would end in a timeout instead.
    const server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    const response = await get(`https://127.0.0.1:${server.port}/`, trusting(['127.0.0.1']), { maxResponseBytes: 1_000, timeoutMs: 2_000 });
    expect(response.status).toBe(200);
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(1_000);
    expect(response.body.every((byte) => byte === 0x61)).toBe(true);
  });

  it('a body of exactly maxResponseBytes is not truncated', async () => {
    const server = await startServer((_req, res) => res.end(Buffer.alloc(1_000, 0x62)));
    const response = await get(`https://127.0.0.1:${server.port}/`, trusting(['127.0.0.1']), { maxResponseBytes: 1_000 });
    expect(response.truncated).toBe(false);
    expect(response.body.length).toBe(1_000);
  });

  it('fails with tls when the certificate is not trusted (no extraCa), sending nothing', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const error = await failure(get(`https://127.0.0.1:${server.port}/`, { allowHosts: new Set(['127.0.0.1']) }));
    expect(error.reason).toBe('tls');
    expect(error.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(server.requests).toEqual([]);
  });

  it('fails with tls when the certificate does not name the host (SNI and name checks stay on)', async () => {
    const server = await startServer((_req, res) => res.end('ok'));
    const policy = trusting(['other.example'], scriptedLookup([v4('127.0.0.1')]));
    const error = await failure(get(`https://other.example:${server.port}/`, policy));
    expect(error.reason).toBe('tls');
    expect(error.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(server.requests).toEqual([]);
  });

  it('fails with connection when nothing listens', async () => {
    const error = await failure(get(`https://127.0.0.1:${await closedPort()}/`, trusting(['127.0.0.1'])));
    expect(error.reason).toBe('connection');
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('errors name neither the URL, the header values nor the body', async () => {
    const port = await closedPort();
    const error = await failure(
      outboundRequest({
        url: `https://127.0.0.1:${port}/hooks/tok_s3cr3t?key=k3y`,
        method: 'POST',
        headers: { authorization: 'Bearer h3ad3r' },
        body: 'b0dy',
        timeoutMs: 2_000,
        maxResponseBytes: 100,
        policy: trusting(['127.0.0.1']),
      }),
    );
    for (const secret of ['tok_s3cr3t', 'k3y', 'h3ad3r', 'b0dy', String(port)]) {
      expect(error.message).not.toContain(secret);
      expect(String(error)).not.toContain(secret);
    }
  });
});
