/**
 * Regenerates test-corpus/: signed audit bundles written by the validator's own pipeline (the validator
 * app's `runDemo`: a devnet, a validator on SQLite, sample miners and a peer over HTTP, its epoch runner
 * building and signing each bundle), then tampered copies of them, each made one way, and manifest.json
 * saying how each file was made and what the auditor must find.
 *
 *   pnpm --filter auditor-replay corpus
 *
 * sr25519 signatures are randomised, so a regenerated corpus differs in its signature bytes; what the
 * manifest expects does not.
 */
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';

import { Keyring } from '@polkadot/api';

import { buildBundle, signBundle } from '@subnet/bundle';
import type { Bundle } from '@subnet/bundle';
import { devHotkeyUri } from '@subnet/devnet';

import { signatureVerifier } from '../src/signature-verifier.js';

interface ValidatorApp {
  readonly runDemo: (options: {
    epochs: number;
    out: NodeJS.WritableStream;
    dir?: string;
  }) => Promise<{ dir: string; outcomes: readonly { epoch: number; status: string }[] }>;
}

type Doc = { bundle: Bundle & Record<string, unknown>; digest: string; signature: string };
type Json = Record<string, unknown>;

/** The validator app, by path from the workspace (it depends on this app, so this app cannot depend on it). */
const validatorEntry = new URL('../../validator/src/index.ts', import.meta.url).href;
const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, '..', 'test-corpus');

/** The value, or a clear stop of the script when the demo bundle lacks it. */
function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the validator's bundle has no ${what}`);
  return value;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

