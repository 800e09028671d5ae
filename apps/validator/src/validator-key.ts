import { loadSigner } from '@subnet/chain';
import type { ChainSigner, KeySource } from '@subnet/chain';

import type { ValidatorConfig } from './config.js';

function uriSource(uri: string): KeySource {
  if (uri.startsWith('//')) return { kind: 'uri', uri };
  if (/^0x[0-9a-fA-F]{64}$/.test(uri)) return { kind: 'seed', seed: uri };
  return { kind: 'mnemonic', mnemonic: uri };
}

/**
 * Loads the validator's hotkey once, for everything it signs (weights on chain and audit bundles): the
 * btcli wallet of `wallet` (`<path>/<name>/hotkeys/<hotkey>`, plain or encrypted), or on dev chains the key
 * URI of `validator.hotkey_uri` when that is set. The secret stays inside the returned signer.
 *
 * @param config - the validator configuration
 * @returns the signer (`address`, `publicKey`, `kind`, `sign`)
 * @throws SubnetError the `WALLET_*` codes of `@subnet/wallet` (missing file, loose mode, wrong password, ...);
 *   `CHAIN_INVALID_KEY` for a bad key URI
 * @example const key = await loadValidatorKey(config); logger.info({ hotkey: key.address }, 'signing as')
 */
export async function loadValidatorKey(config: ValidatorConfig): Promise<ChainSigner> {
  const uri = config.validator.hotkey_uri;
  if (uri !== undefined) return loadSigner(uriSource(uri));
  const { name, hotkey, path, password_file: passwordFile } = config.wallet;
  return loadSigner({ kind: 'wallet', wallet: name, hotkey, walletPath: path, ...(passwordFile === undefined ? {} : { passwordFile }) });
}
