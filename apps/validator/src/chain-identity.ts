import { appError, VALIDATOR_ERROR_CODES } from './errors.js';
import type { ChainIdentity, Storage } from './storage.js';

/** Names of the genesis hashes an operator may meet (Subtensor's public networks). */
const KNOWN_CHAINS: Readonly<Record<string, string>> = Object.freeze({
  '0x2f0555cc76fc2840a25a6ea3b9637146806f1f44b090c175ffde2a7e5ab36c03': 'finney',
});

/** `netuid 7 on finney (genesis 0x2f05…)`, or without the chain when its genesis is unknown. */
function named(identity: ChainIdentity): string {
  if (identity.genesisHash === null) return `netuid ${identity.netuid}`;
  const name = KNOWN_CHAINS[identity.genesisHash];
  return `netuid ${identity.netuid} on ${name === undefined ? 'the chain with genesis' : `${name} (genesis`} ${identity.genesisHash}${name === undefined ? '' : ')'}`;
}

/**
 * The subnet and chain a database belongs to (docs/spec.md G.12). Its records, epoch rows, bundles and the state carried
 * from epoch to epoch (windows, reward decay, reputations) are one subnet's, on one chain: the first start records the
 * configured netuid and the chain's genesis hash, and every later start must name the same. A database written before
 * they were recorded takes those of its first start on this version; a genesis hash recorded as unknown (a chain
 * access that cannot tell) is filled in by the first start that knows it.
 *
 * @param storage - the opened storage
 * @param identity - the configured netuid and the connected chain's genesis hash (null when the chain cannot tell)
 * @throws SubnetError `VALIDATOR_DATABASE_MISMATCH` when the database belongs to another netuid or another chain
 */
export async function checkChainIdentity(storage: Storage, identity: ChainIdentity): Promise<void> {
  const recorded = await storage.claimChainIdentity(identity);
  const otherSubnet = recorded.netuid !== identity.netuid;
  const otherChain = recorded.genesisHash !== null && identity.genesisHash !== null && recorded.genesisHash !== identity.genesisHash;
  if (!otherSubnet && !otherChain) return;
  throw appError(
    VALIDATOR_ERROR_CODES.databaseMismatch,
    `this database belongs to ${named(recorded)}, but this start is for ${named(identity)}: its records, epochs, bundles and the state carried from epoch to epoch (windows, reward decay, reputations) are that subnet's, and would be mixed with this one's. Point database.path (or database.url) at a database of its own for ${named(identity)}, or ${otherSubnet ? `set netuid back to ${recorded.netuid}` : 'chain.endpoint at the chain the database belongs to'}`,
    {
      path: otherSubnet ? 'netuid' : 'chain.endpoint',
      value: otherSubnet ? identity.netuid : identity.genesisHash,
      recordedNetuid: recorded.netuid,
      recordedGenesisHash: recorded.genesisHash,
      genesisHash: identity.genesisHash,
    },
  );
}
