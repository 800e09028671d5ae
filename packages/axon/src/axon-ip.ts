import { AXON_ERROR_CODES, axonError } from './errors.js';

/**
 * The SDK's text of an on-chain axon ip (`str(netaddr.IPAddress(ip_int))`, `bittensor/utils/networking.py:16-25`):
 * dotted IPv4 for any value below 2^32 whatever `ip_type` says; else IPv6 as glibc `inet_ntop` writes it
 * (lowercase, no leading zeros, the first longest run of two or more zero groups as `::`, `::ffff:a.b.c.d`
 * for IPv4-mapped).
 *
 * @param ip - the u128 ip of `AxonInfo`
 * @returns the address text (`0.0.0.0` for an axon never served)
 * @throws SubnetError `AXON_INVALID_AXON_INFO` outside 0..2^128-1
 * @example axonIpToString(3405803783n) // '203.0.113.7'
 */
export function axonIpToString(ip: bigint): string {
  if (ip < 0n || ip >= 1n << 128n) throw axonError(AXON_ERROR_CODES.invalidAxonInfo, 'an axon ip is a u128', 'ip', ip.toString());
  const dotted = (v: bigint) => [24n, 16n, 8n, 0n].map((s) => ((v >> s) & 0xffn).toString()).join('.');
  if (ip < 1n << 32n) return dotted(ip);
  if (ip >> 32n === 0xffffn) return `::ffff:${dotted(ip & 0xffffffffn)}`;
  const groups = Array.from({ length: 8 }, (_, i) => Number((ip >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/**
 * A well-formed URL of an axon endpoint: `http://ip:port/Name`, IPv6 in brackets (the SDK omits them,
 * `_get_endpoint_url`, `bittensor/core/dendrite.py:236-241`, which no HTTP client accepts).
 *
 * @param ip - the address text
 * @param port - the port
 * @param synapseName - the synapse class name
 * @returns the URL
 * @example axonUrl('2001:db8::1', 8091, 'Dummy') // 'http://[2001:db8::1]:8091/Dummy'
 */
export function axonUrl(ip: string, port: number, synapseName: string): string {
  return `http://${ip.includes(':') ? `[${ip}]` : ip}:${port}/${synapseName}`;
}

/**
 * Whether the chain's `serve_axon` accepts an ip/type/port (opentensor/subtensor 14bc6f9f9 `subnets/serving.rs:242-336`): type 4 or
 * 6, IPv4 below 0xFFFFFFFF and not 127.0.0.1, IPv6 not `::1` nor all ones, port not 0.
 *
 * @param input - ip (u128), ip type, port
 * @returns true when accepted
 * @example serveAxonAccepts({ ip: 2130706433n, ipType: 4, port: 8091 }) // false (loopback)
 */
export function serveAxonAccepts(input: { readonly ip: bigint; readonly ipType: number; readonly port: number }): boolean {
  if (input.port === 0) return false;
  if (input.ipType === 4) return input.ip < 0xffffffffn && input.ip !== 0x7f000001n;
  if (input.ipType === 6) return input.ip !== (1n << 128n) - 1n && input.ip !== 1n;
  return false;
}
