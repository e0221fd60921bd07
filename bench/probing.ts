/**
 * The built-in prober on the blind labelled probing set (tests/fixtures/probing.json):
 *
 *   npm run eval:probing                      # figures, and the dev split's probes to read
 *   npm run eval:probing -- --samples heldout # the held-out split's probes instead
 *
 * Prints, per split and language, the share of answers that open something on which the first
 * probe picks up an acceptable phrase, and on answers that leave nothing open the share with no
 * probe and with at most one (criterion: tests/helpers/probing-eval.ts). Then, per language, each
 * sample answer with its probe (or "—" when none was asked), so a reader can judge the wording.
 * The rules were tuned on `dev` only; its samples are shown by default, so that running this
 * does not show the rule author the held-out items.
 */
import { loadProbingSet, PROBING_LANGUAGES, probeItem, probingFigures, probingTable } from '../tests/helpers/probing-eval.js';

const samplesFlag = process.argv.indexOf('--samples');
const sampleSplit = samplesFlag >= 0 ? process.argv[samplesFlag + 1] : 'dev';
const probed = loadProbingSet().map(probeItem);

console.log('## Probing on the labelled set\n');
console.log(probingTable(probingFigures(probed)));
console.log(`\n## Probes on the ${sampleSplit} split\n`);
for (const language of PROBING_LANGUAGES) {
  console.log(`### ${language}\n`);
  for (const { item, first, pickedUp } of probed.filter(({ item }) => item.language === language && item.split === sampleSplit)) {
    const mark = item.opens ? (pickedUp ? 'picked up' : 'missed') : first ? 'probed a closed answer' : 'closed, no probe';
    console.log(`- ${item.answer}\n  → ${first ? `${first.text} [${first.ledger.reason}]` : '—'} (${mark})`);
  }
  console.log('');
}
