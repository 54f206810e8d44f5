// Package suggest turns recorded history into configuration advice (R15).
// Each rule reads a window of daily summaries (Input, built by the caller
// from pkg/history) and, when its condition holds over the window, says
// what to change in which configuration file, why, and with the numbers
// behind it:
//
//	queue-wait-rising      a queue's mean wait keeps rising: raise its AgingRate
//	                       (and AgingCap when jobs reach the cap long before
//	                       they start) in slurm.conf
//	quota-underused        a tenant's use stays under a share of its guarantee:
//	                       lower its Guarantee in tenants.conf, naming the tenants
//	                       that borrow
//	reservations-expiring  most of a queue's reservations time out: raise its
//	                       ReservationTimeout in slurm.conf
//	preemption-thrash      many preemptions hit jobs that had only just started:
//	                       raise PreemptExemptTime in slurm.conf
//	fragmentation-high     the fragmentation rate stays high: weight the nodes so
//	                       small jobs pack (Weight= in slurm.conf)
//
// The package is pure: it reads only its Input (Now included) and returns
// suggestions in a fixed order (rule, then subject).
package suggest
