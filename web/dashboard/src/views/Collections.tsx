import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useRouter } from '../router';
import { useTRPC } from '../trpc';
import { ShareWithStakeholders } from '../stakeholder/ShareWithStakeholders';
import { ErrorNote, formatDateTime, Loading, PageHeading } from '../ui';

export function CollectionsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const collections = useQuery(trpc.collections.list.queryOptions({ limit: 100 }));
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation(
    trpc.collections.create.mutationOptions({
      onSuccess: () => {
        setName('');
        setDescription('');
        void queryClient.invalidateQueries(trpc.collections.pathFilter());
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ name, ...(description.trim() ? { description: description.trim() } : {}) });
  };
  return (
    <>
      <PageHeading title="Collections" />
      <p className="muted">Highlights gathered across sessions, shared with everyone in the organization.</p>
      <ErrorNote error={collections.error} />
      {collections.isPending ? (
        <Loading />
      ) : collections.data?.data.length === 0 ? (
        <p>No collections yet. Highlight a quote in a session, then add it to a collection, or create one here.</p>
      ) : (
        <ul className="cards">
          {collections.data?.data.map((collection) => (
            <li key={collection.id} className="card">
              <h2>
                <Link to={`/collections/${collection.id}`}>{collection.name}</Link>
              </h2>
              {collection.description && <p>{collection.description}</p>}
              <p className="muted small">
                {collection.itemCount} {collection.itemCount === 1 ? 'highlight' : 'highlights'} · by {collection.author.name} ·{' '}
                {formatDateTime(collection.updatedAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="panel">
        <h2>New collection</h2>
        <label htmlFor="collection-name">Name</label>
        <input id="collection-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={100} />
        <label htmlFor="collection-description">Description (optional)</label>
        <textarea id="collection-description" value={description} onChange={(event) => setDescription(event.target.value)} rows={2} />
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.isPending || !name.trim()}>
          Create collection
        </button>
      </form>
    </>
  );
}

/** Items read at a time; "Show more" reads the next page. */
const ITEMS_PER_PAGE = 50;

export function CollectionView({ collectionId }: { collectionId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { navigate } = useRouter();
  const collection = useQuery(trpc.collections.get.queryOptions({ collectionId }));
  // One query per page read so far (the first has no cursor); "Show more" adds the next one.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const pages = useQueries({ queries: cursors.map((cursor) => trpc.collections.items.queryOptions({ collectionId, limit: ITEMS_PER_PAGE, cursor })) });
  const lastPage = pages.at(-1)!;
  const pagesError = pages.find((page) => page.error)?.error;
  const invalidate = () => void queryClient.invalidateQueries(trpc.collections.pathFilter());
  const remove = useMutation(trpc.collections.removeHighlight.mutationOptions({ onSuccess: invalidate }));
  const deleteCollection = useMutation(
    trpc.collections.delete.mutationOptions({
      onSuccess: () => {
        invalidate();
        navigate('/collections');
      },
    }),
  );
  if (collection.error || pagesError) return <ErrorNote error={collection.error ?? pagesError!} />;
  if (!collection.data || !pages[0]!.data) return <Loading what="Loading the collection" />;
  const loaded = pages.flatMap((page) => page.data?.data ?? []);
  const nextCursor = lastPage.data?.nextCursor;
  return (
    <>
      <p className="crumbs">
        <Link to="/collections">Collections</Link> › {collection.data.name}
      </p>
      <PageHeading title={collection.data.name}>
        <button
          type="button"
          className="danger secondary"
          onClick={() => {
            if (window.confirm(`Delete the collection “${collection.data.name}”? The highlights themselves stay.`)) deleteCollection.mutate({ collectionId });
          }}
        >
          Delete collection
        </button>
      </PageHeading>
      {collection.data.description && <p>{collection.data.description}</p>}
      <ErrorNote error={remove.error ?? deleteCollection.error} />
      {loaded.length === 0 ? (
        <p>This collection is empty. Add highlights from a session's transcript.</p>
      ) : (
        <ol className="quotes">
          {loaded.map((item) => (
            <li key={item.highlight.id} className="quote-card" style={{ borderLeftColor: item.highlight.color }}>
              <blockquote>“{item.highlight.quote}”</blockquote>
              <p className="small">
                {item.highlight.label && <strong>{item.highlight.label} · </strong>}
                <Link to={`/sessions/${item.highlight.sessionId}?u=${item.highlight.utteranceId}`}>{item.highlight.campaignName}, open the session</Link>
              </p>
              {item.note && <p className="small">Note: {item.note}</p>}
              <p className="muted small">
                Added by {item.addedBy.name}, {formatDateTime(item.addedAt)}
              </p>
              <button type="button" className="link danger small" onClick={() => remove.mutate({ collectionId, highlightId: item.highlight.id })}>
                Remove from the collection
              </button>
            </li>
          ))}
        </ol>
      )}
      {lastPage.isPending ? (
        <Loading what="Loading more of the collection" />
      ) : (
        nextCursor && (
          <button type="button" className="secondary" onClick={() => setCursors((list) => (list.includes(nextCursor) ? list : [...list, nextCursor]))}>
            Show more ({loaded.length} of {collection.data.itemCount})
          </button>
        )
      )}
      <ShareWithStakeholders target={{ kind: 'collection', id: collectionId }} />
    </>
  );
}
