/** The one storage interface of the validator, implemented by SQLite and PostgreSQL. */

/** Kinds of records the validator takes in. */
export type RecordKind =
  | 'workflow_run'
  | 'sssa'
  | 'term_result'
  | 'bounty'
  | 'peer_score'
  | 'task'
  | 'task_snapshot'
  // Dispatch (dispatch/): a task dispatched to axons, one query's outcome, a miner's workflow plan, its delivery to the executor.
  | 'dispatch_task'
  | 'query'
  | 'workflow_plan'
  | 'plan_delivery';

/** A record to store. `body` is the JSON text exactly as it will be read back. */
export interface NewRecord {
  readonly kind: RecordKind;
  readonly recordId: string;
  readonly epoch: number;
  readonly body: string;
  /** sha256 of the canonical body: a resend with the same id and digest is a duplicate, else a conflict. */
  readonly digest: string;
}

/** A stored record with its arrival sequence number. */
export interface StoredRecord {
  readonly seq: number;
  readonly kind: RecordKind;
  readonly recordId: string;
  readonly epoch: number;
  readonly body: string;
}

/** What an insert did: stored now, stored before with the same content, or an id reused for other content. */
export type InsertOutcome =
  | { readonly status: 'inserted'; readonly seq: number }
  | { readonly status: 'duplicate'; readonly seq: number }
  | { readonly status: 'conflict' }
  /** A new record for an epoch the leader has sealed for its close (HA: this instance has not seen the new head yet). */
  | { readonly status: 'epoch_closed' };

/**
 * An epoch's submission state. `submitting` is written before the extrinsic is sent and `submitted` (or
 * `failed`) after; a row left in `submitting` (a crash, an unknown outcome, or a block finality had not reached) is
 * reconciled with the chain: `submitted` when a final block holds the extrinsic, `not_landed` when it cannot land
 * and its epoch's window is closed (while it is open it is submitted again), `unknown` when the chain cannot tell.
 * `missed`: closed too late to submit (computed and published, nothing sent).
 */
export type EpochStatus = 'submitting' | 'submitted' | 'dry_run' | 'failed' | 'unknown' | 'missed' | 'not_landed';

/** One epoch's row. JSON columns are text. */
export interface EpochRow {
  readonly epoch: number;
  readonly status: EpochStatus;
  /** `{ uids, weights }` JSON. */
  readonly u16: string | null;
  /** State carried to the next epoch (window state, decay states) JSON. */
  readonly carry: string | null;
  /** The submission record JSON. */
  readonly submission: string | null;
  /** The signed bundle JSON. */
  readonly bundle: string | null;
  readonly digest: string | null;
  /**
   * Commit-reveal v4 reveal of the epoch's weights, confirmed after the fact (reveal-confirm.ts): null when
   * the submission was no timelocked commit, else `pending`, `revealed`, `not_revealed` (the chain dropped
   * the commit) or `unconfirmed`. Kept outside the signed bundle (docs/spec.md G.6).
   */
  readonly revealStatus: string | null;
  /** The reveal's details JSON: the commit record while pending, then the block or the diagnosed drop. */
  readonly reveal: string | null;
  readonly updatedAtMs: number;
}

/** An epoch row without its signed bundle and carried state (`listEpochHeads`). */
export type EpochHead = Omit<EpochRow, 'bundle' | 'carry'>;

/** Fields written to an epoch row. */
export type EpochFields = Partial<Omit<EpochRow, 'epoch' | 'updatedAtMs'>>;

/** A leader lease held: who holds it and its fencing token (grows by one at every takeover). */
export interface Fence {
  readonly holder: string;
  readonly token: number;
}

