import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../../services.js';

/**
 * What a domain operation works with: the unit of work of this call (forked per procedure call,
 * or a job's own) and the service's configured parts (storage, mail, AI providers, config).
 * A tRPC context satisfies it, so a router passes `ctx`.
 */
export interface Deps {
  em: EntityManager;
  services: AppServices;
}
