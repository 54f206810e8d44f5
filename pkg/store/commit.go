package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Pending is a change waiting for its commit.
type Pending struct {
	fn   func(*Tx) error
	err  error
	done chan struct{}
}

// Wait blocks until the change is committed (nil) or failed.
func (p *Pending) Wait() error {
	<-p.done
	return p.err
}

// Done is closed when the change is committed or failed.
func (p *Pending) Done() <-chan struct{} { return p.done }

// Err is the change's outcome once Done is closed.
func (p *Pending) Err() error { return p.err }

// Enqueue queues fn to run inside the next group transaction and returns at
// once. Changes commit in Enqueue order. fn must not block; its error rolls
// back its own changes only.
func (s *Store) Enqueue(fn func(*Tx) error) *Pending {
	p := &Pending{fn: fn, done: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		p.err = ErrClosed
		close(p.done)
		return p
	}
	s.queue = append(s.queue, p)
	s.mu.Unlock()
	s.signal()
	return p
}

// Update runs fn in a group transaction and waits for the commit.
func (s *Store) Update(fn func(*Tx) error) error { return s.Enqueue(fn).Wait() }

// Barrier waits until every change enqueued before it is committed, so a
// reader sees what the caller's earlier changes wrote. A group with no
// other change writes nothing.
func (s *Store) Barrier() error { return s.Update(func(*Tx) error { return nil }) }

func (s *Store) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// commitLoop commits queued changes in batches until Close.
func (s *Store) commitLoop() {
	defer close(s.done)
	for {
		<-s.wake
		for {
			s.mu.Lock()
			n := min(len(s.queue), s.maxBat)
			batch := s.queue[:n:n]
			s.queue = s.queue[n:]
			closed := s.closed
			s.mu.Unlock()
			if n == 0 {
				if closed {
					return
				}
				break
			}
			s.commit(batch)
		}
	}
}

// commit runs one batch in one transaction; each change gets a savepoint
// so a failing change is rolled back alone.
func (s *Store) commit(batch []*Pending) {
	err := s.runBatch(batch)
	if err != nil {
		err = fmt.Errorf("commit: %w", err)
	}
	// Count before waking the waiters, so that a caller that saw its
	// change commit also sees it in Stats.
	if err == nil {
		s.mu.Lock()
		s.commits++
		s.changes += uint64(len(batch))
		s.mu.Unlock()
	}
	for _, p := range batch {
		if p.err == nil {
			p.err = err
		}
		close(p.done)
	}
}

func (s *Store) runBatch(batch []*Pending) error {
	sqlTx, err := s.writer.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	tx := &Tx{tx: sqlTx}
	defer tx.closeStmts()
	for _, p := range batch {
		p.err = tx.savepoint(p.fn)
	}
	if err := sqlTx.Commit(); err != nil {
		sqlTx.Rollback()
		return err
	}
	return nil
}

// Tx is the transaction a change runs in. Its methods are the only writes
// the store allows.
type Tx struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (t *Tx) savepoint(fn func(*Tx) error) (err error) {
	if _, err := t.tx.Exec("SAVEPOINT change"); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("change panicked: %v", r)
		}
		if err != nil {
			_, rerr := t.tx.Exec("ROLLBACK TO change; RELEASE change")
			err = errors.Join(err, rerr)
			return
		}
		_, err = t.tx.Exec("RELEASE change")
	}()
	return fn(t)
}

// exec runs a statement prepared once per transaction.
func (t *Tx) exec(q string, args ...any) error {
	if t.stmts == nil {
		t.stmts = make(map[string]*sql.Stmt)
	}
	st, ok := t.stmts[q]
	if !ok {
		var err error
		if st, err = t.tx.Prepare(q); err != nil {
			return err
		}
		t.stmts[q] = st
	}
	_, err := st.Exec(args...)
	return err
}

func (t *Tx) closeStmts() {
	for _, st := range t.stmts {
		st.Close()
	}
}
