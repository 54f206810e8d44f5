// Package schedengine is loam-ctld's scheduling engine: pkg/cluster's live
// state driven by pkg/sched's cycle, behind the controller's Engine
// interface. It converts between the controller's job and allocation types
// and the scheduler's, and is the only place loam-ctld imports pkg/sched.
package schedengine
