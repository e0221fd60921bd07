// Merges the blind author's answer-meaning sets into tests/fixtures/answer-meaning.json, each item
// marked with its split. Prints counts only: the rule author never reads the held-out items.
import { readFileSync, writeFileSync } from 'node:fs';

const [devPath, heldoutPath, outPath] = process.argv.slice(2);
if (!devPath || !heldoutPath || !outPath) throw new Error('usage: merge-answer-meaning.mjs <dev.json> <heldout.json> <out.json>');
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));
const dev = read(devPath);
const heldout = read(heldoutPath);
const items = [...dev.items.map((item) => ({ ...item, split: 'dev' })), ...heldout.items.map((item) => ({ ...item, split: 'heldout' }))];
writeFileSync(outPath, `${JSON.stringify({ about: dev.about, items }, null, 1)}\n`);
console.log(`dev ${dev.items.length}, heldout ${heldout.items.length}`);
