import { lookup as dnsLookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction, type Socket } from 'node:net';
import tls from 'node:tls';

/**
 * Who may be reached by requests to customer-supplied URLs (webhook deliveries, organization
 * logos). Read once from configuration and not changed afterwards: its TLS context is cached.
 */
export interface OutboundPolicy {
  /**
   * Host names or IP literals (lowercase) that may be reached even though they are private or
   * loopback (tests use 127.0.0.1 / localhost). Matched against the URL's host as written, or its
   * literal IP after normalisation (`https://2130706433` is 127.0.0.1); never against what a host
   * name resolves to. IPv6 entries may be written with or without brackets, in compressed form.
   */
  allowHosts: ReadonlySet<string>;
  /** Extra trusted CA certificates (PEM), added to Node's defaults. */
  extraCa?: string | undefined;
  /** DNS lookup, injectable for tests; default node:dns lookup with all: true. */
  lookup?: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;
}

/** Why a URL may not be requested at all; decided before any connection is made. */
export type OutboundRefusalReason = 'invalid_url' | 'not_https' | 'credentials_in_url' | 'private_address' | 'dns_failure';

/**
 * Why an allowed request did not produce a response:
 * `timeout` (no complete answer within timeoutMs, DNS included),
 * `connection` (refused, reset or closed before the answer was complete), `tls` (handshake or
 * certificate verification failed), `protocol` (the answer was not valid HTTP).
 */
export type OutboundFailureReason = 'timeout' | 'connection' | 'tls' | 'protocol';

/** The URL or the addresses it leads to may not be requested. Messages never name addresses or URL parts. */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
  constructor(
    readonly reason: OutboundRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** The request was allowed but failed. `code` is the system or OpenSSL code when there is one (ECONNREFUSED, CERT_HAS_EXPIRED). */
export class OutboundFailedError extends Error {
  override readonly name = 'OutboundFailedError';
  constructor(
    readonly reason: OutboundFailureReason,
    message: string,
    readonly code?: string,
  ) {
    super(code ? `${message} (${code})` : message);
  }
}

export interface OutboundRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Covers DNS, connect, TLS, headers and body. */
  timeoutMs: number;
  /** Bytes of body kept; the connection is dropped once more arrives (`truncated: true`). */
  maxResponseBytes: number;
  policy: OutboundPolicy;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  truncated: boolean;
  durationMs: number;
  /** The address actually connected to. */
  remoteAddress: string;
}

const IPV4_REFUSED: readonly [network: string, prefix: number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata at 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast 255.255.255.255
];

const IPV6_REFUSED: readonly [network: string, prefix: number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo (whose embedded IPv4 is obfuscated)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local, still routed by some stacks
  ['ff00::', 8], // multicast
];

/**
 * IPv6 prefixes whose addresses carry an IPv4 address that a host or gateway connects to: each
 * refused IPv4 range is refused inside them too, while a public IPv4 inside them stays allowed.
 * The 6to4 address holds it in bits 16–47, the others in the last 32 bits.
 */
const IPV4_CARRIERS: readonly { embed: (ipv4Hex: string) => string; offset: number }[] = [
  { embed: (v4) => `::ffff:${v4}`, offset: 96 }, // IPv4-mapped
  { embed: (v4) => `::${v4}`, offset: 96 }, // IPv4-compatible (deprecated)
  { embed: (v4) => `64:ff9b::${v4}`, offset: 96 }, // NAT64
  { embed: (v4) => `2002:${v4}::`, offset: 16 }, // 6to4
];

const refused = new BlockList();
for (const [network, prefix] of IPV4_REFUSED) {
  refused.addSubnet(network, prefix, 'ipv4');
  const octets = network.split('.').map(Number);
  const hex = (high: number, low: number) => ((octets[high]! << 8) | octets[low]!).toString(16);
  for (const carrier of IPV4_CARRIERS) refused.addSubnet(carrier.embed(`${hex(0, 1)}:${hex(2, 3)}`), carrier.offset + prefix, 'ipv6');
}
for (const [network, prefix] of IPV6_REFUSED) refused.addSubnet(network, prefix, 'ipv6');

/**
 * One spelling per address, so addresses from the URL, the resolver and the socket compare
 * equal: dotted decimal for IPv4, the WHATWG URL serialisation (compressed, hex) for IPv6.
 * Undefined when it is not an IP address.
 */
function canonicalIp(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(bare);
  if (version === 4) return bare;
  if (version !== 6) return undefined;
  return new URL(`https://[${bare}]/`).hostname.slice(1, -1);
}

/** Whether an address is loopback, private, link-local, reserved or otherwise not the public internet. */
function isPrivateAddress(address: string): boolean {
  return refused.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

function parseHttpsUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefusedError('invalid_url', 'not a valid URL');
  }
  if (parsed.protocol !== 'https:') throw new OutboundRefusedError('not_https', 'only https URLs may be requested');
  if (parsed.username !== '' || parsed.password !== '') {
    throw new OutboundRefusedError('credentials_in_url', 'the URL must not carry a user name or password');
  }
  return parsed;
}

