// `npm run --silent cli -- <command>`: the developer CLI. It talks to the API with an API key,
// never to the database, so it runs on a laptop against any installation.
import { parseArgs } from 'node:util';
import { type TWebhookEventType, WEBHOOK_DESIGNS, WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks.js';
import { listen, ListenRefused, listenSecret, type ListenSignature } from './listen.js';
import { isTestKey, trigger, TriggerFailed, triggerInTestMode } from './trigger.js';

const USAGE = `Usage: npm run --silent cli -- listen --forward-to <url> [options]
       npm run --silent cli -- trigger <event type> [--forward-to <url>] [options]

listen   Forwards your organization's events, as they happen, to a local URL, each signed as a
         webhook endpoint's delivery is. Prints the signing secret to verify them with (the same
         at every run with one API key).
trigger  With a test key (isk_test_…): makes an event of a type with sample data in test mode, on
         the service; listen forwards it and test endpoints receive it. With a live key: sends
         the service's published sample of the type (a fresh id, the time now) to --forward-to,
         signed as listen signs; nothing is written on the service.

Options:
  --forward-to <url>     Where to POST each event, such as http://localhost:4000/hooks (listen, and
                         trigger with a live key).
  --api-key <key>        An API key with organization:read and sessions:read (or INTERVIEW_API_KEY).
  --url <url>            The service (or INTERVIEW_URL; default http://localhost:3000).
  --events <types>       listen: comma-separated event types (default: all): ${WEBHOOK_EVENT_TYPES.join(', ')}.
  --design <A|B>         The body's design (default B).
  --signature <scheme>   standard_webhooks (default) or design (the design's own headers).`;

const OPTIONS = {
  'forward-to': { type: 'string' },
  'api-key': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  design: { type: 'string' },
  signature: { type: 'string' },
  help: { type: 'boolean' },
} as const;

class UsageError extends Error {}

function option(value: string | undefined, name: string, allowed: readonly string[], fallback: string): string {
  const chosen = value ?? fallback;
  if (!allowed.includes(chosen)) throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}.`);
  return chosen;
}

function httpUrl(value: string, name: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // Answered below.
  }
  throw new UsageError(`--${name} must be an http:// or https:// URL.`);
}

export async function runDeveloperCli(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (values.help || positionals.length === 0) {
      process.stdout.write(`${USAGE}\n`);
      return values.help ? 0 : 2;
    }
    const [command, ...rest] = positionals;
    const triggered = command === 'trigger' ? rest[0] : undefined;
    if (!((command === 'listen' && rest.length === 0) || (command === 'trigger' && rest.length === 1))) {
      throw new UsageError(`Unknown command: ${positionals.join(' ')}.`);
    }
    if (triggered !== undefined && !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(triggered)) {
      throw new UsageError(`Unknown event type: ${triggered}. One of: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
    }
    const apiKey = (values['api-key'] ?? env.INTERVIEW_API_KEY ?? '').trim();
    if (!apiKey) throw new UsageError('An API key is required: --api-key or INTERVIEW_API_KEY.');
    if (triggered !== undefined && isTestKey(apiKey)) {
      const controller = new AbortController();
      const url = new URL(httpUrl(values.url ?? env.INTERVIEW_URL ?? 'http://localhost:3000', 'url')).toString();
      const out = (line: string) => process.stdout.write(`${line}\n`);
      return (await triggerInTestMode({ url, apiKey, type: triggered as TWebhookEventType, out, signal: controller.signal })) ? 0 : 1;
    }
    if (!values['forward-to']) throw new UsageError('--forward-to is required.');
    const types = values.events
      ?.split(',')
      .map((type) => type.trim())
      .filter(Boolean);
    const unknown = types?.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type)) ?? [];
    if (unknown.length > 0) throw new UsageError(`Unknown event types: ${unknown.join(', ')}.`);
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const service = new URL(httpUrl(values.url ?? env.INTERVIEW_URL ?? 'http://localhost:3000', 'url'));
    if (service.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(service.hostname)) {
      process.stderr.write(`Warning: ${service.origin} is plain HTTP: the API key crosses the network unencrypted. Use https://.\n`);
    }
    const common = {
      url: service.toString(),
      apiKey,
      forwardTo: httpUrl(values['forward-to'], 'forward-to'),
      design: option(values.design, 'design', WEBHOOK_DESIGNS, 'B') as 'A' | 'B',
      signature: option(values.signature, 'signature', ['standard_webhooks', 'design'], 'standard_webhooks') as ListenSignature,
      out: (line: string) => process.stdout.write(`${line}\n`),
      signal: controller.signal,
    };
    if (triggered !== undefined) {
      return (await trigger({ ...common, type: triggered as TWebhookEventType }, listenSecret(apiKey))) ? 0 : 1;
    }
    await listen({ ...common, ...(types && types.length > 0 ? { types } : {}) });
    return 0;
  } catch (error) {
    if (error instanceof ListenRefused || error instanceof TriggerFailed) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = await runDeveloperCli(process.argv.slice(2), process.env);
