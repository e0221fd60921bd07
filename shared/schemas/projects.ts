import { z } from 'zod';
import { ZHexColor, ZName, ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';

const ZProjectDescription = z.string().max(1000, 'must be at most 1000 characters');

export const ZProject = z
  .object({
    id: z.string().meta({ example: 'prj_4fS0m3Ex4mpl3Id0000000' }),
    name: z.string(),
    description: z.string().nullable(),
    color: z.string().nullable(),
    campaignCount: z.number().int().meta({ description: 'Campaigns currently assigned to the project.' }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
  })
  .meta({ id: 'Project' });
export type TProject = z.infer<typeof ZProject>;

export const ZCreateProjectInput = z.strictObject({
  name: ZName,
  description: ZProjectDescription.nullish(),
  color: ZHexColor.nullish(),
});
export type TCreateProjectInput = z.infer<typeof ZCreateProjectInput>;

/** Partial update; `null` clears description or color. */
export const ZUpdateProjectInput = z.strictObject({
  projectId: ZPathId,
  name: ZName.optional(),
  description: ZProjectDescription.nullish(),
  color: ZHexColor.nullish(),
});
export type TUpdateProjectInput = z.infer<typeof ZUpdateProjectInput>;

export const ZListProjectsInput = z.strictObject({
  search: z.string().max(100).optional().meta({ description: 'Case-insensitive match on the name.' }),
  ...ZPaginationQuery,
});
export type TListProjectsInput = z.infer<typeof ZListProjectsInput>;

export const ZProjectPage = ZPage(ZProject);
