// @ts-check
// What the plain-Node scripts of this folder share: the benchmark's fresh groups, and the floor of reading
// and checking every field of a group's documents.
//
// The groups come from the benchmarks' own `makeGroup` (TypeScript), built in a child process through tsx,
// so neither tsx nor its loader runs in the measuring process; they are JSON-parsed, as a validator holds
// request bodies.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * `count` groups of 5 members x 20 findings with pairwise distinct findings (`makeGroup(5, 20, i + 1)`),
 * each with a task id.
 * @param {number} count
 * @returns {{ task_id: string, members: any[] }[]}
 */
export function makeGroups(count) {
  const maker = `import { makeGroup } from './src/__benchmarks__/make-group.ts';
process.stdout.write(JSON.stringify(Array.from({ length: ${count} }, (_, i) => ({ task_id: 'task-' + i, members: makeGroup(5, 20, i + 1) }))));`;
  return JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', maker], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    }),
  );
}

/** @param {unknown} v */
const plain = (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
/** @param {unknown} s */
const ok = (s) => typeof s === 'string' && s.length <= 65536 && s.isWellFormed();
/** @param {object} v */
function keyCount(v) {
  let n = 0;
  for (const _ in v) n++;
  return n;
}

/**
 * The first floor any implementation pays: reads every field of a group's documents and checks each
 * object's prototype and key count and each string's type, length and well-formedness (no keying, no
 * normal forms, no output). The number of findings read, or -1 when something is off (never, for these
 * groups).
 * @param {any[]} members
 */
export function touch(members) {
  let n = 0;
  for (const { sssa: d } of members) {
    if (!plain(d) || keyCount(d) > 9 || !plain(d.policy)) return -1;
    for (const f of d.findings) {
      if (!plain(f) || keyCount(f) !== 7) return -1;
      const { id, category, severity, description, evidence_ref: ref, cve_ids: ids, target_pattern: target } = f;
      if (!ok(id) || !ok(category) || !ok(severity) || !ok(description) || !ok(ref) || !ok(target) || !Array.isArray(ids)) return -1;
      for (const c of ids) if (!ok(c)) return -1;
      n++;
    }
    for (const c of d.capabilities) if (!ok(c)) return -1;
    for (const dep of d.dependencies) {
      if (!plain(dep) || keyCount(dep) !== 3 || !ok(dep.package) || !ok(dep.version)) return -1;
      for (const c of dep.cves) if (!ok(c)) return -1;
    }
    for (const r of d.policy.rules) if (!plain(r) || keyCount(r) !== 3 || !ok(r.resource) || !ok(r.action) || !ok(r.pattern)) return -1;
  }
  return n;
}
