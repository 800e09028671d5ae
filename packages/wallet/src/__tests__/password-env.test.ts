import { describe, expect, it } from 'vitest';

import { decodePasswordEnv, encodePasswordEnv, passwordEnvName } from '../password-env.js';
import { walletIndex } from './helpers.js';

const examples = walletIndex().password_env_var_examples;

describe("btwallet's BT_PW_<PATH> variable (btwallet:src/keyfile.rs:380-399, 489-495)", () => {
  it.each(examples.map((e) => [e.env_var_name, e] as const))('%s: name and value as btwallet computes them', (_n, e) => {
    expect(passwordEnvName(e.keyfile_path)).toBe(e.env_var_name);
    expect(encodePasswordEnv(e.password, e.env_var_name)).toBe(e.env_var_value);
    expect(decodePasswordEnv(e.env_var_value, e.env_var_name)).toBe(e.password);
  });

  it('the variable name is the key: a value read under another name does not give the password', () => {
    const a = examples[0]!;
    let decoded: string | undefined;
    try {
      decoded = decodePasswordEnv(a.env_var_value, passwordEnvName('/srv/wallets/other/hotkeys/x'));
    } catch {
      decoded = undefined;
    }
    expect(decoded).not.toBe(a.password);
  });

  it('non-ASCII paths: full Unicode upper-casing (ß to SS, ﬁ to FI) and XOR over the UTF-8 bytes, as Rust does', () => {
    // Computed with python3: name = 'BT_PW_' + path.replace('/', '_').replace('.', '_').upper(), value =
    // b64encode(bytes(b ^ name.encode()[i % len] for i, b in enumerate(password.encode()))).
    const path = '/home/josé/.bittensor/wallets/straße/hotkeys/ﬁrst';
    expect(passwordEnvName(path)).toBe('BT_PW__HOME_JOSÉ__BITTENSOR_WALLETS_STRASSE_HOTKEYS_FIRST');
    expect(encodePasswordEnv('pässwörd ✓', passwordEnvName(path))).toBe('Mpf7IyQonP49KWW91tw=');
    expect(decodePasswordEnv('Mpf7IyQonP49KWW91tw=', passwordEnvName(path))).toBe('pässwörd ✓');
  });
});
