import { isIP } from 'node:net';

/** IPv4 ranges that are not public unicast (RFC 6890 special-purpose and RFC 1918), with the name a reason gives. */
const V4_RANGES: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved or broadcast'],
];

function v4ToInt(text: string): number {
  return text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Scope(text: string): string | undefined {
  const n = v4ToInt(text);
  for (const [base, bits, name] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(base);
    if (n >= start && n < start + size) return name;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 text (a trailing dotted IPv4 counts as two). */
function v6Groups(text: string): number[] {
  let t = text.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (dotted !== null) {
    const n = v4ToInt(dotted[1] ?? '0.0.0.0');
    t = `${t.slice(0, dotted.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head = '', tail] = t.split('::');
  const a = head === '' ? [] : head.split(':');
  const b = tail === undefined || tail === '' ? [] : tail.split(':');
  const fill = tail === undefined ? [] : Array.from({ length: 8 - a.length - b.length }, () => '0');
  return [...a, ...fill, ...b].map((g) => parseInt(g, 16));
}

/**
 * Why an axon address from the metagraph is not a public unicast address, or undefined when it is. The chain
 * refuses only 127.0.0.1, ::1, an IPv4 value of u32::MAX or more and the all-ones IPv6 address in `serve_axon`
 * (`is_valid_ip_address`, opentensor/subtensor 14bc6f9f9 `pallets/subtensor/src/subnets/serving.rs:248-269`, see
 * `@subnet/axon` `serveAxonAccepts`), and the SDK dendrite queries whatever is served (opentensor/bittensor bb526e6
 * `bittensor/core/dendrite.py:221-241`),
 * so a miner can point a validator at its own loopback (127.0.0.2, or `::ffff:127.0.0.1` served as IPv6),
 * its private network or a cloud metadata address (169.254.169.254). IPv4 special-purpose ranges (RFC 6890)
 * and RFC 1918; IPv6 unspecified, loopback, IPv4-mapped, NAT64 64:ff9b::/96 and 6to4 2002::/16 (each judged as
 * the IPv4 it carries), NAT64 local use 64:ff9b:1::/48, unique-local fc00::/7, link-local fe80::/10, site-local
 * fec0::/10 and multicast ff00::/8.
 *
 * @param ip - the address text (`axonIpToString`)
 * @returns the kind of address (`loopback`, `private`, `link-local`, ...) or undefined when public
 * @example axonAddressScope('169.254.169.254') // 'link-local'
 */
export function axonAddressScope(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return v4Scope(ip);
  if (family !== 6) return 'not an IP address';
  const g = v6Groups(ip);
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = g;
  if (g.slice(0, 5).every((x) => x === 0) && g5 === 0xffff) return v4Scope(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`);
  if (g.slice(0, 7).every((x) => x === 0)) return g7 === 1 ? 'loopback' : g7 === 0 ? 'unspecified' : 'IPv4-compatible (deprecated)';
  // NAT64 (RFC 6052, well-known prefix 64:ff9b::/96): a gateway forwards to the IPv4 in the last 32 bits, so it is
  // judged as that IPv4; the local-use prefix 64:ff9b:1::/48 (RFC 8215) is the operator's own network.
  if (g0 === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const inner = v4Scope(`${g6 >> 8}.${g6 & 255}.${g7 >> 8}.${g7 & 255}`);
    return inner === undefined ? undefined : `${inner} (through NAT64)`;
  }
  if (g0 === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'NAT64 local use';
  // 6to4 (RFC 3056, 2002::/16): the IPv4 in bits 16-47 is where a relay sends it.
  if (g0 === 0x2002) {
    const [, a = 0, b = 0] = g;
    const inner = v4Scope(`${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`);
    return inner === undefined ? undefined : `${inner} (through 6to4)`;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  // Site-local fec0::/10 (RFC 3879 deprecated it; old networks still route it inside a site).
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local (deprecated)';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}
