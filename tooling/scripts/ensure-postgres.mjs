#!/usr/bin/env node
// Makes sure a PostgreSQL server listens on 127.0.0.1 for the storage tests, and prints the URL they use.
//
// - SUBNET_TEST_DATABASE_URL already set: nothing to do, it is used as is.
// - A server already answers on 127.0.0.1:5432 with the test role: reuse it.
// - Otherwise, on a Debian machine where we are root (CI, the project's dev machines): install the
//   `postgresql` package, start the cluster bound to 127.0.0.1 only, create the role and database.
//
// Exit 0 with the URL on the last line of stdout, or exit 1 with the reason on stderr.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const ROLE = 'subnet';
const PASSWORD = 'subnet';
const DATABASE = 'subnet_test';
const URL = `postgresql://${ROLE}:${PASSWORD}@127.0.0.1:5432/${DATABASE}`;

if (process.env.SUBNET_TEST_DATABASE_URL) {
  console.log(process.env.SUBNET_TEST_DATABASE_URL);
  process.exit(0);
}

const quiet = { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' };
const asPostgres = (sql) => spawnSync('su', ['postgres', '-c', `psql -v ON_ERROR_STOP=1 -qAtc "${sql}"`], quiet);

function answers() {
  const probe = spawnSync('psql', [URL, '-qAtc', 'select 1'], { ...quiet, env: { ...process.env, PGCONNECT_TIMEOUT: '3' } });
  return probe.status === 0 && probe.stdout.trim() === '1';
}

if (answers()) {
  console.log(URL);
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const clusters = () => (existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort() : []);

if (clusters().length === 0) {
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    console.error('PostgreSQL is not installed and this is not a Debian machine where we are root: set SUBNET_TEST_DATABASE_URL.');
    process.exit(1);
  }
  console.error('Installing PostgreSQL (apt-get install postgresql) for the storage tests...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'postgresql'],
  ]) {
    const result = spawnSync('apt-get', args, { ...quiet, env });
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed:\n${result.stderr}`);
      process.exit(1);
    }
  }
}

const version = clusters().at(-1);
if (version === undefined) {
  console.error('PostgreSQL installed but no cluster found under /etc/postgresql.');
  process.exit(1);
}
// Loopback only: nothing outside this machine may reach the test server.
const conf = `/etc/postgresql/${version}/main/postgresql.conf`;
execFileSync('sed', ['-i', "s/^#\\?listen_addresses *=.*/listen_addresses = '127.0.0.1'/", conf]);
spawnSync('pg_ctlcluster', [version, 'main', 'start'], quiet);

for (let attempt = 0; attempt < 30; attempt++) {
  if (spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432'], quiet).status === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
const role = asPostgres(
  `DO \\$\\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${ROLE}') THEN CREATE ROLE ${ROLE} LOGIN PASSWORD '${PASSWORD}' CREATEDB; END IF; END \\$\\$;`,
);
if (role.status !== 0) {
  console.error(`could not create the test role: ${role.stderr}`);
  process.exit(1);
}
const exists = asPostgres(`SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`);
if (exists.stdout.trim() !== '1') {
  const created = asPostgres(`CREATE DATABASE ${DATABASE} OWNER ${ROLE}`);
  if (created.status !== 0) {
    console.error(`could not create the test database: ${created.stderr}`);
    process.exit(1);
  }
}
if (!answers()) {
  console.error(`PostgreSQL started but ${URL.replace(PASSWORD, '***')} does not answer.`);
  process.exit(1);
}
console.log(URL);
