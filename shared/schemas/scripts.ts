import { z } from 'zod';
import { FOLLOW_UP_DEPTHS } from './probes.js';
import { ZInterviewLanguage, ZName, ZPage, ZPaginationQuery, ZPathId, ZTimestamp } from './common.js';
import { ZTurnTaking, ZTurnTakingPatch } from './turn-taking.js';

export const QUESTION_TYPES = ['open', 'rating', 'multiple_choice', 'yes_no'] as const;
/** The question types whose answers are read into a value; an open answer stays text. */
export const STRUCTURED_QUESTION_TYPES = ['rating', 'multiple_choice', 'yes_no'] as const;
export type TStructuredQuestionType = (typeof STRUCTURED_QUESTION_TYPES)[number];

export function isStructuredQuestion<Q extends { type: string }>(question: Q): question is Q & { type: TStructuredQuestionType } {
  return (STRUCTURED_QUESTION_TYPES as readonly string[]).includes(question.type);
}
export const SCRIPT_STATUSES = ['draft', 'published', 'archived'] as const;
export type TScriptStatus = (typeof SCRIPT_STATUSES)[number];

export const SCRIPT_LIMITS = {
  maxQuestions: 100,
  maxSystemPromptLength: 20000,
  maxQuestionTextLength: 2000,
  minOptions: 2,
  maxOptions: 20,
  maxFollowUps: 10,
} as const;

export const DEFAULT_RATING_SCALE = { min: 1, max: 5 } as const;

const ZFollowUp = z
  .strictObject({
    enabled: z.boolean().optional(),
    maxFollowUps: z.number().int().min(0).max(SCRIPT_LIMITS.maxFollowUps).optional(),
    depth: z.enum(FOLLOW_UP_DEPTHS).optional().meta({
      description:
        'How far the interviewer probes: `low` 0–1 probe (only when the answer leaves something open), `medium` 1, `high` 2, `deep` 3; `maxFollowUps` still caps it.',
    }),
    prompt: z.string().max(1000).optional(),
  })
  .meta({ id: 'QuestionFollowUp', description: '`maxFollowUps` here wins over the script setting; `enabled: false` means none.' });

const ZRatingScale = z
  .strictObject({
    min: z.number().int().min(0).max(10),
    max: z.number().int().min(1).max(100),
    minLabel: z.string().max(100).optional(),
    maxLabel: z.string().max(100).optional(),
  })
  .refine((scale) => scale.min < scale.max, { message: 'min must be below max', path: ['max'] })
  .meta({ id: 'RatingScale' });

/** A question as submitted: `required` defaults to true, `order` is assigned when omitted. */
export const ZQuestionInput = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, _, . and -'),
    text: z.string().trim().min(1, 'must not be empty').max(SCRIPT_LIMITS.maxQuestionTextLength),
    type: z.enum(QUESTION_TYPES),
    required: z.boolean().optional(),
    followUp: ZFollowUp.optional(),
    maxDuration: z.number().int().min(5).max(3600).optional().meta({ description: 'Seconds allowed for the answer.' }),
    order: z.number().int().min(0).max(100000).optional(),
    options: z
      .array(z.string().trim().min(1).max(200))
      .min(SCRIPT_LIMITS.minOptions)
      .max(SCRIPT_LIMITS.maxOptions)
      .optional()
      .meta({ description: 'multiple_choice only (required there): 2 to 20 unique options.' }),
    scale: ZRatingScale.optional().meta({ description: 'rating only; default 1 to 5.' }),
  })
  .meta({ id: 'QuestionInput' });
export type TQuestionInput = z.infer<typeof ZQuestionInput>;

