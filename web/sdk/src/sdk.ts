/**
 * The browser embed SDK (spec "Browser SDK events", design.md "Embed"): mounts the interview page
 * in an iframe and relays its events to the host page. Only messages from the embed's own
 * iframe, whose origin is exactly `baseUrl`'s, are taken; nothing is ever posted to `*`.
 */

/** The events the embedded interview raises, with the payload each handler receives. */
export interface InterviewEvents {
  start: Record<string, never>;
  progress: { status: 'in_progress' };
  pause: Record<string, never>;
  resume: Record<string, never>;
  completed: { sessionId: string };
  error: { message: string };
}
export type InterviewEventType = keyof InterviewEvents;
export type InterviewEventHandler<T extends InterviewEventType = InterviewEventType> = (payload: InterviewEvents[T]) => void;

export interface InterviewTheme {
  /** Buttons, focus and progress: a hex colour (`#2563eb` or `#26e`). */
  primary?: string;
  background?: string;
  text?: string;
}

export interface MountOptions {
  /** The participant's invite token. */
  invite: string;
  /**
   * Origin of the service that serves the embed, and the only origin whose messages are
   * trusted. Defaults to the origin the SDK was loaded from; set it explicitly in production.
   */
  baseUrl?: string;
  /** Overrides the interview's voice (the name of a speech synthesis voice). */
  voice?: string;
  theme?: InterviewTheme;
}

export interface InterviewEmbed {
  readonly iframe: HTMLIFrameElement;
  readonly container: HTMLElement;
  on<T extends InterviewEventType>(type: T, handler: InterviewEventHandler<T>): InterviewEmbed;
  /** Removes one handler, or every handler of the type when none is given. */
  off<T extends InterviewEventType>(type: T, handler?: InterviewEventHandler<T>): InterviewEmbed;
  /** Removes the iframe, the message listener and all handlers. */
  destroy(): void;
}

export interface InterviewSDKStatic {
  readonly version: string;
  mount(container: string | HTMLElement, options: MountOptions): InterviewEmbed;
  /** Adds the handler to every embed mounted now. */
  on<T extends InterviewEventType>(type: T, handler: InterviewEventHandler<T>): void;
  off<T extends InterviewEventType>(type: T, handler?: InterviewEventHandler<T>): void;
  /** Destroys the embeds mounted in the containers the selector (or element) names. */
  destroy(container: string | HTMLElement): void;
  destroyAll(): void;
}

declare const __SDK_VERSION__: string;

const EVENT_TYPES: readonly string[] = ['start', 'progress', 'pause', 'resume', 'completed', 'error'] satisfies InterviewEventType[];
const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

function fail(message: string): never {
  throw new Error(`InterviewSDK: ${message}`);
}

function resolveContainer(container: string | HTMLElement): HTMLElement {
  if (typeof container === 'string') {
    return document.querySelector<HTMLElement>(container) ?? fail(`no element matches the selector "${container}"`);
  }
  return container instanceof HTMLElement ? container : fail('the container must be a CSS selector or an HTMLElement');
}

function originOf(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return fail(`baseUrl "${baseUrl}" is not an absolute URL`);
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : fail(`baseUrl "${baseUrl}" must be http(s)`);
}

function embedUrl(origin: string, options: MountOptions): string {
  const query = new URLSearchParams({ invite: options.invite });
  if (options.voice) query.set('voice', options.voice);
  for (const part of ['primary', 'background', 'text'] as const) {
    const colour = options.theme?.[part];
    if (colour === undefined) continue;
    if (!HEX_COLOUR.test(colour)) fail(`theme.${part} must be a hex colour such as #2563eb, not "${colour}"`);
    query.set(`theme[${part}]`, colour);
  }
  query.set('parentOrigin', location.origin);
  return `${origin}/embed?${query}`;
}

export function createSDK(defaultBaseUrl: string | undefined): InterviewSDKStatic {
  const embeds = new Set<InterviewEmbed>();

  function mount(target: string | HTMLElement, options: MountOptions): InterviewEmbed {
    const container = resolveContainer(target);
    if (!options || typeof options.invite !== 'string' || options.invite === '') fail('options.invite (the invite token) is required');
    const baseUrl = options.baseUrl ?? defaultBaseUrl ?? fail('options.baseUrl is required');
    const origin = originOf(baseUrl);
    const handlers = new Map<string, Set<InterviewEventHandler<never>>>();

    const iframe = document.createElement('iframe');
    iframe.src = embedUrl(origin, options);
    iframe.allow = 'microphone; autoplay';
    iframe.title = 'Interview';
    iframe.style.cssText = 'display:block;width:100%;height:700px;border:0;border-radius:12px';

    const onMessage = (event: MessageEvent): void => {
      if (event.origin !== origin || event.source !== iframe.contentWindow) return;
      const data = event.data as { source?: unknown; type?: unknown; payload?: unknown } | null;
      if (!data || data.source !== 'interview-embed' || typeof data.type !== 'string' || !EVENT_TYPES.includes(data.type)) return;
      const payload = data.payload && typeof data.payload === 'object' ? data.payload : {};
      for (const handler of [...(handlers.get(data.type) ?? [])]) {
        // One failing handler must not keep the others from their event.
        try {
          (handler as (value: unknown) => void)(payload);
        } catch (error) {
          setTimeout(() => {
            throw error;
          });
        }
      }
    };

    const embed: InterviewEmbed = {
      iframe,
      container,
      on(type, handler) {
        if (!EVENT_TYPES.includes(type)) fail(`unknown event "${String(type)}"; events are ${EVENT_TYPES.join(', ')}`);
        if (typeof handler !== 'function') fail('an event handler must be a function');
        if (!handlers.has(type)) handlers.set(type, new Set());
        handlers.get(type)!.add(handler as InterviewEventHandler<never>);
        return embed;
      },
      off(type, handler) {
        if (handler) handlers.get(type)?.delete(handler as InterviewEventHandler<never>);
        else handlers.delete(type);
        return embed;
      },
      destroy() {
        window.removeEventListener('message', onMessage);
        iframe.remove();
        handlers.clear();
        embeds.delete(embed);
      },
    };
    window.addEventListener('message', onMessage);
    container.appendChild(iframe);
    embeds.add(embed);
    return embed;
  }

  return {
    version: __SDK_VERSION__,
    mount,
    on(type, handler) {
      for (const embed of embeds) embed.on(type, handler);
    },
    off(type, handler) {
      for (const embed of embeds) embed.off(type, handler);
    },
    destroy(target) {
      const container = resolveContainer(target);
      for (const embed of [...embeds]) if (embed.container === container) embed.destroy();
    },
    destroyAll() {
      for (const embed of [...embeds]) embed.destroy();
    },
  };
}
