import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFootprint, takeFootprint } from '../start-footprint.js';
import { tempDir, testConfig } from './helpers.js';

// docs/spec.md G.10: a start that fails removes what it created, and only that.
describe('G.10 the footprint of a start (real files in a temporary folder)', () => {
  let t: { dir: string; cleanup: () => void };
  beforeEach(() => {
    t = tempDir();
  });
  afterEach(() => {
    t.cleanup();
  });

  it('undo removes the files and folders that did not exist when it was taken, deepest first', () => {
    const footprint = takeFootprint({ files: [join(t.dir, 'data', 'state', 'db.sqlite')], folders: [join(t.dir, 'out', 'bundles')] });
    mkdirSync(join(t.dir, 'data', 'state'), { recursive: true });
    writeFileSync(join(t.dir, 'data', 'state', 'db.sqlite'), 'new');
    mkdirSync(join(t.dir, 'out', 'bundles'), { recursive: true });
    footprint.undo();
    expect(readdirSync(t.dir)).toEqual([]);
  });

  it('undo never touches what existed before: a file keeps its bytes, a folder stays', () => {
    mkdirSync(join(t.dir, 'data'));
    writeFileSync(join(t.dir, 'data', 'db.sqlite'), 'before');
    mkdirSync(join(t.dir, 'bundles'));
    const footprint = takeFootprint({ files: [join(t.dir, 'data', 'db.sqlite'), join(t.dir, 'data', 'db.sqlite-wal')], folders: [join(t.dir, 'bundles')] });
    writeFileSync(join(t.dir, 'data', 'db.sqlite'), 'changed by the start');
    writeFileSync(join(t.dir, 'data', 'db.sqlite-wal'), 'new');
    footprint.undo();
    expect(readFileSync(join(t.dir, 'data', 'db.sqlite'), 'utf8')).toBe('changed by the start');
    expect(existsSync(join(t.dir, 'data', 'db.sqlite-wal'))).toBe(false);
    expect(readdirSync(t.dir).sort()).toEqual(['bundles', 'data']);
  });

  it('a new folder that holds anything it was not told of is kept, with its content', () => {
    const footprint = takeFootprint({ files: [], folders: [join(t.dir, 'bundles')] });
    mkdirSync(join(t.dir, 'bundles'));
    writeFileSync(join(t.dir, 'bundles', 'someone-else.json'), '{}');
    footprint.undo();
    expect(readdirSync(join(t.dir, 'bundles'))).toEqual(['someone-else.json']);
  });

  it('a path given as a file that the start finds a folder is not removed with its content', () => {
    const footprint = takeFootprint({ files: [join(t.dir, 'commits.json')], folders: [] });
    mkdirSync(join(t.dir, 'commits.json'));
    writeFileSync(join(t.dir, 'commits.json', 'inside'), 'x');
    footprint.undo();
    expect(readdirSync(join(t.dir, 'commits.json'))).toEqual(['inside']);
  });

  it('two starts on one fresh SQLite path: the one that fails leaves the database the other created', () => {
    // Both take their footprint before either opens storage (two first starts at once, or a second start while the
    // first is still loading its key). The first to take it creates the database file; the second finds it there.
    const config = testConfig(join(t.dir, 'state'));
    const database = join(t.dir, 'state', 'validator.sqlite');
    const first = startFootprint(config);
    const second = startFootprint(config);
    // The first start opens its storage and serves; the second fails (its port is taken).
    writeFileSync(database, 'the first start database');
    writeFileSync(`${database}-wal`, 'its journal');
    second.undo();
    expect(readFileSync(database, 'utf8')).toBe('the first start database');
    expect(existsSync(`${database}-wal`)).toBe(true);
    // Had the first failed instead, its undo removes the database it created, its journal and the folder.
    first.undo();
    expect(readdirSync(t.dir)).toEqual([]);
  });

  it("never removes the commit store: a failed start does not write it, and another instance's store is not this start's", () => {
    const config = testConfig(t.dir);
    const footprint = startFootprint(config);
    // Another validator on this configuration makes a timelocked commit while this start is still loading its key.
    writeFileSync(join(t.dir, 'commits.json'), '{"version":1,"commits":[]}');
    footprint.undo();
    expect(readdirSync(t.dir)).toEqual(['commits.json']);
  });

  it('after keep (the start listens) undo removes nothing', () => {
    const footprint = takeFootprint({ files: [join(t.dir, 'db.sqlite')], folders: [join(t.dir, 'bundles')] });
    writeFileSync(join(t.dir, 'db.sqlite'), 'new');
    mkdirSync(join(t.dir, 'bundles'));
    footprint.keep();
    footprint.undo();
    expect(readdirSync(t.dir).sort()).toEqual(['bundles', 'db.sqlite']);
  });
});