function isAllowlisted(host: string, policy: OutboundPolicy): boolean {
  return policy.allowHosts.has(host) || (isIP(host) === 6 && policy.allowHosts.has(`[${host}]`));
}

// The addresses themselves stay out of the message: telling a customer what an internal host name
// resolves to would map the private network for them.
const privateAddressRefusal = () =>
  new OutboundRefusedError('private_address', 'the host is or resolves to a loopback, private, link-local or reserved address');

const systemLookup = async (hostname: string) => (await dnsLookup(hostname, { all: true })) as { address: string; family: 4 | 6 }[];

/**
 * The addresses the URL may be connected to (canonical, each one judged). A host name is refused
 * when any answer is private: one private answer among public ones is how a rebinding or
 * round-robin attacker would get a connection in.
 */
async function checkedAddresses(url: URL, policy: OutboundPolicy): Promise<string[]> {
  const literal = canonicalIp(url.hostname);
  if (literal !== undefined) {
    if (!isAllowlisted(literal, policy) && isPrivateAddress(literal)) throw privateAddressRefusal();
    return [literal];
  }
  let answers: readonly { address: string }[];
  try {
    answers = await (policy.lookup ?? systemLookup)(url.hostname);
  } catch {
    throw new OutboundRefusedError('dns_failure', 'the host name could not be resolved');
  }
  const addresses = answers.map((answer) => canonicalIp(answer.address));
  if (addresses.length === 0 || addresses.some((address) => address === undefined)) {
    throw new OutboundRefusedError('dns_failure', 'the host name could not be resolved');
  }
  const checked = addresses as string[];
  if (!isAllowlisted(url.hostname, policy) && checked.some(isPrivateAddress)) throw privateAddressRefusal();
  return checked;
}

/**
 * Creation-time check of a URL: parses it, https only, no user:password, a literal IP in any form
 * is checked, a host name is resolved and every answer checked. Throws OutboundRefusedError.
 */
export async function assertPublicHttpsUrl(url: string, policy: OutboundPolicy): Promise<URL> {
  const parsed = parseHttpsUrl(url);
  // A resolver that never answers must not hold the request (or its transaction) open.
  const deadline = AbortSignal.timeout(CHECK_TIMEOUT_MS);
  await untilStopped(checkedAddresses(parsed, policy), deadline, () => new OutboundRefusedError('dns_failure', 'the host name could not be resolved in time'));
  return parsed;
}

/** How long assertPublicHttpsUrl waits for DNS. */
const CHECK_TIMEOUT_MS = 5000;

/**
 * Hands the socket exactly the addresses already judged, so a DNS answer that changes between the
 * check and the connect (rebinding) is never used.
 */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  return (_hostname, options, callback) => {
    // dns.lookup never answers synchronously and net relies on that ordering.
    process.nextTick(() => {
      // net asks for every address when it races IPv4 against IPv6 (autoSelectFamily), else for one.
      if (options.all)
        callback(
          null,
          addresses.map((address) => ({ address, family: isIP(address) })),
        );
      else callback(null, addresses[0]!, isIP(addresses[0]!));
    });
  };
}

// Building a context from ~150 root certificates costs ~20 ms; one per policy is enough.
const secureContexts = new WeakMap<OutboundPolicy, tls.SecureContext>();

function secureContextOf(policy: OutboundPolicy): tls.SecureContext | undefined {
  if (!policy.extraCa) return undefined;
  let context = secureContexts.get(policy);
  if (!context) {
    // An explicit `ca` replaces Node's roots, hence both.
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, policy.extraCa] });
    secureContexts.set(policy, context);
  }
  return context;
}

/**
 * One keep-alive agent per policy: a webhook receiver gets many deliveries, and a TLS handshake
 * per request was most of a delivery's cost. A pooled socket is reused only for the same host and
 * port, and it was connected to an address judged when it was made (the pinned lookup and the
 * check after connecting); policies never share one.
 */
const agents = new WeakMap<OutboundPolicy, https.Agent>();

function agentOf(policy: OutboundPolicy): https.Agent {
  let agent = agents.get(policy);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000, scheduling: 'lifo' });
    agents.set(policy, agent);
  }
  return agent;
}

type Phase = 'connect' | 'tls' | 'http';

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('code' in error && typeof error.code === 'string') return error.code;
  // Racing several addresses (autoSelectFamily) fails with an AggregateError of each attempt.
  if (error instanceof AggregateError) return codeOf(error.errors[0]);
  return undefined;
}

