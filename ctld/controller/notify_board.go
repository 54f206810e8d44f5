package controller

import (
	"sync"

	"github.com/loamhpc/loam/pkg/api"
)

// scontrol notify to a job that srun or salloc holds (an interactive
// allocation, pending or running): Slurm's controller sends the message
// to the port the client listens on, and the client prints "srun: MSG"
// or "salloc: MSG". Loam's clients cannot be reached from the controller,
// so the controller keeps the message on a notice board and the client
// waits there (PathNoticeWait) for as long as it holds the allocation.
// The client names the last notice it showed; the board forgets it and
// the older ones, so a notice is shown once and none is lost between two
// waits. A client that is gone leaves its notices until the job ends or
// maxNotices newer ones push them out.

// maxNotices bounds the notices kept for one job that nobody collects.
const maxNotices = 64

// noticeBoard holds the undelivered notices of interactive allocations.
// Its zero value is empty and ready; it has its own lock, taken under
// the controller's (wake) but never the other way round.
type noticeBoard struct {
	mu   sync.Mutex
	jobs map[uint32]*jobNotices
}

// jobNotices are one job's notices, oldest first.
type jobNotices struct {
	last uint64 // Seq of the newest notice ever posted
	list []api.Notice
	// wake is closed, and replaced, when a notice is posted.
	wake chan struct{}
}

// entry returns job jid's notices, creating them. b.mu must be held.
func (b *noticeBoard) entry(jid uint32) *jobNotices {
	if b.jobs == nil {
		b.jobs = map[uint32]*jobNotices{}
	}
	n := b.jobs[jid]
	if n == nil {
		n = &jobNotices{wake: make(chan struct{})}
		b.jobs[jid] = n
	}
	return n
}

// post adds msg to job jid's notices, dropping the oldest beyond
// maxNotices, and wakes the job's waiter. It reports how many it dropped.
func (b *noticeBoard) post(jid uint32, msg string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.entry(jid)
	n.last++
	n.list = append(n.list, api.Notice{Seq: n.last, Message: msg})
	dropped := max(len(n.list)-maxNotices, 0)
	n.list = append([]api.Notice(nil), n.list[dropped:]...)
	close(n.wake)
	n.wake = make(chan struct{})
	return dropped
}

// take forgets job jid's notices up to Seq after and returns the others
// with the channel closed at the next post.
func (b *noticeBoard) take(jid uint32, after uint64) ([]api.Notice, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.entry(jid)
	i := 0
	for i < len(n.list) && n.list[i].Seq <= after {
		i++
	}
	n.list = n.list[i:]
	return append([]api.Notice(nil), n.list...), n.wake
}

// ids lists the jobs that have an entry.
func (b *noticeBoard) ids() []uint32 {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]uint32, 0, len(b.jobs))
	for id := range b.jobs {
		out = append(out, id)
	}
	return out
}

// wake wakes job jid's waiter without a notice: the job ended, and the
// waiter answers so at once (salloc says its allocation is revoked).
func (b *noticeBoard) wake(jid uint32) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n := b.jobs[jid]; n != nil {
		close(n.wake)
		n.wake = make(chan struct{})
	}
}

// drop forgets jobs' notices. A waiter keeps the channel it holds; it
// returns at its timeout and then finds the job ended.
func (b *noticeBoard) drop(jids ...uint32) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, id := range jids {
		delete(b.jobs, id)
	}
}
