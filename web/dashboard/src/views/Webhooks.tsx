import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type TWebhookEventType, WEBHOOK_EVENT_TYPES } from '../../../../shared/schemas/webhooks';
import { type RouterOutputs, useTRPC } from '../trpc';
import { ErrorNote, formatDateTime, Loading, PageHeading, ShownOnce } from '../ui';

type Endpoint = RouterOutputs['webhooks']['list']['data'][number];
type SignatureScheme = Endpoint['signatureScheme'];

const SIGNATURE_SCHEMES: { value: SignatureScheme; label: string }[] = [
  { value: 'design', label: "The design's own headers" },
  { value: 'standard_webhooks', label: 'Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature)' },
];

export function WebhooksView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions({ limit: 100 }));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<(TWebhookEventType | '*')[]>(['*']);
  const [design, setDesign] = useState<'A' | 'B'>('B');
  const [signatureScheme, setSignatureScheme] = useState<SignatureScheme>('design');
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.webhooks.pathFilter()) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ url, events, design, signatureScheme });
  };

  return (
    <>
      <PageHeading title="Webhook endpoints" />
      <ErrorNote error={endpoints.error} />
      {endpoints.isPending ? <Loading /> : endpoints.data?.data.length === 0 && <p>No endpoints yet.</p>}
      {endpoints.data?.data.map((endpoint) => (
        <EndpointCard key={endpoint.id} endpoint={endpoint} />
      ))}
      {endpoints.data && endpoints.data.data.length > 0 && <RecentEvents endpoints={endpoints.data.data} />}
      <form onSubmit={submit} className="panel">
        <h2>New endpoint</h2>
        <label htmlFor="hook-url">URL (https)</label>
        <input
          id="hook-url"
          type="url"
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          required
          placeholder="https://hooks.example.com/interviews"
        />
        <fieldset className="inline">
          <legend>Events</legend>
          {(['*', ...WEBHOOK_EVENT_TYPES] as const).map((name) => (
            <label key={name} className="choice">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) => setEvents(event.target.checked ? [...events, name] : events.filter((item) => item !== name))}
              />{' '}
              <code>{name}</code>
              {name === '*' ? ' (every event, later ones too)' : ''}
            </label>
          ))}
        </fieldset>
        <label htmlFor="hook-design">Payload design</label>
        <select id="hook-design" value={design} onChange={(event) => setDesign(event.target.value as 'A' | 'B')}>
          <option value="A">A: flat payload, X-Webhook-Signature</option>
          <option value="B">B: envelope, timestamped signature</option>
        </select>
        <label htmlFor="hook-signatures">Signatures</label>
        <select
          id="hook-signatures"
          aria-describedby="hook-signatures-hint"
          value={signatureScheme}
          onChange={(event) => setSignatureScheme(event.target.value as SignatureScheme)}
        >
          {SIGNATURE_SCHEMES.map((scheme) => (
            <option key={scheme.value} value={scheme.value}>
              {scheme.label}
            </option>
          ))}
        </select>
        <p id="hook-signatures-hint" className="small muted">
          Standard Webhooks signatures are verified by the standardwebhooks and svix libraries, in any language.
        </p>
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.isPending || events.length === 0}>
          Add endpoint
        </button>
        {create.data && <ShownOnce label="Signing secret of the new endpoint" value={create.data.secret} />}
      </form>
    </>
  );
}

