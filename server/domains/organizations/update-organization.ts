import { isTestWorld } from '../../entities/index.js';
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { TOrganization, TUpdateOrganizationInput } from '../../../shared/schemas/organization.js';
import { AppError } from '../../errors.js';
import { applyMergePatch } from '../../lib/merge-patch.js';
import type { Caller } from '../common/caller.js';
import type { Deps } from '../common/deps.js';
import { loadOrganization, toOrganizationDto } from './get-organization.js';
import { mirrorLiveOrganization } from './test-organization.js';

/**
 * Partial update of name, logo, custom domain and settings (a merge patch). The row is locked
 * while the patch is merged, so concurrent patches of different settings keys both survive.
 */
export async function updateOrganization({ em }: Pick<Deps, 'em'>, caller: Caller, input: TUpdateOrganizationInput): Promise<TOrganization> {
  try {
    return await em.transactional(async (tx) => {
      const organization = await loadOrganization(tx, caller, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (input.name !== undefined) organization.name = input.name;
      if (input.logo !== undefined) organization.logo = input.logo;
      if (input.domain !== undefined) {
        // A test world's domain would take the live organization's (domains are unique).
        if (isTestWorld(organization)) throw new AppError('LIVE_MODE_ONLY', 'The custom domain is set on the live organization: use a live key.');
        organization.domain = input.domain;
      }
      if (input.settings !== undefined) organization.settings = applyMergePatch(organization.settings, input.settings);
      await tx.flush();
      if (!isTestWorld(organization)) await mirrorLiveOrganization(tx, { liveOrganizationId: organization.id });
      return toOrganizationDto(organization);
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError('DOMAIN_IN_USE', `The domain ${input.domain} is already used by another organization.`, {
        fields: [{ path: 'domain', message: 'is already used by another organization' }],
      });
    }
    throw error;
  }
}
