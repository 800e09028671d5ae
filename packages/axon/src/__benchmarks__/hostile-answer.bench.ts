import { bench, describe } from 'vitest';

import { parseSynapseJson, synapseValues } from '../synapse.js';
import { defineSynapse } from '../synapse-definition.js';

// What a miner's 1 MiB answer costs the validator's event loop: the dendrite reads it whole (up to
// `maxResponseBytes`) and converts it synchronously, so every millisecond here blocks ingest and the chain
// loop. Shapes that maximise the number of JSON values per byte. Reported, not gated.
const Answer = defineSynapse({ name: 'Answer', fields: [['answer', { type: { optional: 'any' }, default: null }]], requiredHashFields: [] });
const MIB = 1 << 20;
const shapes: readonly (readonly [string, string])[] = [
  ['1 MiB list of 0', `{"answer": [${'0,'.repeat(MIB / 2 - 16)}0]}`],
  ['1 MiB list of []', `{"answer": [${'[],'.repeat(MIB / 3 - 16)}[]]}`],
  ['1 MiB list of {"a":0}', `{"answer": [${'{"a":0},'.repeat(MIB / 8 - 16)}{}]}`],
  ['1 MiB of \\u escapes', `{"answer": "${'\\u0041'.repeat(MIB / 6 - 16)}"}`],
];

describe('a hostile 1 MiB answer, parsed and converted (parseSynapseJson + synapseValues)', () => {
  for (const [name, body] of shapes) {
    bench(name, () => {
      synapseValues(parseSynapseJson(Answer, body));
    });
  }
});