function EndpointCard({ endpoint }: { endpoint: Endpoint }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const invalidate = () => {
    void queryClient.invalidateQueries(trpc.webhooks.pathFilter());
    // A test event is an event too.
    void queryClient.invalidateQueries(trpc.events.pathFilter());
  };
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions({ onSuccess: invalidate }));
  const test = useMutation(trpc.webhooks.sendTest.mutationOptions({ onSuccess: invalidate }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: invalidate }));
  const deliveries = useQuery({ ...trpc.webhooks.listDeliveries.queryOptions({ endpointId: endpoint.id, limit: 20 }), enabled: open });
  return (
    <article className="card endpoint" aria-labelledby={`ep-${endpoint.id}`}>
      <h2 id={`ep-${endpoint.id}`} className="mono">
        {endpoint.url}
      </h2>
      <p className="small">
        <span className={`badge status-${endpoint.status}`}>{endpoint.status}</span> Design {endpoint.design}
        {endpoint.signatureScheme === 'standard_webhooks' && ' · Standard Webhooks signatures'} · events {endpoint.events.join(', ')}
        {endpoint.secretRotatedAt && ` · secret rotated ${formatDateTime(endpoint.secretRotatedAt)}`}
        {endpoint.previousSecretExpiresAt && ` · old secret also signs until ${formatDateTime(endpoint.previousSecretExpiresAt)}`}
      </p>
      <div className="row">
        <button type="button" className="secondary" onClick={() => test.mutate({ endpointId: endpoint.id })} disabled={test.isPending}>
          Send test event
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            if (window.confirm('Rotate the signing secret? Receivers need the new secret (Design B and Standard Webhooks signatures use both for a while).'))
              rotate.mutate({ endpointId: endpoint.id });
          }}
          disabled={rotate.isPending}
        >
          Rotate secret
        </button>
        <label className="inline-select">
          Signatures{' '}
          <select
            value={endpoint.signatureScheme}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ endpointId: endpoint.id, signatureScheme: event.target.value as SignatureScheme })}
          >
            {SIGNATURE_SCHEMES.map((scheme) => (
              <option key={scheme.value} value={scheme.value}>
                {scheme.value === 'design' ? "Design's own" : 'Standard Webhooks'}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
      </div>
      <ErrorNote error={rotate.error ?? test.error ?? update.error} />
      {test.data && <p role="status">Test event queued (delivery {test.data.id}).</p>}
      {rotate.data && <ShownOnce label="New signing secret" value={rotate.data.secret} />}
      {open && (
        <>
          <ErrorNote error={deliveries.error} />
          {deliveries.isPending ? <Loading what="Loading deliveries" /> : deliveries.data && <Deliveries deliveries={deliveries.data.data} />}
        </>
      )}
    </article>
  );
}

function Deliveries({ deliveries }: { deliveries: RouterOutputs['webhooks']['listDeliveries']['data'] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const redeliver = useMutation(trpc.webhooks.redeliver.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.webhooks.pathFilter()) }));
  if (deliveries.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="table-wrap">
      <ErrorNote error={redeliver.error} />
      <table className="event-table">
        <caption className="visually-hidden">Deliveries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Created</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => {
            const last = delivery.attempts.at(-1);
            return (
              <tr key={delivery.id}>
                <th scope="row" className="mono small">
                  {delivery.event}
                </th>
                <td>
                  <span className={`badge delivery-${delivery.status}`}>{delivery.status}</span>
                  {delivery.redeliveryOf && <span className="muted small"> (redelivery)</span>}
                </td>
                <td className="num">{delivery.attempts.length}</td>
                <td className="small">{last ? (last.statusCode !== null ? `HTTP ${last.statusCode}` : (last.error ?? '—')) : '—'}</td>
                <td className="small">{formatDateTime(delivery.createdAt)}</td>
                <td>
                  {delivery.status !== 'pending' && (
                    <button type="button" className="link" onClick={() => redeliver.mutate({ deliveryId: delivery.id })} disabled={redeliver.isPending}>
                      Redeliver<span className="visually-hidden"> {delivery.id}</span>
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

type Event = RouterOutputs['events']['list']['data'][number];

/**
 * The organization's events of the last 30 days (GET /v1/events), whether or not an endpoint got
 * them, each sendable to any enabled endpoint: a receiver that was down longer than its retries,
 * or added since, catches up.
 */
function RecentEvents({ endpoints }: { endpoints: Endpoint[] }) {
  const trpc = useTRPC();
  const events = useQuery(trpc.events.list.queryOptions({ limit: 20 }));
  const enabled = endpoints.filter((endpoint) => endpoint.status === 'enabled');
  return (
    <section className="panel" aria-labelledby="recent-events">
      <h2 id="recent-events">Recent events</h2>
      <p className="small muted">Every event of the last 30 days, newest first. Send one to an endpoint to replay it there.</p>
      <ErrorNote error={events.error} />
      {events.isPending ? (
        <Loading what="Loading events" />
      ) : events.data?.data.length === 0 ? (
        <p className="muted">No events yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="event-table">
            <caption className="visually-hidden">Events, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Session</th>
                <th scope="col">Created</th>
                <th scope="col">Send to</th>
              </tr>
            </thead>
            <tbody>
              {events.data?.data.map((event) => (
                <EventRow key={event.id} event={event} endpoints={enabled} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EventRow({ event, endpoints }: { event: Event; endpoints: Endpoint[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<string | null>(null);
  // What the select shows: the pick while it is still on offer (enabled), else the first endpoint.
  const endpointId = endpoints.some((endpoint) => endpoint.id === picked) ? picked! : (endpoints[0]?.id ?? '');
  const send = useMutation(trpc.events.redeliver.mutationOptions({ onSuccess: () => void queryClient.invalidateQueries(trpc.webhooks.pathFilter()) }));
  const label = `Endpoint for ${event.type} of ${formatDateTime(event.createdAt)}`;
  return (
    <tr>
      <th scope="row" className="mono small">
        {event.type}
      </th>
      <td className="mono small">{event.sessionId ?? '—'}</td>
      <td className="small">{formatDateTime(event.createdAt)}</td>
      <td>
        {endpoints.length === 0 ? (
          <span className="muted small">No enabled endpoint</span>
        ) : (
          <div className="row">
            <select aria-label={label} value={endpointId} onChange={(change) => setPicked(change.target.value)}>
              {endpoints.map((endpoint) => (
                <option key={endpoint.id} value={endpoint.id}>
                  {endpoint.url}
                </option>
              ))}
            </select>
            <button type="button" className="secondary" onClick={() => send.mutate({ eventId: event.id, endpointId })} disabled={send.isPending}>
              Send
              <span className="visually-hidden">
                {' '}
                {event.type} of {formatDateTime(event.createdAt)}
              </span>
            </button>
          </div>
        )}
        <ErrorNote error={send.error} />
        {send.data && (
          <p role="status" className="small">
            Queued (delivery {send.data.id}).
          </p>
        )}
      </td>
    </tr>
  );
}
