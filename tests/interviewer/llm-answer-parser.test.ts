import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assessStructuredAnswer } from '../../server/interviewer/answer-parsing.js';
import { LlmAnswerParser, type StructuredAnswerRequest } from '../../server/interviewer/llm-answer-parser.js';
import { chatReply, type FakeOpenAi, type FakeOpenAiReply, startFakeOpenAi } from '../helpers/fake-openai.js';
import { recordingLogger } from '../helpers/recording-logger.js';

/**
 * Structured answers through an OpenAI-compatible model (LLM_BASE_URL) against a local fake
 * server: the request carries a strict JSON schema whose enum is the question's options (or scale,
 * or boolean); the model's value is checked, and on any failure the built-in parser decides.
 */
const API_KEY = 'sk-test-answers-Zr8uQ2kW5mN1';
const OPTIONS = ['Search engine', 'Social media', 'Friend or colleague', 'Advertisement'];
const CHOICE = { id: 'source', type: 'multiple_choice' as const, text: 'How did you hear about us?', options: OPTIONS };

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

function parserWith(timeoutMs = 2000) {
  const logger = recordingLogger();
  return { logger, parser: new LlmAnswerParser({ baseUrl: fake.baseUrl, apiKey: API_KEY, model: 'answers-model', timeoutMs, logger }) };
}

function requestFor(
  answer: string,
  question: StructuredAnswerRequest['question'] = CHOICE,
  recognitionConfidence: number | null = null,
): StructuredAnswerRequest {
  return {
    question,
    answer,
    language: 'en',
    recognitionConfidence,
    builtin: assessStructuredAnswer(question, answer, 'en', { confidence: recognitionConfidence }),
  };
}