/** Cross-question rules that a single question's schema cannot see. */
export const ZQuestionsInput = z
  .array(ZQuestionInput)
  .min(1, 'a script needs at least one question')
  .max(SCRIPT_LIMITS.maxQuestions, `at most ${SCRIPT_LIMITS.maxQuestions} questions`)
  .superRefine((questions, ctx) => {
    const seenIds = new Map<string, number>();
    const seenOrders = new Map<number, number>();
    questions.forEach((question, index) => {
      const firstWithId = seenIds.get(question.id);
      if (firstWithId !== undefined) {
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicates the id of questions[${firstWithId}]` });
      } else {
        seenIds.set(question.id, index);
      }
      if (question.order !== undefined) {
        const firstWithOrder = seenOrders.get(question.order);
        if (firstWithOrder !== undefined) {
          ctx.addIssue({ code: 'custom', path: [index, 'order'], message: `duplicates the order of questions[${firstWithOrder}]` });
        } else {
          seenOrders.set(question.order, index);
        }
      }
      if (question.type === 'multiple_choice') {
        if (!question.options) {
          ctx.addIssue({ code: 'custom', path: [index, 'options'], message: 'is required for multiple_choice questions' });
        } else if (new Set(question.options.map((option) => option.toLowerCase())).size !== question.options.length) {
          ctx.addIssue({ code: 'custom', path: [index, 'options'], message: 'must be unique' });
        }
      } else if (question.options !== undefined) {
        ctx.addIssue({ code: 'custom', path: [index, 'options'], message: 'is only allowed on multiple_choice questions' });
      }
      if (question.scale !== undefined && question.type !== 'rating') {
        ctx.addIssue({ code: 'custom', path: [index, 'scale'], message: 'is only allowed on rating questions' });
      }
    });
  });

/** A question as stored and returned: defaults applied, order assigned. */
export const ZQuestion = z
  .object({
    id: z.string(),
    text: z.string(),
    type: z.enum(QUESTION_TYPES),
    required: z.boolean(),
    order: z.number().int(),
    followUp: ZFollowUp.optional(),
    maxDuration: z.number().int().optional(),
    options: z.array(z.string()).optional(),
    scale: z.object({ min: z.number().int(), max: z.number().int(), minLabel: z.string().optional(), maxLabel: z.string().optional() }).optional(),
  })
  .meta({ id: 'Question' });
export type TQuestion = z.infer<typeof ZQuestion>;

export const ZScriptSettings = z
  .strictObject({
    maxFollowUps: z.number().int().min(0).max(SCRIPT_LIMITS.maxFollowUps).optional(),
    language: ZInterviewLanguage.optional(),
    voice: z.string().min(1).max(64).optional(),
    turnTaking: ZTurnTaking.optional().meta({ description: "Voice mode's end of turn and barge-in; a campaign's `settings.turnTaking` wins key by key." }),
  })
  .meta({ id: 'ScriptSettings' });
export type TScriptSettings = z.infer<typeof ZScriptSettings>;

/** In updates, settings are a merge patch: given keys replace, `null` removes a key. */
export const ZScriptSettingsPatch = z.strictObject({
  maxFollowUps: ZScriptSettings.shape.maxFollowUps.unwrap().nullable().optional(),
  language: ZInterviewLanguage.nullable().optional(),
  voice: ZScriptSettings.shape.voice.unwrap().nullable().optional(),
  turnTaking: ZTurnTakingPatch.nullable().optional(),
});

const ZScriptDescription = z.string().max(1000, 'must be at most 1000 characters');
const ZSystemPrompt = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(SCRIPT_LIMITS.maxSystemPromptLength, `must be at most ${SCRIPT_LIMITS.maxSystemPromptLength} characters`);

/**
 * The script record. `version` is the newest version (a draft while one is open);
 * `publishedVersion` is the one campaigns use.
 */
export const ZScript = z
  .object({
    id: z.string().meta({ example: 'scr_4fS0m3Ex4mpl3Id0000000' }),
    name: z.string(),
    description: z.string().nullable(),
    projectId: z.string().nullable(),
    systemPrompt: z.string(),
    questions: z.array(ZQuestion),
    settings: ZScriptSettings,
    status: z.enum(SCRIPT_STATUSES),
    version: z.number().int(),
    publishedVersion: z.number().int().nullable(),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
    publishedAt: ZTimestamp.nullable(),
  })
  .meta({ id: 'Script' });
export type TScript = z.infer<typeof ZScript>;

export const ZScriptVersion = z
  .object({
    scriptId: z.string(),
    version: z.number().int(),
    status: z.enum(['draft', 'published']).meta({ description: 'published once it has been published (it stays so).' }),
    changelog: z.string().nullable(),
    systemPrompt: z.string(),
    questions: z.array(ZQuestion),
    settings: ZScriptSettings,
    createdAt: ZTimestamp,
    publishedAt: ZTimestamp.nullable(),
  })
  .meta({ id: 'ScriptVersion' });
export type TScriptVersion = z.infer<typeof ZScriptVersion>;

export const ZCreateScriptInput = z.strictObject({
  name: ZName,
  description: ZScriptDescription.nullish(),
  projectId: z.string().min(1).nullish(),
  systemPrompt: ZSystemPrompt,
  questions: ZQuestionsInput,
  settings: ZScriptSettings.optional(),
});
export type TCreateScriptInput = z.infer<typeof ZCreateScriptInput>;

/**
 * Partial update. name, description and projectId change the script in place. systemPrompt,
 * questions and settings are versioned content: on a published script they open a new draft
 * version; on a draft they edit it. questions replace all questions; settings is a merge patch.
 */
export const ZUpdateScriptInput = z.strictObject({
  scriptId: ZPathId,
  name: ZName.optional(),
  description: ZScriptDescription.nullish(),
  projectId: z.string().min(1).nullish(),
  systemPrompt: ZSystemPrompt.optional(),
  questions: ZQuestionsInput.optional(),
  settings: ZScriptSettingsPatch.optional(),
});
export type TUpdateScriptInput = z.infer<typeof ZUpdateScriptInput>;

export const ZCreateScriptVersionInput = z.strictObject({
  scriptId: ZPathId,
  changelog: z.string().max(2000).optional(),
  questions: ZQuestionsInput.optional().meta({ description: 'Replaces all questions; omitted: copied from the newest version.' }),
  systemPrompt: ZSystemPrompt.optional(),
  settings: ZScriptSettingsPatch.optional().meta({ description: 'Merge patch of the newest version settings (null removes a key).' }),
});
export type TCreateScriptVersionInput = z.infer<typeof ZCreateScriptVersionInput>;

export const ZListScriptsInput = z.strictObject({
  projectId: z.string().min(1).max(255).optional(),
  status: z.enum(SCRIPT_STATUSES).optional(),
  search: z.string().max(100).optional().meta({ description: 'Case-insensitive match on the name.' }),
  ...ZPaginationQuery,
});
export type TListScriptsInput = z.infer<typeof ZListScriptsInput>;

export const ZListScriptVersionsInput = z.strictObject({
  scriptId: ZPathId,
  ...ZPaginationQuery,
});

export const ZGetScriptVersionInput = z.strictObject({
  scriptId: ZPathId,
  version: z.coerce.number().int().min(1).max(2_147_483_647),
});

export const ZScriptPage = ZPage(ZScript);
export const ZScriptVersionPage = ZPage(ZScriptVersion);

export const SCRIPT_EXPORT_FORMAT = 'interview-script';
export const SCRIPT_EXPORT_FORMAT_VERSION = 1;

/** The portable form of a script's newest version: what export answers and import accepts. */
export const ZScriptExport = z
  .object({
    format: z.literal(SCRIPT_EXPORT_FORMAT),
    formatVersion: z.literal(SCRIPT_EXPORT_FORMAT_VERSION),
    exportedAt: ZTimestamp,
    source: z.object({ scriptId: z.string(), version: z.number().int() }),
    script: z.object({
      name: z.string(),
      description: z.string().nullable(),
      systemPrompt: z.string(),
      questions: z.array(ZQuestion),
      settings: ZScriptSettings,
    }),
  })
  .meta({ id: 'ScriptExport' });
export type TScriptExport = z.infer<typeof ZScriptExport>;

/** Import takes an export as is (exportedAt and source are informational) plus an optional project. */
export const ZImportScriptInput = z.strictObject({
  format: z.literal(SCRIPT_EXPORT_FORMAT),
  formatVersion: z.literal(SCRIPT_EXPORT_FORMAT_VERSION),
  exportedAt: z.string().optional(),
  source: z.looseObject({}).optional(),
  projectId: z.string().min(1).nullish(),
  script: z.strictObject({
    name: ZName,
    description: ZScriptDescription.nullish(),
    systemPrompt: ZSystemPrompt,
    questions: ZQuestionsInput,
    settings: ZScriptSettings.optional(),
  }),
});
export type TImportScriptInput = z.infer<typeof ZImportScriptInput>;

export const MEDIA_KINDS = ['image', 'audio'] as const;

/** Longest alt text of a script media file, in characters. */
export const MEDIA_ALT_MAX_LENGTH = 1000;

export const ZScriptMedia = z
  .object({
    id: z.string().meta({ example: 'fil_4fS0m3Ex4mpl3Id0000000' }),
    scriptId: z.string(),
    questionId: z.string().nullable(),
    kind: z.enum(MEDIA_KINDS),
    contentType: z.string(),
    filename: z.string(),
    alt: z.string().nullable().meta({
      description:
        'Text alternative: what an image shows, for participants who cannot see it (screen readers read it; the page shows it when the image does not load), or what an audio clip is. Optional at upload, but images without it are inaccessible: give it for every image.',
    }),
    size: z.number().int().meta({ description: 'Bytes.' }),
    sha256: z.string(),
    url: z.string().meta({ description: 'Signed download link, valid 1 hour from the response.' }),
    urlExpiresAt: ZTimestamp,
    createdAt: ZTimestamp,
  })
  .meta({ id: 'ScriptMedia' });
export type TScriptMedia = z.infer<typeof ZScriptMedia>;

export const ZListScriptMediaInput = z.strictObject({
  scriptId: ZPathId,
  ...ZPaginationQuery,
});
export const ZScriptMediaPage = ZPage(ZScriptMedia);

export const ZDeleteScriptMediaInput = z.strictObject({ scriptId: ZPathId, mediaId: ZPathId });

/** "Preview as participant" (dashboard): a preview invite on the script's hidden preview campaign. */
export const ZCreateScriptPreviewInput = z.strictObject({
  scriptId: ZPathId,
  version: z.number().int().min(1).optional().meta({ description: 'The version to preview; default the draft, else the newest published version.' }),
});
export type TCreateScriptPreviewInput = z.infer<typeof ZCreateScriptPreviewInput>;

export const ZScriptPreview = z.object({
  /** The real interview page on the preview invite (costs no credits; left out of results and exports). */
  url: z.string(),
  expiresAt: ZTimestamp,
  version: z.number().int(),
});
export type TScriptPreview = z.infer<typeof ZScriptPreview>;