async function main(): Promise<void> {
  await signatureVerifier(); // readies the sr25519 WebAssembly
  const { runDemo } = (await import(/* @vite-ignore */ validatorEntry)) as ValidatorApp;
  const work = mkdtempSync(join(tmpdir(), 'auditor-corpus-'));
  try {
    await runDemo({ epochs: 2, out: process.stderr, dir: work });
    await rm(corpus, { recursive: true, force: true });
    await mkdir(join(corpus, 'honest'), { recursive: true });
    await mkdir(join(corpus, 'tampered'), { recursive: true });
    await mkdir(join(corpus, 'equivocation'), { recursive: true });
    const names = (await readdir(join(work, 'bundles'))).filter((n) => n.endsWith('.json')).sort();
    const manifest: Json[] = [];
    const docs: Doc[] = [];
    for (const name of names) {
      await cp(join(work, 'bundles', name), join(corpus, 'honest', name));
      docs.push(JSON.parse(await readFile(join(work, 'bundles', name), 'utf8')) as Doc);
      manifest.push({ file: `honest/${name}`, made: 'written and signed by the validator (runDemo)', expect: { status: 'ok' } });
    }
    const base = docs[docs.length - 1];
    if (base === undefined) throw new Error('the validator wrote no bundle');
    type Inputs = { term_results?: { record_id: string; results: { tests_passed: number }[] }[]; peer_scores?: { score: number }[] };

    // One changed input record, the validator's signature kept.
    const changedInput = clone(base);
    const ci = changedInput.bundle.inputs as Inputs;
    let inputPath: string;
    // A record the epoch used (an older record of the same miner is superseded and changes nothing).
    const used = new Set(
      (base.bundle.result.challenges as unknown as { details: { pass_rates?: { record_id: string }[] } }[]).flatMap((c) =>
        (c.details.pass_rates ?? []).map((r) => r.record_id),
      ),
    );
    const termIndex = (ci.term_results ?? []).findIndex((r) => used.has(r.record_id) && r.results.some((t) => t.tests_passed > 0));
    if (termIndex >= 0) {
      const task = must(
        ci.term_results?.[termIndex]?.results.find((t) => t.tests_passed > 0),
        'term result with a passed test',
      );
      task.tests_passed -= 1;
      inputPath = `bundle.inputs.term_results[${termIndex}]`;
    } else {
      const peer = must(ci.peer_scores?.[0], 'peer score');
      peer.score = peer.score > 0.5 ? 0.1 : 0.9;
      inputPath = 'bundle.inputs.peer_scores[0]';
    }
    await writeFile(join(corpus, 'tampered', 'changed-input.json'), JSON.stringify(changedInput));
    manifest.push({
      file: 'tampered/changed-input.json',
      made: `one value of ${inputPath} changed after signing`,
      expect: { status: 'mismatch', checks: { digest: false, signature: true, recompute: false }, root_cause: { kind: 'input', path: inputPath } },
    });

    // One changed configuration value.
    const changedConfig = clone(base);
    const challenges = (changedConfig.bundle.config as { challenges: { alpha: number }[] }).challenges;
    const first = must(challenges[0], 'challenge');
    first.alpha = Math.round((first.alpha - 0.05) * 100) / 100;
    await writeFile(join(corpus, 'tampered', 'changed-config.json'), JSON.stringify(changedConfig));
    manifest.push({
      file: 'tampered/changed-config.json',
      made: 'bundle.config.challenges[0].alpha lowered by 0.05 after signing',
      expect: {
        status: 'mismatch',
        checks: { digest: false, signature: true, recompute: false },
        root_cause: { kind: 'config', path: 'bundle.config.challenges[0].alpha' },
      },
    });

    // A signature that is not the validator's: one byte flipped.
    const badSignature = clone(base);
    const sig = badSignature.signature;
    badSignature.signature = `${sig.slice(0, 10)}${sig[10] === '0' ? '1' : '0'}${sig.slice(11)}`;
    await writeFile(join(corpus, 'tampered', 'bad-signature.json'), JSON.stringify(badSignature));
    manifest.push({
      file: 'tampered/bad-signature.json',
      made: 'one hex digit of the signature changed',
      expect: { status: 'mismatch', checks: { digest: true, signature: false, recompute: true } },
    });

    // A digest that is not the bundle's.
    const badDigest = clone(base);
    badDigest.digest = `${badDigest.digest.slice(0, 63)}${badDigest.digest.endsWith('0') ? '1' : '0'}`;
    await writeFile(join(corpus, 'tampered', 'bad-digest.json'), JSON.stringify(badDigest));
    manifest.push({
      file: 'tampered/bad-digest.json',
      made: 'the last hex digit of the digest changed (the signature is then over another digest)',
      expect: { status: 'mismatch', checks: { digest: false, signature: false, recompute: true } },
    });

    // An equivocating pair: the validator's bundle and a second one it signs for the same epoch with one peer score changed.
    const validator = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri(devHotkeyUri('devnet', 0));
    const other = clone(base.bundle.inputs) as Inputs & Json;
    const otherPeer = must(other.peer_scores?.[0], 'peer score');
    otherPeer.score = otherPeer.score > 0.5 ? 0.1 : 0.9;
    const second = signBundle(
      buildBundle({
        netuid: base.bundle.netuid,
        epoch: base.bundle.epoch,
        validatorHotkey: base.bundle.validator_hotkey,
        config: base.bundle.config,
        inputs: other,
        stakes: base.bundle.stakes,
        metagraph: base.bundle.metagraph,
        submission: base.bundle.submission,
      }),
      validator,
    );
    await writeFile(join(corpus, 'equivocation', 'a.json'), JSON.stringify(base));
    await writeFile(join(corpus, 'equivocation', 'b.json'), JSON.stringify(second));
    manifest.push({
      file: 'equivocation/',
      made: `two bundles signed by the validator for netuid ${base.bundle.netuid} epoch ${base.bundle.epoch}: a.json as written, b.json with one peer score changed, recomputed and signed`,
      expect: {
        status: 'ok',
        equivocation: {
          validator_hotkey: base.bundle.validator_hotkey,
          netuid: base.bundle.netuid,
          epoch: base.bundle.epoch,
          digests: [base.digest, second.digest].sort(),
        },
      },
    });
    await writeFile(
      join(corpus, 'manifest.json'),
      `${JSON.stringify({ generated_by: 'apps/auditor-replay/scripts/make-corpus.ts', cases: manifest }, null, 2)}\n`,
    );
    process.stderr.write(`corpus written to ${corpus}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
