import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createSecureContext } from 'node:tls';
import type { Express } from 'express';
import type { ErrorCode } from '../../shared/error-codes.js';
import { ConfigError, type Config } from '../config.js';
import { redirectToHttps } from './transport-policy.js';

// The listeners' lifecycle: TLS credentials read at start, the HTTP(S) listeners, graceful close.

export interface TlsCredentials {
  cert: Buffer;
  key: Buffer;
}

/**
 * Reads TLS_CERT_FILE and TLS_KEY_FILE (once, at startup, before anything else starts). A file that
 * cannot be read, or a pair that is not a PEM certificate and its key, is a ConfigError naming it.
 */
export function loadTlsCredentials(config: Config): TlsCredentials | undefined {
  if (!config.tls) return undefined;
  const read = (variable: string, file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (error) {
      const reason = error instanceof Error ? error.message.replace(/, open .*$/, '') : String(error);
      throw new ConfigError(`Invalid configuration:\n  ${variable}: cannot read ${file} (${reason})`);
    }
  };
  const credentials = { cert: read('TLS_CERT_FILE', config.tls.certFile), key: read('TLS_KEY_FILE', config.tls.keyFile) };
  try {
    createSecureContext(credentials);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `Invalid configuration:\n  TLS_CERT_FILE/TLS_KEY_FILE: ${config.tls.certFile} and ${config.tls.keyFile} are not a PEM certificate and its private key (${reason})`,
    );
  }
  return credentials;
}

export interface Listener {
  /** `app`: serves the application; `redirect`: the plain-HTTP listener that only redirects to HTTPS. */
  role: 'app' | 'redirect';
  /** Where it can be reached from this machine, e.g. `https://localhost:8443`. */
  url: string;
  server: http.Server | https.Server;
}

export interface Listeners {
  listeners: Listener[];
  /** Stops accepting on every listener, lets in-flight requests finish for up to `graceMs`, then cuts what is left. */
  close(graceMs: number): Promise<void>;
}

/**
 * Without TLS: one HTTP listener on PORT. With TLS: HTTPS on PORT and, with HTTP_REDIRECT_PORT, a
 * plain listener there that only redirects (308) to HTTPS.
 */
export async function startListeners(app: Express, config: Config, credentials: TlsCredentials | undefined): Promise<Listeners> {
  const started: Listener[] = [];
  const listeners: Listeners = {
    listeners: started,
    close: (graceMs) => Promise.all(started.map(({ server }) => closeGracefully(server, graceMs))).then(() => undefined),
  };
  try {
    if (!credentials) {
      const server = await listen(http.createServer(app), config.port, config.host);
      started.push({ role: 'app', url: `http://localhost:${server.port}`, server: server.server });
      return listeners;
    }
    const secure = await listen(https.createServer({ cert: credentials.cert, key: credentials.key }, app), config.port, config.host);
    started.push({ role: 'app', url: `https://localhost:${secure.port}`, server: secure.server });
    if (config.httpRedirectPort !== undefined) {
      const plain = await listen(http.createServer(redirectToHttps(config, secure.port)), config.httpRedirectPort, config.host);
      started.push({ role: 'redirect', url: `http://localhost:${plain.port}`, server: plain.server });
    }
    return listeners;
  } catch (error) {
    await listeners.close(0);
    throw error;
  }
}

/**
 * What Node answers itself, before any request reaches Express (a request line or headers over
 * its 16 KB limit, bytes that are not HTTP, a request not received in time), in our envelope
 * instead of an empty body.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A response already under way on this connection must not get another one written into it.
  const inProgress = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (error.code === 'ECONNRESET' || !socket.writable || inProgress) {
    socket.destroy();
    return;
  }
  const [status, code, message]: [number, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'REQUEST_HEADERS_TOO_LARGE', 'The request line and headers must be at most 16 KB.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'REQUEST_TIMEOUT', 'The request was not received in time.']
        : [400, 'INVALID_REQUEST', 'The request is not valid HTTP.'];
  const body = JSON.stringify({ error: { code, message, details: {} } });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

function listen<T extends http.Server | https.Server>(server: T, port: number, host: string): Promise<{ server: T; port: number }> {
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({ server, port: (server.address() as AddressInfo).port });
    });
  });
}

async function closeGracefully(server: http.Server | https.Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(cut);
}
