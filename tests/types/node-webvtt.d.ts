/** node-webvtt ships no declarations; the part the tests use. */
declare module 'node-webvtt' {
  interface Cue {
    identifier: string;
    start: number;
    end: number;
    text: string;
    styles: string;
  }
  const webvtt: {
    parse(input: string, options?: { strict?: boolean; meta?: boolean }): { valid: boolean; strict: boolean; cues: Cue[]; errors: unknown[] };
  };
  export default webvtt;
}
