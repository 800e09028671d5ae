import { fileURLToPath } from 'node:url';
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The shared wallet vectors (the `shared/` folder beside the repository). */
export const VECTORS_DIR =
  process.env.SUBNET_SHARED_DIR === undefined
    ? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared', 'vectors', 'wallets')
    : join(process.env.SUBNET_SHARED_DIR, 'vectors', 'wallets');

export interface VectorFile {
  readonly path: string;
  readonly kind: string;
  readonly encrypted: boolean;
  readonly encryption?: string;
  readonly password?: string;
  readonly argon2i_key_hex?: string;
  readonly btwallet_load_source?: string;
  readonly expected: {
    readonly ss58Address: string;
    readonly publicKey: string;
    readonly privateKey_btwallet?: string;
    readonly secretKey_polkadot?: string;
    readonly wrong_publicKey_if_privateKey_used_unconverted?: string;
  };
  readonly wrong_password?: { readonly password: string };
}

export interface WalletIndex {
  readonly files: readonly VectorFile[];
  readonly password_env_var_examples: readonly { keyfile_path: string; password: string; env_var_name: string; env_var_value: string }[];
  readonly reference_vectors: readonly {
    privateKey_btwallet: string;
    secretKey_polkadot: string;
    publicKey: string;
    wrong_publicKey_if_privateKey_used_unconverted?: string;
  }[];
}

export function walletIndex(): WalletIndex {
  return JSON.parse(readFileSync(join(VECTORS_DIR, 'index.json'), 'utf8')) as WalletIndex;
}

function chmodTree(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) chmodTree(p);
    else chmodSync(p, 0o600);
  }
}

/** A private copy of the vector tree with btwallet's 0600 modes (git does not keep modes). */
export function copyVectors(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-vectors-'));
  try {
    cpSync(VECTORS_DIR, dir, { recursive: true });
    chmodTree(dir);
  } catch (error) {
    // No vectors to copy (a checkout without ../shared): the folder made for them goes too.
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** btwallet's BT_PW_ value written out plainly: base64(password XOR name), the oracle for the encoder. */
export function referencePasswordEnv(password: string, name: string): string {
  const p = Buffer.from(password, 'utf8');
  const k = Buffer.from(name, 'utf8');
  return Buffer.from(p.map((b, i) => b ^ k[i % k.length]!)).toString('base64');
}
