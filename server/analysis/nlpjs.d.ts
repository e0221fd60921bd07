// nlp.js ships no types: the part the analysis uses.
declare module '@nlpjs/core' {
  export class Container {
    use(plugin: unknown): void;
  }
}
declare module '@nlpjs/sentiment' {
  export class SentimentAnalyzer {
    constructor(settings: { container: unknown });
    process(input: {
      locale: string;
      text: string;
    }): Promise<{ sentiment: { score: number; numWords: number; numHits: number; average: number; type: string; vote: string } }>;
  }
}
declare module '@nlpjs/lang-nl' {
  export const LangNl: unknown;
  export class StemmerNl {
    stem(words: string[]): string[];
  }
}
declare module '@nlpjs/lang-de' {
  export const LangDe: unknown;
  export class StemmerDe {
    stem(words: string[]): string[];
  }
}
declare module '@nlpjs/lang-fr' {
  export const LangFr: unknown;
  export class StemmerFr {
    stem(words: string[]): string[];
  }
}
declare module '@nlpjs/lang-es' {
  export const LangEs: unknown;
  export class StemmerEs {
    stem(words: string[]): string[];
  }
}
