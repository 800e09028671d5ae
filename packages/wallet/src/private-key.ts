import { WALLET_ERROR_CODES, walletError } from './errors.js';

/** The order ℓ of the Ristretto255 group. */
const GROUP_ORDER = 2n ** 252n + 27742317777372353535851937790883648493n;

function leToBigint(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] ?? 0);
  return n;
}

function bigintToLe32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/**
 * Converts btwallet's 64-byte `privateKey` (schnorrkel `SecretKey::to_bytes()`: canonical little-endian scalar
 * `s < ℓ`, then the 32-byte nonce; `btwallet:src/keypair.rs:404-418`) into the form `@polkadot/util-crypto` 14
 * signs with (schnorrkel `to_ed25519_bytes()`: `LE(8·s)`, then the nonce). Without this step the key is a
 * different one (scalar `⌊s/8⌋`).
 *
 * @param privateKey - the 64 bytes of the keyfile's `privateKey`
 * @returns the 64-byte `@polkadot` secret key
 * @throws SubnetError `WALLET_INVALID_KEYFILE` when it is not 64 bytes or the scalar is not canonical (btwallet refuses it too)
 * @example const secretKey = btwalletPrivateKeyToPolkadot(hexToU8a(file.privateKey))
 */
export function btwalletPrivateKeyToPolkadot(privateKey: Uint8Array): Uint8Array {
  if (privateKey.length !== 64)
    throw walletError(WALLET_ERROR_CODES.invalidKeyfile, 'a privateKey is 64 bytes', { path: 'keyfile.privateKey', value: `${privateKey.length} bytes` });
  const scalar = leToBigint(privateKey.subarray(0, 32));
  if (scalar >= GROUP_ORDER) {
    throw walletError(
      WALLET_ERROR_CODES.invalidKeyfile,
      'the privateKey scalar is not canonical (s >= group order), as btwallet would refuse too (is it an @polkadot-form secret?)',
      { path: 'keyfile.privateKey' },
    );
  }
  const out = new Uint8Array(64);
  out.set(bigintToLe32(scalar * 8n), 0);
  out.set(privateKey.subarray(32, 64), 32);
  return out;
}
