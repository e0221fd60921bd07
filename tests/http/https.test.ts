import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeTestCertificate } from '../helpers/tls.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { loadTlsCredentials } from '../../server/http/listeners.js';
import { decideTransport, parseHost, type TransportFacts } from '../../server/http/transport-policy.js';
import { exitOf, freePort, startServer, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

/** A certificate for localhost, 127.0.0.1 and ::1, made for this run; clients trust it as their only CA. */
interface TestCertificate {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: string;
}

async function makeCertificate(): Promise<TestCertificate> {
  const pems = await makeTestCertificate();
  const dir = await mkdtemp(path.join(tmpdir(), 'interview-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  await writeFile(certFile, pems.cert);
  await writeFile(keyFile, pems.key, { mode: 0o600 });
  return { dir, certFile, keyFile, cert: pems.cert };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One request on its own connection; `ca` is the only certificate an HTTPS request trusts. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string; ca?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const onResponse = (res: http.IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    };
    const common = { method: options.method ?? 'GET', headers: options.headers, agent: false } as const;
    const req = target.protocol === 'https:' ? https.request(target, { ...common, ca: options.ca }, onResponse) : http.request(target, common, onResponse);
    req.on('error', reject);
    req.end(options.body);
  });
}

function facts(overrides: Partial<TransportFacts>): TransportFacts {
  return {
    protocol: 'http',
    forwardedByTrustedProxy: false,
    clientAddress: '127.0.0.1',
    host: '127.0.0.1:3000',
    url: '/v1/projects?limit=5',
    tlsPort: undefined,
    ...overrides,
  };
}

let certificate: TestCertificate;
beforeAll(async () => {
  certificate = await makeCertificate();
});
afterAll(async () => {
  await rm(certificate.dir, { recursive: true, force: true });
});

describe('HTTPS served by the server itself (TLS_CERT_FILE/TLS_KEY_FILE)', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'interview-tls-data-'));
  });
  afterAll(async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves HTTPS with HSTS, redirects its plain listener with 308 (same path and query, any method) and closes both on SIGTERM', async () => {
    const httpsPort = await freePort();
    const redirectPort = await freePort();
    const server = startServer(
      {
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        PORT: String(httpsPort),
        HTTP_REDIRECT_PORT: String(redirectPort),
        TLS_CERT_FILE: certificate.certFile,
        TLS_KEY_FILE: certificate.keyFile,
        LOG_LEVEL: 'info',
      },
      ['--role=api'],
    );
    try {
      const health = await waitFor(
        async () => {
          const answer = await request(`https://127.0.0.1:${httpsPort}/healthz`, { ca: certificate.cert });
          return answer.status === 200 ? answer : undefined;
        },
        60_000,
        () => `server never became healthy over HTTPS:\n${server.output()}`,
      );
      expect(JSON.parse(health.body)).toEqual({ status: 'ok' });
      expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
      expect(server.output()).toContain(`listening on https://localhost:${httpsPort} and http://localhost:${redirectPort} (redirects to HTTPS)`);

      const get = await request(`http://127.0.0.1:${redirectPort}/v1/projects?limit=5`);
      expect(get.status).toBe(308);
      expect(get.headers.location).toBe(`https://127.0.0.1:${httpsPort}/v1/projects?limit=5`);
      expect(get.headers['strict-transport-security']).toBeUndefined();

      const post = await request(`http://127.0.0.1:${redirectPort}/v1/projects?limit=5`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'over plain HTTP' }),
      });
      expect(post.status).toBe(308);
      expect(post.headers.location).toBe(`https://127.0.0.1:${httpsPort}/v1/projects?limit=5`);

      const health308 = await request(`http://127.0.0.1:${redirectPort}/healthz`);
      expect(health308.status).toBe(308);
      expect(health308.headers.location).toBe(`https://127.0.0.1:${httpsPort}/healthz`);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exitOf(server.child)).toBe(0);
    expect(server.output()).toContain('"msg":"stopped"');
    await expect(request(`http://127.0.0.1:${redirectPort}/healthz`)).rejects.toThrow();
  }, 90_000);

  it('a missing certificate file stops the start with an error naming the file', async () => {
    const missing = path.join(certificate.dir, 'missing.pem');
    const server = startServer({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      TLS_CERT_FILE: missing,
      TLS_KEY_FILE: certificate.keyFile,
    });
    expect(await exitOf(server.child)).toBe(1);
    expect(server.output()).toContain(`TLS_CERT_FILE: cannot read ${missing} (ENOENT: no such file or directory)`);
  }, 30_000);
});

