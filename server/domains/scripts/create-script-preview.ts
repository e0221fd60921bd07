import type { EntityManager } from '@mikro-orm/postgresql';
import type { TCreateScriptPreviewInput, TScriptPreview } from '../../../shared/schemas/scripts.js';
import type { AppServices } from '../../services.js';

/** PLACEHOLDER until the preview branch lands (issue 31): the contract the builder calls. */
export async function createScriptPreview(_em: EntityManager, _services: AppServices, _organizationId: string, _input: TCreateScriptPreviewInput): Promise<TScriptPreview> {
  throw new Error('not built yet');
}
