import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TScript } from '../../shared/schemas/scripts.js';
import { checkDraft, fullUpdateInput, questionInputsOf, scriptDraftOf } from '../../web/dashboard/src/views/studies/script-form.js';
import { apiAs, createScript, type Api } from '../helpers/factories.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The study builder's live check (web/dashboard/src/views/studies/script-form.ts) runs the API's
 * own schemas in the browser: for the same content it names the same fields with the same
 * messages as the API's 422, before anything is sent.
 */
let t: TestApp;
let api: Api;
let script: TScript;

beforeAll(async () => {
  t = await startTestApp();
  api = apiAs(t.http, await t.createTenant());
  script = (await createScript(api)) as TScript;
});
afterAll(() => t?.close());

describe('the study builder’s live check', () => {
  it('a script as loaded round-trips: the editor would send its questions unchanged', async () => {
    const full = (await api.get(`/v1/scripts/${script.id}`).expect(200)).body as TScript;
    const draft = scriptDraftOf(full);
    expect(checkDraft(full.id, draft)).toEqual([]);
    const saved = await api.patch(`/v1/scripts/${full.id}`, { questions: questionInputsOf(draft) }).expect(200);
    expect(saved.body.questions).toEqual(full.questions);
  });

  it('lists the same fields and messages as the API’s 422 for the same content', async () => {
    const draft = scriptDraftOf((await api.get(`/v1/scripts/${script.id}`).expect(200)).body as TScript);
    const [first] = draft.questions;
    draft.systemPrompt = '   ';
    draft.settings.maxFollowUps = '11';
    draft.questions = [
      { ...first!, text: ' ', id: 'bad id' },
      { ...first!, key: 'b', id: 'scale', type: 'rating', scale: { min: '5', max: '4', minLabel: '', maxLabel: '' } },
      { ...first!, key: 'c', id: 'choice', type: 'multiple_choice', options: ['Red', 'red', ''] },
      { ...first!, key: 'd', id: 'choice', followUp: { ...first!.followUp, maxFollowUps: '12' }, maxDuration: '2' },
    ];
    const local = checkDraft(script.id, draft);
    const { scriptId: _scriptId, ...body } = fullUpdateInput(script.id, draft);
    const response = await api.patch(`/v1/scripts/${script.id}`, body).expect(422);
    expect(local.length).toBeGreaterThanOrEqual(8);
    expect(local).toEqual(response.body.error.details.fields);
  });

  it('a note for a new version is checked with the version schema', () => {
    const draft = scriptDraftOf({
      name: 'x',
      description: null,
      systemPrompt: 'Hi',
      questions: [{ id: 'q1', text: 'Q?', type: 'open', required: true, order: 1 }],
      settings: {},
    });
    expect(checkDraft('scr_1', draft, 'x'.repeat(2001))).toEqual([{ path: 'changelog', message: 'must be at most 2000 characters' }]);
  });
});
