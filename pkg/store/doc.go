// Package store is loam-ctld's durable state: an SQLite database (WAL) under
// StateSaveLocation holding the live jobs, the job id sequence, node admin
// state, accounting history, the priority audit and job events.
//
// # Durability
//
// Every change goes through Update or Enqueue and is committed before the
// caller is answered. The database runs with synchronous=FULL by default:
// each commit fsyncs the WAL, so an acknowledged job survives a power loss,
// not only a crash of the process. That costs one fsync per commit, so
// commits are grouped: while one transaction is being written, changes that
// arrive queue up and are committed together in the next one (one
// transaction, one fsync, many requests). SyncNormal trades the power-loss
// guarantee for speed: the WAL is then fsynced only at checkpoints, and an
// acknowledged change survives a kill -9 of the daemon but maybe not an
// operating system crash.
//
// # Ordering
//
// Changes are committed in the order they were enqueued. The controller
// enqueues while holding its own lock, so the database sees changes in the
// order memory saw them; a change that fails (its function returns an
// error) is rolled back alone through a savepoint.
//
// # Schema
//
// migrations/NNNN_name.sql are applied in order at Open, each in its own
// transaction that also sets PRAGMA user_version. A database newer than
// this binary is refused.
package store
