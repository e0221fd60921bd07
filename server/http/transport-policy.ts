import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import { isLoopback } from '../lib/loopback.js';

// The transport policy (design.md "Running it"): which plain-HTTP requests are redirected to
// HTTPS, where to, and HSTS on HTTPS answers. The listeners themselves are in listeners.ts.

/** What the transport rules need to know about one request (Express's request supplies it). */
export interface TransportFacts {
  /** `req.protocol`: the socket's scheme, or X-Forwarded-Proto when a trusted proxy sent it. */
  protocol: string;
  /** A trusted proxy stated the scheme (X-Forwarded-Proto from an address TRUST_PROXY trusts). */
  forwardedByTrustedProxy: boolean;
  /** The connection comes from an address TRUST_PROXY trusts (whether or not it sent X-Forwarded-Proto). */
  peerIsTrustedProxy?: boolean;
  /** `req.ip`: the client's address, through trusted proxies. */
  clientAddress: string | undefined;
  /** `req.host`: the Host header, or X-Forwarded-Host from a trusted proxy. */
  host: string | undefined;
  /** `req.originalUrl`. */
  url: string;
  /** With TLS_CERT_FILE: the port this server serves HTTPS on. */
  tlsPort: number | undefined;
}

/** Load-balancer health checks and Prometheus scrapes talk to the process, not to the public URL. */
const PROBE_PATHS = new Set(['/healthz', '/metrics']);

export type TransportDecision = { action: 'serve'; hsts: string | undefined } | { action: 'redirect'; location: string };

/**
 * design.md "Running it": HTTPS responses carry HSTS; plain HTTP is redirected (308, same path and
 * query) when a trusted proxy says the client used http, when this server terminates TLS itself,
 * and when PUBLIC_URL is https and the client is not on this machine. Loopback clients keep plain
 * HTTP (process managers probe /healthz that way) and so does everyone in development (PUBLIC_URL
 * http), where there is no HTTPS to send them to.
 */
export function decideTransport(facts: TransportFacts, config: Config): TransportDecision {
  if (facts.protocol.toLowerCase() === 'https') {
    return { action: 'serve', hsts: config.hstsMaxAge > 0 ? `max-age=${config.hstsMaxAge}` : undefined };
  }
  if (config.tls || facts.forwardedByTrustedProxy) {
    return { action: 'redirect', location: `https://${httpsAuthority(facts.host, config, facts.tlsPort)}${requestTarget(facts.url)}` };
  }
  // Not through a trusted proxy (through one, its X-Forwarded-Proto decides: a proxy that omits
  // it would loop); a client reaching the process directly is redirected even when a proxy exists. Health checks and scrapes reach the process itself over plain HTTP: never moved.
  const publicUrl = new URL(config.publicUrl);
  const path = requestTarget(facts.url).split('?')[0]!.toLowerCase().replace(/\/+$/, '');
  const probe = PROBE_PATHS.has(path);
  if (publicUrl.protocol === 'https:' && !facts.peerIsTrustedProxy && !probe && !isLoopback(facts.clientAddress)) {
    return { action: 'redirect', location: `${publicUrl.origin}${requestTarget(facts.url)}` };
  }
  return { action: 'serve', hsts: undefined };
}

/** The first middleware: redirects plain HTTP that must not be served, adds HSTS to HTTPS responses. */
export function secureTransport(config: Config): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const trusted = req.app.get('trust proxy fn') as (address: string | undefined, hop: number) => boolean;
    const decision = decideTransport(
      {
        protocol: req.protocol,
        forwardedByTrustedProxy: Boolean(req.get('X-Forwarded-Proto')) && trusted(req.socket.remoteAddress, 0),
        peerIsTrustedProxy: trusted(req.socket.remoteAddress, 0),
        clientAddress: req.ip,
        host: req.host,
        url: req.originalUrl,
        tlsPort: config.tls ? ((req.socket as TLSSocket).encrypted ? req.socket.localPort : config.port) : undefined,
      },
      config,
    );
    if (decision.action === 'redirect') {
      sendRedirect(res, decision.location);
      return;
    }
    if (decision.hsts) res.setHeader('Strict-Transport-Security', decision.hsts);
    next();
  };
}

function sendRedirect(res: ServerResponse, location: string): void {
  const body = `Use HTTPS: ${location}\n`;
  res.writeHead(308, {
    Location: location,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

const HOST_PATTERN =
  /^(?<hostname>[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[(?<ipv6>[0-9a-f:.]+)\])(?::(?<port>\d{1,5}))?$/i;

/** A Host header that is a syntactically valid `host[:port]`, split; anything else is not trusted in a Location. */
export function parseHost(value: string | undefined): { hostname: string; port: string } | undefined {
  if (!value || value.length > 260) return undefined;
  const match = HOST_PATTERN.exec(value);
  if (!match?.groups) return undefined;
  const { hostname, ipv6, port = '' } = match.groups;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return undefined;
  if (port && Number(port) > 65535) return undefined;
  return { hostname: hostname!, port };
}

/**
 * `host[:port]` of the HTTPS origin to send a plain request to: the host the client asked for
 * (PUBLIC_URL's when that is not a valid host), and the port clients reach HTTPS on. With an https
 * PUBLIC_URL that is its port (containers often map 443 to another port inside); otherwise this
 * server's own TLS port, or, behind a proxy, the port the client used.
 */
function httpsAuthority(requestHost: string | undefined, config: Config, tlsPort: number | undefined): string {
  const publicUrl = new URL(config.publicUrl);
  // With an https PUBLIC_URL the public host is known: a client's Host or X-Forwarded-Host never
  // chooses where a (cacheable) 308 points.
  const given = publicUrl.protocol === 'https:' ? undefined : parseHost(requestHost);
  const hostname = given?.hostname ?? publicUrl.hostname;
  let port: string;
  if (publicUrl.protocol === 'https:') port = publicUrl.port;
  else if (tlsPort !== undefined) port = tlsPort === 443 ? '' : String(tlsPort);
  else port = given ? given.port : publicUrl.port;
  return port ? `${hostname}:${port}` : hostname;
}

/** Path and query of a request target, safe for a Location header (absolute-form and `*` reduced to a path). */
function requestTarget(url: string): string {
  let target = url;
  if (!target.startsWith('/')) {
    try {
      const parsed = new URL(target);
      target = `${parsed.pathname}${parsed.search}`;
    } catch {
      target = '/';
    }
  }
  // Node reads the request line as latin1, so each character above 0x7e is one byte of the original.
  return target.replace(/[^\x21-\x7e]/g, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(char);
  });
}

/** The handler of the plain-HTTP listener next to our own HTTPS one: every request is redirected. */
export function redirectToHttps(config: Config, tlsPort: number): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    sendRedirect(res, `https://${httpsAuthority(req.headers.host, config, tlsPort)}${requestTarget(req.url ?? '/')}`);
  };
}