/** The storage every part of the validator uses. Every write is committed durably before it resolves. */
export interface Storage {
  readonly dialect: 'sqlite' | 'postgres';
  /** Inserts records in one transaction, idempotent by (kind, record id). */
  insertRecords(records: readonly NewRecord[]): Promise<readonly InsertOutcome[]>;
  /** Records of an epoch, by seq ascending. */
  records(epoch: number): Promise<readonly StoredRecord[]>;
  /**
   * Seals an epoch before its close reads its records (HA, PostgreSQL): waits for every insert into it in
   * flight on any instance to commit, and from then on a new record for it is refused (`epoch_closed`), so
   * the records read by the close are all the epoch will ever have. Absent on SQLite (one instance: its
   * own write queue is drained before the close). See `epoch-seal.ts`.
   */
  sealEpoch?(epoch: number): Promise<void>;
  /**
   * The distinct epochs in `[fromEpoch, toEpoch)` that have records, ascending. The epoch's own task snapshot (and
   * on PostgreSQL its seal) is not a record here: an epoch that holds nothing else gets no bundle after downtime.
   */
  epochsWithRecords(fromEpoch: number, toEpoch: number): Promise<readonly number[]>;
  /** Looks a record up by kind and id. */
  findRecord(kind: RecordKind, recordId: string): Promise<StoredRecord | undefined>;
  /** Number of stored records. */
  countRecords(): Promise<number>;
  /**
   * Marks a signed request's nonce used, atomically: `used`, or `replayed` when it was used before, or `pruned`
   * when the request's timestamp is below the nonce horizon (its nonce, if it was used, may have been pruned:
   * it cannot be told from a replay). Nothing is written unless `used`.
   */
  useNonce(hotkey: string, nonce: string, signedAtMs: number): Promise<NonceState>;
  /** What {@link useNonce} would answer now (`fresh` for `used`), as a read: nothing is written. */
  checkNonce(hotkey: string, nonce: string, signedAtMs: number): Promise<NonceCheck>;
  /**
   * Deletes the nonces of requests signed before `signedBeforeMs` and raises the nonce horizon to it (never
   * lowers it), in one transaction: from then on a request signed before the horizon is refused, whatever the
   * clock skew allowed now or the clock of the instance that prunes (docs/spec.md G.6).
   */
  pruneNonces(signedBeforeMs: number): Promise<void>;
  /**
   * Creates an epoch row; false when the epoch already has one (it is then left unchanged). With a fence,
   * the row is written only while the lease still has that holder and token (checked in the same statement).
   * @throws SubnetError `VALIDATOR_LEASE_LOST` when the fence no longer holds
   */
  claimEpoch(epoch: number, fields: EpochFields & { readonly status: EpochStatus }, fence?: Fence): Promise<boolean>;
  /** Updates an epoch row (fenced like {@link Storage.claimEpoch}). */
  updateEpoch(epoch: number, fields: EpochFields, fence?: Fence): Promise<void>;
  /**
   * Takes or renews the leader lease for `ttlMs`: renewed (same token) when `holder` holds it, taken over
   * (token + 1) when it expired, created (token 1) when there is none; undefined when another holds it.
   * Expiry is judged by the database's clock (PostgreSQL), so instances need no clock agreement.
   */
  acquireLease(holder: string, ttlMs: number): Promise<Fence | undefined>;
  /** Gives the lease up at once (a graceful stop), if `fence` still holds it. */
  releaseLease(fence: Fence): Promise<void>;
  /** True while the lease has this holder and token. */
  checkFence(fence: Fence): Promise<boolean>;
  getEpoch(epoch: number): Promise<EpochRow | undefined>;
  /**
   * An epoch row without its signed bundle and carried state: what a check whether an epoch was closed needs. The
   * catch-up at every epoch boundary asks it of up to 100 epochs, and a whole row is a megabyte read (docs/spec.md G.25).
   */
  getEpochHead(epoch: number): Promise<EpochHead | undefined>;
  /** Epoch rows, newest first. */
  listEpochs(limit: number): Promise<readonly EpochRow[]>;
  /**
   * Epoch rows without their signed bundle and carried state, newest first: what the epoch list and the latest
   * weights answer with. Anyone may ask for those, and 100 rows with their bundles are tens of megabytes read and
   * decoded on the event loop per request (docs/spec.md G.14).
   */
  listEpochHeads(limit: number): Promise<readonly EpochHead[]>;
  /**
   * Heads of the rows whose timelocked reveal is still `pending`, with an epoch above `afterEpoch`, oldest first, at
   * most `limit` (reveal-confirm.ts pages through them so none is starved). Heads: this runs every confirmation pass
   * and, on a commit-reveal v2 subnet, every head tick, and needs only the `reveal` column; the one epoch whose
   * outcome is recorded is read whole then ({@link Storage.getEpoch}, docs/spec.md G.25).
   */
  pendingReveals(afterEpoch: number, limit: number): Promise<readonly EpochHead[]>;
  /**
   * The newest epoch head before `epoch` that holds the later epochs' bundles (docs/spec.md G.23): its reveal is
   * `pending`, or it is still `submitting`; undefined when there is none. Found by index, however old it is.
   */
  unsettledBefore(epoch: number): Promise<EpochHead | undefined>;
  /** Rows left in `submitting` (an interrupted submission). */
  interruptedEpochs(): Promise<readonly number[]>;
  /** The newest epoch row before `epoch` that has a carry. */
  latestCarry(beforeEpoch: number): Promise<string | null>;
  /**
   * How this database numbers epochs: the epoch length its epoch numbers were computed with (epoch = ⌊block /
   * length⌋; undefined in a new database, or one written before the length was recorded) and the highest epoch
   * number it holds in a record or an epoch row (undefined when it holds neither). See `epoch-numbering.ts`.
   */
  epochNumbering(): Promise<EpochNumbering>;
  /** The recorded epoch length alone (undefined when none is): what a running instance checks at each tick under HA. */
  recordedEpochLength(): Promise<number | undefined>;
  /** Records `length` as the database's epoch length unless one is recorded already; resolves to the recorded one. */
  claimEpochLength(length: number): Promise<number>;
  /** Replaces the recorded epoch length `from` by `to`; false (nothing written) when `from` is not the recorded one. */
  replaceEpochLength(from: number, to: number): Promise<boolean>;
  /**
   * Records the subnet and chain the database belongs to unless they are recorded already, and fills in a genesis hash
   * recorded as unknown; resolves to what is recorded then (compare it with `identity`: `chain-identity.ts`).
   */
  claimChainIdentity(identity: ChainIdentity): Promise<ChainIdentity>;
  close(): Promise<void>;
}