/** Node's own error messages are dropped: some name the address, and only our wording is promised to be free of request data. */
function classify(error: unknown, phase: Phase): OutboundRefusedError | OutboundFailedError {
  if (error instanceof OutboundRefusedError || error instanceof OutboundFailedError) return error;
  const code = codeOf(error);
  if (code?.startsWith('HPE_')) return new OutboundFailedError('protocol', 'the answer was not valid HTTP', code);
  if (phase === 'tls' || code?.startsWith('ERR_TLS_') || code?.startsWith('ERR_SSL_')) {
    return new OutboundFailedError('tls', 'the TLS handshake failed', code);
  }
  if (phase === 'connect') return new OutboundFailedError('connection', 'could not connect', code);
  return new OutboundFailedError('connection', 'the connection failed before the answer was complete', code);
}

function untilStopped<T>(work: Promise<T>, signal: AbortSignal, stopped: () => Error): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A pooled connection the receiver had closed while it sat idle fails the next request before
 * any answer: that request is sent once more on a new connection (as browsers do).
 */
class StalePooledSocket extends Error {}

function exchange(
  url: URL,
  addresses: readonly string[],
  request: OutboundRequest,
  signal: AbortSignal,
  stopped: () => Error,
  options: { fresh: boolean } = { fresh: false },
): Promise<Omit<OutboundResponse, 'durationMs'>> {
  return new Promise((resolve, reject) => {
    let phase: Phase = 'connect';
    let remoteAddress: string | undefined;
    let pooled = false;
    let answered = false;
    const secureContext = secureContextOf(request.policy);
    const req = https.request(url, {
      method: request.method,
      headers: request.headers,
      agent: options.fresh ? false : agentOf(request.policy),
      // A new connection goes only to the addresses judged for this request.
      lookup: pinnedLookup(addresses),
      ...(secureContext ? { secureContext } : {}),
    });
    const settle = () => signal.removeEventListener('abort', onAbort);
    const fail = (error: unknown) => {
      settle();
      const code = codeOf(error);
      const stale = pooled && !answered && !signal.aborted && (code === 'ECONNRESET' || code === 'EPIPE');
      reject(stale ? new StalePooledSocket() : classify(error, phase));
      req.destroy();
    };
    const onAbort = () => fail(stopped());
    signal.addEventListener('abort', onAbort, { once: true });

    req.on('socket', (socket: Socket) => {
      if (!socket.connecting && socket.remoteAddress) {
        // A pooled connection to this host, judged when it was made; it is judged again, as the
        // host's addresses may have changed since (a public one stays acceptable).
        const remote = canonicalIp(socket.remoteAddress);
        if (remote === undefined || !(addresses.includes(remote) || isAllowlisted(url.hostname, request.policy) || !isPrivateAddress(remote))) {
          return fail(privateAddressRefusal());
        }
        remoteAddress = remote;
        phase = 'http';
        pooled = true;
        return;
      }
      socket.once('connect', () => {
        // Checked as the connection opens, before any byte of the request is written. (The TLS
        // ClientHello may already be on its way; it carries nothing of the request, and the
        // pinned lookup means a wrong address cannot be reached in the first place.)
        const remote = canonicalIp(socket.remoteAddress ?? '');
        if (remote === undefined || !addresses.includes(remote)) return fail(privateAddressRefusal());
        remoteAddress = remote;
        phase = 'tls';
      });
      socket.once('secureConnect', () => {
        phase = 'http';
      });
    });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      answered = true;
      if (remoteAddress === undefined) return fail(privateAddressRefusal());
      const connected = remoteAddress;
      const chunks: Buffer[] = [];
      let size = 0;
      const answer = (truncated: boolean) => {
        settle();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks, size), truncated, remoteAddress: connected });
      };
      res.on('data', (chunk: Buffer) => {
        const room = request.maxResponseBytes - size;
        if (chunk.length <= room) {
          chunks.push(chunk);
          size += chunk.length;
          return;
        }
        chunks.push(chunk.subarray(0, room));
        size += room;
        answer(true);
        req.destroy();
      });
      res.on('end', () => answer(false));
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new OutboundFailedError('connection', 'the connection closed before the answer was complete'));
      });
    });
    req.end(request.body);
  });
}

/**
 * One HTTPS request to a customer-supplied URL; never follows redirects (a 3xx comes back as a
 * response). The URL is checked as assertPublicHttpsUrl does, again at request time, and the
 * connection goes only to an address that passed. Throws OutboundRefusedError or
 * OutboundFailedError, neither carrying the URL, header values or the body.
 */
export async function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const started = performance.now();
  const url = parseHttpsUrl(request.url);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), request.timeoutMs);
  const signal = deadline.signal;
  const stopped = () => new OutboundFailedError('timeout', `no complete answer within ${request.timeoutMs} ms`);
  try {
    if (signal.aborted) throw stopped();
    const addresses = await untilStopped(checkedAddresses(url, request.policy), signal, stopped);
    if (signal.aborted) throw stopped();
    let response: Omit<OutboundResponse, 'durationMs'>;
    try {
      response = await exchange(url, addresses, request, signal, stopped);
    } catch (error) {
      if (!(error instanceof StalePooledSocket)) throw error;
      response = await exchange(url, addresses, request, signal, stopped, { fresh: true });
    }
    return { ...response, durationMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}