function contentReply(content: string): FakeOpenAiReply {
  return {
    status: 200,
    body: {
      id: 'x',
      object: 'chat.completion',
      model: 'answers-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    },
  };
}

describe('structured answers through the model', () => {
  it('sends a strict json_schema whose value enum is the options (and null), and uses a valid value with its confidence', async () => {
    const { parser } = parserWith();
    fake.respond = () => chatReply({ value: 'Friend or colleague', confidence: 0.92 });
    const assessed = await parser.assess(requestFor('my manager brought it up in a meeting'));
    expect(assessed).toEqual({ value: 'Friend or colleague', certainty: 'sure', reasons: [], confidence: 0.92 });
    const body = fake.requests[0]!.json;
    expect(body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'structured_answer', strict: true } });
    const schema = body.response_format.json_schema.schema;
    expect(schema.properties.value.enum).toEqual([...OPTIONS, null]);
    expect(schema.required).toEqual(['value', 'confidence']);
    expect(schema.additionalProperties).toBe(false);
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.stringify(body.messages)).toContain('my manager brought it up in a meeting');
  });

  it('a rating question gets the scale as an integer enum, a yes/no question a boolean', async () => {
    const { parser } = parserWith();
    fake.respond = () => chatReply({ value: 4, confidence: 0.9 });
    const rating = { id: 'ease', type: 'rating' as const, text: 'How easy?', scale: { min: 1, max: 5 } };
    expect((await parser.assess(requestFor('pretty good, a solid four', rating))).value).toBe(4);
    expect(fake.requests[0]!.json.response_format.json_schema.schema.properties.value).toEqual({ type: ['integer', 'null'], enum: [1, 2, 3, 4, 5, null] });
    fake.respond = () => chatReply({ value: true, confidence: 0.9 });
    const yesNo = { id: 'again', type: 'yes_no' as const, text: 'Would you use it again?' };
    expect((await parser.assess(requestFor('for sure', yesNo))).value).toBe(true);
    expect(fake.requests[1]!.json.response_format.json_schema.schema.properties.value).toEqual({ type: ['boolean', 'null'] });
  });

  it('a model confidence below the threshold makes the value one to confirm', async () => {
    const { parser } = parserWith();
    fake.respond = () => chatReply({ value: 'Social media', confidence: 0.4 });
    expect(await parser.assess(requestFor('saw something online'))).toMatchObject({
      value: 'Social media',
      certainty: 'unsure',
      reasons: ['weak_match'],
      confidence: 0.4,
    });
  });

  it("the built-in parser's hedge and the recogniser's doubt still count", async () => {
    const { parser } = parserWith();
    fake.respond = () => chatReply({ value: 'Search engine', confidence: 0.95 });
    const hedged = await parser.assess(requestFor('maybe google'));
    expect(hedged).toMatchObject({ value: 'Search engine', certainty: 'unsure' });
    expect(hedged.confidence).toBeLessThan(0.6);
    const misheard = await parser.assess(requestFor('googled it', CHOICE, 0.5));
    expect(misheard).toMatchObject({ value: 'Search engine', certainty: 'unsure', confidence: 0.48 });
  });

  const fallbacks: [string, () => FakeOpenAiReply, string][] = [
    ['a value outside the options', () => chatReply({ value: 'A podcast', confidence: 0.99 }), 'invalid_answer'],
    ['a rating outside the scale', () => chatReply({ value: 9, confidence: 0.99 }), 'invalid_answer'],
    ['malformed JSON', () => contentReply('{"value": "Social media", "confidence": '), 'invalid_json'],
    ['a confidence outside 0–1', () => chatReply({ value: 'Social media', confidence: 7 }), 'invalid_answer'],
    ['a 500', () => ({ status: 500, body: { error: { message: 'boom' } } }), 'http_status'],
  ];
  for (const [name, reply, reason] of fallbacks) {
    it(`${name}: the built-in parser decides, and the reason is logged`, async () => {
      const { parser, logger } = parserWith();
      fake.respond = reply;
      const question = name.includes('rating') ? { id: 'ease', type: 'rating' as const, text: 'How easy?', scale: { min: 1, max: 5 } } : CHOICE;
      const answer = name.includes('rating') ? 'a four' : 'a coworker told me about it';
      const request = requestFor(answer, question);
      expect(await parser.assess(request)).toEqual(request.builtin);
      expect(request.builtin.value).toBe(name.includes('rating') ? 4 : 'Friend or colleague');
      expect(logger.entries.map((entry) => entry.obj.reason)).toEqual([reason]);
    });
  }

  it('a timeout: the built-in parser decides', async () => {
    const { parser, logger } = parserWith(150);
    fake.respond = () => ({ hang: true });
    const request = requestFor('googled it');
    expect(await parser.assess(request)).toEqual(request.builtin);
    expect(logger.entries.map((entry) => entry.obj.reason)).toEqual(['timeout']);
  });

  it('a null from the model keeps the built-in reading ("none of those" is still read back)', async () => {
    const { parser } = parserWith();
    fake.respond = () => chatReply({ value: null, confidence: 0.9 });
    const request = requestFor('none of those');
    expect(await parser.assess(request)).toEqual(request.builtin);
    expect(request.builtin).toMatchObject({ value: null, certainty: 'unsure', noneOfThese: true });
  });

  it('a 400 on response_format: sent again in JSON mode, then without it, the answer still checked; refused again, the built-in parser', async () => {
    const { parser, logger } = parserWith();
    const refuse = { status: 400, body: { error: { message: 'Unrecognized request argument supplied: response_format', param: null } } };
    fake.respond = (request) => (request.json.response_format ? refuse : chatReply({ value: 'Advertisement', confidence: 0.85 }));
    expect(await parser.assess(requestFor('there was a banner on a news site'))).toMatchObject({ value: 'Advertisement', certainty: 'sure', confidence: 0.85 });
    expect(fake.requests.map((request) => request.json.response_format?.type ?? null)).toEqual(['json_schema', 'json_object', null]);
    expect(logger.entries.map((entry) => entry.obj.field)).toEqual(['json_schema', 'response_format']);

    const { parser: other, logger: otherLogger } = parserWith();
    fake.respond = () => refuse;
    const request = requestFor('a coworker told me about it');
    expect(await other.assess(request)).toEqual(request.builtin);
    expect(otherLogger.entries.map((entry) => entry.obj.reason)).toEqual(['field_refused', 'field_refused', 'http_status']);
  });
});