/** The subnet and chain a database belongs to ({@link Storage.claimChainIdentity}). */
export interface ChainIdentity {
  readonly netuid: number;
  /** The chain's genesis block hash (`0x` and 64 lowercase hex digits), or null when the chain access cannot tell. */
  readonly genesisHash: string | null;
}

/** The answer of {@link Storage.epochNumbering}. */
export interface EpochNumbering {
  readonly length: number | undefined;
  readonly highestEpoch: number | undefined;
}

/** The outcome of {@link Storage.useNonce}. */
export type NonceState = { readonly state: 'used' | 'replayed' } | { readonly state: 'pruned'; readonly horizonMs: number };

/** The outcome of {@link Storage.checkNonce}. */
export type NonceCheck = { readonly state: 'fresh' | 'replayed' } | { readonly state: 'pruned'; readonly horizonMs: number };

/** A migration, spelled per dialect (types differ; the tables are the same). */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sqlite: readonly string[];
  readonly postgres: readonly string[];
  /** What an operator should know before it runs on SQLite (a copy that takes a while, disk it needs), if anything. */
  readonly sqliteNote?: string;
  /**
   * The table the SQLite spelling copies whole, if any: the copy needs free disk about twice the table's size and a
   * sixteenth more (it is written to the WAL, then into the file), which the start-up line and the refusal or a full
   * disk's error say in bytes; with less free disk the migration is refused before it writes anything.
   */
  readonly sqliteCopies?: string;
}

