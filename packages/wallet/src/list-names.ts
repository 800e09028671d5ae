import { readdir } from 'node:fs/promises';
import type { Dirent } from 'node:fs';

/** The names in a folder that `keep` accepts, sorted; undefined when the folder cannot be listed (absent, not a folder). */
export async function listNames(dir: string, keep: (entry: Dirent) => boolean): Promise<readonly string[] | undefined> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => !entry.name.startsWith('.') && keep(entry))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return undefined;
  }
}

/** A wallet's hotkeys as btcli lists them: the files of `hotkeys/` but the pub files (undefined when it cannot be listed). */
export function hotkeyNames(hotkeysDir: string): Promise<readonly string[] | undefined> {
  return listNames(hotkeysDir, (entry) => !entry.isDirectory() && !entry.name.endsWith('pub.txt'));
}
