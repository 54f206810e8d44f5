package controller

import (
	"github.com/loamhpc/loam/pkg/slurmtime"
	"net/http"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/notify"
)

// LiveOptions configure the live system's extras: how long the priority
// audit is kept, and the webhook events also go to (mail goes through
// slurm.conf's MailProg).
type LiveOptions struct {
	// AuditRetention is how long priority changes are kept (30 days when
	// 0).
	AuditRetention time.Duration
	// WebhookURL receives every job event as signed JSON; empty: none.
	WebhookURL string
	// Notify replaces the notifier's delivery settings (tests); its
	// MailProg, Webhook and Signer are filled in when empty.
	Notify notify.Config
}

// defaultAuditRetention keeps a month of priority history.
const defaultAuditRetention = 30 * 24 * time.Hour

// auditPruneEvery is how often housekeeping prunes the audit.
const auditPruneEvery = time.Hour

// liveState is the controller's state for the live system's extras. Its
// maps are guarded by the controller's lock.
type liveState struct {
	notifier *notify.Notifier
	// factors are each pending job's latest priority factors: a cycle
	// reports factors only for jobs whose priority changed.
	factors   map[uint32]api.PriorityFactors
	lastPrune time.Time
	// warned records the time-limit mails sent per running job.
	warned map[uint32]notify.Kind
	// preempted holds the preemption notice of a requeued victim until a
	// cycle has estimated its restart.
	preempted map[uint32]*notify.Event
}

// newLive builds the live state and starts the notifier.
func newLive(c *Controller) *liveState {
	cfg := c.opts.Live.Notify
	if cfg.MailProg == "" {
		cfg.MailProg = c.confNow().conf.MailProg
	}
	if cfg.Webhook == "" {
		cfg.Webhook = c.opts.Live.WebhookURL
	}
	if cfg.Webhook == "" {
		cfg.Webhook = c.confNow().conf.LoamWebhookURL
	}
	if cfg.Signer == nil {
		cfg.Signer = auth.NewSigner(c.opts.Key, "loam-ctld")
	}
	if cfg.Log == nil {
		cfg.Log = c.log.WithField("component", "notify")
	}
	return &liveState{notifier: notify.New(cfg), factors: map[uint32]api.PriorityFactors{},
		warned: map[uint32]notify.Kind{}, preempted: map[uint32]*notify.Event{}}
}

// auditRetention is the configured retention of the priority audit.
func (c *Controller) auditRetention() time.Duration {
	if r := c.opts.Live.AuditRetention; r > 0 {
		return r
	}
	if r := c.confNow().conf.LoamAuditRetention; r > 0 && r != slurmtime.Unlimited {
		return r
	}
	return defaultAuditRetention
}

// liveRoutes are the live views' endpoints.
func (c *Controller) liveRoutes() map[string]route {
	return map[string]route{
		api.PathShares:        {http.MethodPost, false, c.handleShares},
		api.PathPriorities:    {http.MethodPost, false, c.handlePriorities},
		api.PathReservations:  {http.MethodPost, false, c.handleReservations},
		api.PathJobLog:        {http.MethodPost, false, c.handleJobLog},
		api.PathPreemptReport: {http.MethodPost, false, c.handlePreemptReport},
		api.PathUtilReport:    {http.MethodPost, false, c.handleUtilReport},
		api.PathAssocs:        {http.MethodPost, false, c.handleAssocs}, // assocs.go
	}
}
