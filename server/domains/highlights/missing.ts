import { AppError } from '../../errors.js';

/**
 * 404 RESOURCE_NOT_FOUND for the workspace's records and the sessions and utterances they point
 * at (another organization's answer the same), shaped as `notFound` in server/errors.ts.
 */
export function missing(label: 'Session' | 'Utterance' | 'Campaign' | 'Highlight' | 'Comment' | 'Collection' | 'Saved search', id: string, fieldPath?: string): AppError {
  const resource = label === 'Saved search' ? 'savedSearch' : label.toLowerCase();
  const details: Record<string, unknown> = { resource, id };
  if (fieldPath) details.fields = [{ path: fieldPath, message: `no ${label.toLowerCase()} with this id` }];
  return new AppError('RESOURCE_NOT_FOUND', `${label} ${id} was not found.`, details);
}
