import { encodeSs58 } from '@subnet/core';
import type { Hotkey } from '@subnet/core';
import { computeEmitWeights, indexMetagraph } from '../index.js';
const n = Number(process.argv[2] ?? 256);
const metagraph: Hotkey[] = [];
for (let uid = 0; uid < n; uid += 1) { const k = new Uint8Array(32); new DataView(k.buffer).setUint32(0, uid * 2654435761 >>> 0); metagraph.push(encodeSs58(k) as Hotkey); }
const scores = metagraph.map((hotkey, i) => ({ hotkey, score: 0.5 + (i % 7) / 14 })).sort((a, b) => (a.hotkey < b.hotkey ? -1 : 1));
const index = indexMetagraph(metagraph.map((hotkey, uid) => ({ hotkey, uid })));
const reps = Math.round(3e6 / n);
const t = process.hrtime.bigint();
for (let r = 0; r < reps; r++) computeEmitWeights({ scores, metagraph: index, cap: 8 / n, u16Mode: 'max' });
console.log(n, 'mean us', (Number(process.hrtime.bigint() - t) / reps / 1e3).toFixed(2));