describe('TLS configuration', () => {
  it('TLS_CERT_FILE without TLS_KEY_FILE is a ConfigError', () => {
    expect(() => loadConfig({ TLS_CERT_FILE: certificate.certFile })).toThrow(ConfigError);
    expect(() => loadConfig({ TLS_KEY_FILE: certificate.keyFile })).toThrow('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  });

  it('an unreadable key file is a ConfigError naming it', () => {
    const config = loadConfig({ TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.dir });
    expect(() => loadTlsCredentials(config)).toThrow(ConfigError);
    expect(() => loadTlsCredentials(config)).toThrow(`TLS_KEY_FILE: cannot read ${certificate.dir}`);
  });

  it('files that are not a PEM certificate and its key are a ConfigError', async () => {
    const notACertificate = path.join(certificate.dir, 'not-a-cert.pem');
    await writeFile(notACertificate, 'hello');
    const config = loadConfig({ TLS_CERT_FILE: notACertificate, TLS_KEY_FILE: certificate.keyFile });
    expect(() => loadTlsCredentials(config)).toThrow(/TLS_CERT_FILE\/TLS_KEY_FILE: .*not-a-cert\.pem .* are not a PEM certificate and its private key/);
  });

  it('reads a valid pair', () => {
    const config = loadConfig({ TLS_CERT_FILE: certificate.certFile, TLS_KEY_FILE: certificate.keyFile });
    expect(loadTlsCredentials(config)?.cert.toString()).toBe(certificate.cert);
    expect(loadTlsCredentials(loadConfig({}))).toBeUndefined();
  });
});

describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('X-Forwarded-Proto: http is redirected with 308 to https, same host, path and query', async () => {
    const response = await t.http.get('/v1/projects?limit=5').set('Host', 'api.example.test').set('X-Forwarded-Proto', 'http');
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe('https://api.example.test/v1/projects?limit=5');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('a POST with X-Forwarded-Proto: http is redirected with 308 (the method is kept) before authentication', async () => {
    const response = await t.http
      .post('/v1/projects?limit=5')
      .set('Host', 'api.example.test:8080')
      .set('X-Forwarded-Proto', 'http')
      .send({ name: 'through the proxy' });
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe('https://api.example.test:8080/v1/projects?limit=5');
  });

  it('the redirect goes to the host the proxy forwarded (X-Forwarded-Host)', async () => {
    const response = await t.http.get('/v1/projects?limit=5').set('X-Forwarded-Host', 'interviews.example.com').set('X-Forwarded-Proto', 'http');
    expect(response.headers.location).toBe('https://interviews.example.com/v1/projects?limit=5');
  });

  it('X-Forwarded-Proto: https is served, with Strict-Transport-Security', async () => {
    const response = await t.http.get('/healthz').set('X-Forwarded-Proto', 'https');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBe('max-age=31536000');
  });

  it('a loopback request without X-Forwarded-Proto (a process manager probing /healthz) is served, without HSTS', async () => {
    const response = await t.http.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('without TRUST_PROXY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('X-Forwarded-Proto: http is ignored (no redirect) and plain HTTP carries no HSTS', async () => {
    const response = await t.http.get('/healthz').set('X-Forwarded-Proto', 'http');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('X-Forwarded-Proto: https from an untrusted client earns no HSTS', async () => {
    const response = await t.http.get('/healthz').set('X-Forwarded-Proto', 'https');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('PUBLIC_URL https: plain HTTP only for loopback clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://interviews.example.com', TRUST_PROXY: 'loopback' });
  });
  afterAll(async () => {
    await t.close();
  });

  it("behind a trusted proxy its X-Forwarded-Proto decides: http is redirected to PUBLIC_URL's host, whatever Host says", async () => {
    const response = await t.http
      .get('/v1/projects?limit=5')
      .set('Host', 'anything.example')
      .set('X-Forwarded-Host', 'evil.example')
      .set('X-Forwarded-For', '203.0.113.9')
      .set('X-Forwarded-Proto', 'http');
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe('https://interviews.example.com/v1/projects?limit=5');
  });

  it('behind a trusted proxy that sends no X-Forwarded-Proto the request is served (a redirect would loop)', async () => {
    const response = await t.http.get('/v1/projects').set('X-Forwarded-For', '203.0.113.9');
    expect(response.status).toBe(401);
  });

  it('a plain request from a loopback client is served', async () => {
    const response = await t.http.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('the transport decision', () => {
  const publicHttps = loadConfig({ PUBLIC_URL: 'https://interviews.example.com' });
  const development = loadConfig({ PUBLIC_URL: 'http://localhost:3000' });

  it('HTTPS is served with HSTS, none when HSTS_MAX_AGE is 0', () => {
    expect(decideTransport(facts({ protocol: 'https' }), development)).toEqual({ action: 'serve', hsts: 'max-age=31536000' });
    expect(decideTransport(facts({ protocol: 'https' }), loadConfig({ HSTS_MAX_AGE: '0' }))).toEqual({ action: 'serve', hsts: undefined });
    expect(decideTransport(facts({ protocol: 'https' }), loadConfig({ HSTS_MAX_AGE: '600' }))).toEqual({ action: 'serve', hsts: 'max-age=600' });
  });

  it('in development (PUBLIC_URL http) plain HTTP is served to every client', () => {
    expect(decideTransport(facts({ clientAddress: '203.0.113.9' }), development)).toEqual({ action: 'serve', hsts: undefined });
  });

  it('with PUBLIC_URL https, loopback clients (IPv4, IPv6, mapped) are served and others redirected to PUBLIC_URL', () => {
    for (const clientAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      expect(decideTransport(facts({ clientAddress, url: '/healthz' }), publicHttps)).toEqual({ action: 'serve', hsts: undefined });
    }
    for (const clientAddress of ['203.0.113.9', '::ffff:203.0.113.9', '2001:db8::1', undefined]) {
      expect(decideTransport(facts({ clientAddress }), publicHttps)).toEqual({
        action: 'redirect',
        location: 'https://interviews.example.com/v1/projects?limit=5',
      });
    }
  });

  it('a client reaching the process directly is redirected even when a proxy is configured', () => {
    const proxied = loadConfig({ PUBLIC_URL: 'https://interviews.example.com', TRUST_PROXY: '10.0.0.0/8' });
    expect(decideTransport(facts({ clientAddress: '203.0.113.9', peerIsTrustedProxy: false }), proxied)).toEqual({
      action: 'redirect',
      location: 'https://interviews.example.com/v1/projects?limit=5',
    });
    expect(decideTransport(facts({ clientAddress: '203.0.113.9', peerIsTrustedProxy: true }), proxied)).toEqual({ action: 'serve', hsts: undefined });
  });

  it('health checks and metric scrapes are served over plain HTTP from any client: they talk to the process', () => {
    for (const url of ['/healthz', '/metrics', '/healthz?probe=1', '/healthz/', '/HEALTHZ']) {
      expect(decideTransport(facts({ clientAddress: '10.0.0.7', url }), publicHttps)).toEqual({ action: 'serve', hsts: undefined });
    }
  });

  it('with PUBLIC_URL https a valid but foreign Host never chooses where the redirect points', () => {
    expect(decideTransport(facts({ forwardedByTrustedProxy: true, host: 'evil.example' }), publicHttps)).toEqual({
      action: 'redirect',
      location: 'https://interviews.example.com/v1/projects?limit=5',
    });
  });

  it('an invalid Host header is never echoed: PUBLIC_URL host is used instead', () => {
    for (const host of ['evil.example/phish', 'a b', 'x@evil.example', '[not-ipv6]', 'host:99999', '', undefined]) {
      expect(decideTransport(facts({ forwardedByTrustedProxy: true, host }), publicHttps)).toEqual({
        action: 'redirect',
        location: 'https://interviews.example.com/v1/projects?limit=5',
      });
    }
  });

  it('with our own TLS on a port other than 443 the redirect targets that port; with 443 no port', () => {
    const tls = loadConfig({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem', PORT: '8443' });
    expect(decideTransport(facts({ host: 'api.example.test:8080', tlsPort: 8443 }), tls)).toEqual({
      action: 'redirect',
      location: 'https://api.example.test:8443/v1/projects?limit=5',
    });
    expect(decideTransport(facts({ host: '[::1]:8080', tlsPort: 443 }), tls)).toEqual({
      action: 'redirect',
      location: 'https://[::1]/v1/projects?limit=5',
    });
  });

  it('with PUBLIC_URL https the redirect uses its port (ports mapped in front of a container)', () => {
    const mapped = loadConfig({ TLS_CERT_FILE: 'c.pem', TLS_KEY_FILE: 'k.pem', PORT: '8443', PUBLIC_URL: 'https://interviews.example.com' });
    expect(decideTransport(facts({ host: 'interviews.example.com', tlsPort: 8443 }), mapped)).toEqual({
      action: 'redirect',
      location: 'https://interviews.example.com/v1/projects?limit=5',
    });
  });

  it('the Location is always a path on the chosen host', () => {
    const redirect = (url: string) => decideTransport(facts({ forwardedByTrustedProxy: true, host: 'api.example.test', url }), development);
    expect(redirect('//evil.example/x')).toEqual({ action: 'redirect', location: 'https://api.example.test//evil.example/x' });
    expect(redirect('http://evil.example/x?y=1')).toEqual({ action: 'redirect', location: 'https://api.example.test/x?y=1' });
    expect(redirect('/caf\u00e9?q=a b')).toEqual({ action: 'redirect', location: 'https://api.example.test/caf%E9?q=a%20b' });
  });

  it('parses host[:port] strictly', () => {
    expect(parseHost('api.example.test:8080')).toEqual({ hostname: 'api.example.test', port: '8080' });
    expect(parseHost('[2001:db8::1]:443')).toEqual({ hostname: '[2001:db8::1]', port: '443' });
    expect(parseHost('127.0.0.1')).toEqual({ hostname: '127.0.0.1', port: '' });
    expect(parseHost('-bad.example')).toBeUndefined();
    expect(parseHost('api.example.test:')).toBeUndefined();
  });
});