/** A migration about to run, as the storage openers report it (`onMigration`), so a slow start is explained. */
export interface MigrationNotice {
  readonly version: number;
  readonly name: string;
  /** The dialect's note ({@link Migration.sqliteNote}), if any. */
  readonly note?: string;
  /**
   * For a SQLite migration that copies a table ({@link Migration.sqliteCopies}): the table, the bytes of its values,
   * the free disk the copy needs (twice that, and a sixteenth more) and the free disk beside the file now (absent when it
   * cannot be read).
   */
  readonly copies?: { readonly table: string; readonly bytes: number; readonly neededBytes: number; readonly freeBytes?: number };
}

/** Partial indexes of the epochs whose reveal is pending and of those still submitting (migration 7). */
const UNSETTLED_INDEXES = [
  "CREATE INDEX epochs_reveal_pending ON epochs (epoch) WHERE reveal_status = 'pending'",
  "CREATE INDEX epochs_submitting ON epochs (epoch) WHERE status = 'submitting'",
] as const;

/** The migrations, in order; both dialects run the same list. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'records, nonces, epochs',
    sqlite: [
      `CREATE TABLE records (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, record_id TEXT NOT NULL, epoch INTEGER NOT NULL,
        body TEXT NOT NULL, digest TEXT NOT NULL, received_at_ms INTEGER NOT NULL, UNIQUE (kind, record_id))`,
      'CREATE INDEX records_epoch ON records (epoch, seq)',
      'CREATE TABLE nonces (hotkey TEXT NOT NULL, nonce TEXT NOT NULL, expires_at_ms INTEGER NOT NULL, PRIMARY KEY (hotkey, nonce))',
      `CREATE TABLE epochs (epoch INTEGER PRIMARY KEY, status TEXT NOT NULL, u16 TEXT, carry TEXT, submission TEXT, bundle TEXT,
        digest TEXT, updated_at_ms INTEGER NOT NULL)`,
    ],
    postgres: [
      `CREATE TABLE records (seq BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, record_id TEXT NOT NULL, epoch BIGINT NOT NULL,
        body TEXT NOT NULL, digest TEXT NOT NULL, received_at_ms BIGINT NOT NULL, UNIQUE (kind, record_id))`,
      'CREATE INDEX records_epoch ON records (epoch, seq)',
      'CREATE TABLE nonces (hotkey TEXT NOT NULL, nonce TEXT NOT NULL, expires_at_ms BIGINT NOT NULL, PRIMARY KEY (hotkey, nonce))',
      `CREATE TABLE epochs (epoch BIGINT PRIMARY KEY, status TEXT NOT NULL, u16 TEXT, carry TEXT, submission TEXT, bundle TEXT,
        digest TEXT, updated_at_ms BIGINT NOT NULL)`,
    ],
  },
  {
    version: 2,
    name: 'leader lease',
    sqlite: ['CREATE TABLE leader_lease (name TEXT PRIMARY KEY, holder TEXT NOT NULL, token INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL)'],
    postgres: ['CREATE TABLE leader_lease (name TEXT PRIMARY KEY, holder TEXT NOT NULL, token BIGINT NOT NULL, expires_at_ms BIGINT NOT NULL)'],
  },
  {
    version: 3,
    name: 'timelocked reveal confirmation',
    sqlite: ['ALTER TABLE epochs ADD COLUMN reveal_status TEXT', 'ALTER TABLE epochs ADD COLUMN reveal TEXT'],
    postgres: ['ALTER TABLE epochs ADD COLUMN reveal_status TEXT', 'ALTER TABLE epochs ADD COLUMN reveal TEXT'],
  },
  {
    // Nonces are kept by the request's signed timestamp, and pruning records the horizon below which they are
    // gone. Rows written before hold their old expiry (the timestamp plus twice the skew), later than their
    // timestamp: they are kept a little longer, never shorter.
    version: 4,
    name: 'nonce horizon',
    sqlite: [
      'ALTER TABLE nonces RENAME COLUMN expires_at_ms TO signed_at_ms',
      'CREATE TABLE nonce_horizon (id INTEGER PRIMARY KEY CHECK (id = 1), before_ms INTEGER NOT NULL)',
      'INSERT INTO nonce_horizon (id, before_ms) VALUES (1, 0)',
    ],
    postgres: [
      'ALTER TABLE nonces RENAME COLUMN expires_at_ms TO signed_at_ms',
      'CREATE TABLE nonce_horizon (id INTEGER PRIMARY KEY CHECK (id = 1), before_ms BIGINT NOT NULL)',
      'INSERT INTO nonce_horizon (id, before_ms) VALUES (1, 0)',
    ],
  },
  {
    // The epoch length the database's epoch numbers were computed with, recorded at the first start that knows it
    // (docs/spec.md G.11): a restart with another length would renumber every stored record and epoch row.
    version: 5,
    name: 'epoch numbering',
    sqlite: ['CREATE TABLE epoch_numbering (id INTEGER PRIMARY KEY CHECK (id = 1), epoch_length INTEGER NOT NULL)'],
    postgres: ['CREATE TABLE epoch_numbering (id INTEGER PRIMARY KEY CHECK (id = 1), epoch_length INTEGER NOT NULL)'],
  },
  {
    // The subnet and chain the database's records, epochs and carried state belong to, recorded at the first start
    // that knows them (docs/spec.md G.12): a start for another netuid or another chain is refused.
    version: 6,
    name: 'chain identity',
    sqlite: ['CREATE TABLE chain_identity (id INTEGER PRIMARY KEY CHECK (id = 1), netuid INTEGER NOT NULL, genesis_hash TEXT)'],
    postgres: ['CREATE TABLE chain_identity (id INTEGER PRIMARY KEY CHECK (id = 1), netuid INTEGER NOT NULL, genesis_hash TEXT)'],
  },
  {
    // SQLite stores a row's columns in order and a long value's tail in a chain of overflow pages, so reading a column
    // after a bundle (hundreds of kilobytes) walks that whole chain. Versions 1 and 3 left `digest`, `updated_at_ms`,
    // `reveal_status` and `reveal` after it: every pending-reveal lookup read every stored bundle, and the epoch list
    // read a hundred of them. The table is copied once with the large columns last; PostgreSQL keeps long values
    // apart from the row (TOAST) and only gets the indexes. The two partial indexes find the epochs that hold later
    // ones (docs/spec.md G.23) and the pending reveals without reading the others.
    version: 7,
    name: 'epoch columns by size, unsettled epoch indexes',
    sqliteNote: 'copies the epochs table once (about 8 s a GB measured; the file and its WAL grow by about the table size meanwhile)',
    sqliteCopies: 'epochs',
    sqlite: [
      `CREATE TABLE epochs_by_size (epoch INTEGER PRIMARY KEY, status TEXT NOT NULL, u16 TEXT, submission TEXT, digest TEXT,
        updated_at_ms INTEGER NOT NULL, reveal_status TEXT, reveal TEXT, carry TEXT, bundle TEXT)`,
      `INSERT INTO epochs_by_size (epoch, status, u16, submission, digest, updated_at_ms, reveal_status, reveal, carry, bundle)
        SELECT epoch, status, u16, submission, digest, updated_at_ms, reveal_status, reveal, carry, bundle FROM epochs`,
      'DROP TABLE epochs',
      'ALTER TABLE epochs_by_size RENAME TO epochs',
      ...UNSETTLED_INDEXES,
    ],
    postgres: [...UNSETTLED_INDEXES],
  },
]);

/** The columns an epoch head is read from (`listEpochHeads`): every column but the bundle and the carried state (internal). */
export const EPOCH_HEAD_COLUMNS = 'epoch, status, u16, submission, digest, reveal_status, reveal, updated_at_ms';

/** Column names of the epoch fields (internal). */
export const EPOCH_COLUMNS: Readonly<Record<keyof EpochFields, string>> = Object.freeze({
  status: 'status',
  u16: 'u16',
  carry: 'carry',
  submission: 'submission',
  bundle: 'bundle',
  digest: 'digest',
  revealStatus: 'reveal_status',
  reveal: 'reveal',
});
