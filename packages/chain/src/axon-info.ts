/** A neuron's axon as `SubtensorModule.Axons[(netuid, hotkey)]` stores it (`AxonInfo`), plus its address as text. */
export interface AxonInfo {
  /** Block of the last `serve_axon`. */
  readonly block: bigint;
  readonly version: number;
  /** The address as the chain stores it (u128; IPv4 in the low 32 bits). */
  readonly ip: bigint;
  /** The address as the Python SDK prints it: dotted IPv4 when `ip < 2^32`, else IPv6 in `inet_ntop` form. */
  readonly ipText: string;
  readonly port: number;
  /** 4 or 6, as served. */
  readonly ipType: number;
  readonly protocol: number;
}

function ipv6Text(ip: bigint): string {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i -= 1) groups.push(Number((ip >> BigInt(i * 16)) & 0xffffn));
  // IPv4-mapped ::ffff:a.b.c.d
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const v4 = Number(ip & 0xffff_ffffn);
    return `::ffff:${[24, 16, 8, 0].map((s) => (v4 >>> s) & 0xff).join('.')}`;
  }
  // the longest run of two or more zero groups becomes '::' (the first on a tie)
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j += 1;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The text of an axon address as the Python SDK shows it (`netaddr.IPAddress(int)`, shared/chain/AXON.md 2.2):
 * dotted IPv4 when the integer is below 2^32, whatever `ip_type` says; otherwise IPv6 as `inet_ntop` writes it.
 *
 * @param ip - the stored u128
 * @returns the address text
 * @example axonIpText(3232235777n) // '192.168.1.1'
 */
export function axonIpText(ip: bigint): string {
  if (ip <= 0xffff_ffffn) return [24n, 16n, 8n, 0n].map((s) => String((ip >> s) & 0xffn)).join('.');
  return ipv6Text(ip);
}
