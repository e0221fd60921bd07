import { z } from 'zod';
import { ZInterviewLanguage, ZName } from './common.js';
import { ZQuestionsInput } from './scripts.js';
import { ZShareLink, ZShareLinkOptions } from './share-links.js';

/** Quickstart: one call from questions to a link participants can open. */
export const ZQuickstartInput = z.strictObject({
  title: ZName,
  locale: ZInterviewLanguage.optional().meta({ description: 'Interview language: en, nl, de, fr or es (a region such as nl-BE is held in its language).' }),
  questions: ZQuestionsInput,
  distribution: z
    .strictObject({
      mode: z.enum(['share_link']).meta({ description: 'How participants arrive; `share_link` is the mode supported.' }),
      ...ZShareLinkOptions,
    })
    .default({ mode: 'share_link' }),
});
export type TQuickstartInput = z.infer<typeof ZQuickstartInput>;

export const ZQuickstartResult = z
  .object({
    share_link: ZShareLink,
    scriptId: z.string(),
    campaignId: z.string(),
    shareLinkId: z.string(),
  })
  .meta({ id: 'QuickstartResult' });
export type TQuickstartResult = z.infer<typeof ZQuickstartResult>;
