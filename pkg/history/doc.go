// Package history keeps the cluster's time series in SQLite (R14, R15):
// per-minute samples of named series (queue waits, quota use per tenant,
// preemptions, fragmentation...), rolled up to hours and days as they are
// written, and pruned by age per resolution, so views cover months and the
// file stays bounded.
//
// # Data model
//
// A series is a name and a label ("quota_used", "research"). Record writes
// one value per series for one minute. Each row holds the count, sum,
// minimum and maximum of the values it covers, so a gauge's hourly mean is
// sum/count and a counter's hourly total is sum:
//
//	minute row (t = minute)    n=1, sum=min=max=value
//	hour row   (t = hour)      n = minutes recorded in the hour, sum, min, max
//	day row    (t = UTC day)   n = minutes recorded in the day, sum, min, max
//
// Writing a minute that is already stored changes nothing: the roll-ups
// are only updated when the minute row is new, so a retried or repeated
// Record never counts twice.
//
// # Retention
//
// Prune deletes minute rows older than Retention.Minutes (2 days by
// default), hour rows older than Retention.Hours (90 days) and day rows
// older than Retention.Days (3 years). The clock is the caller's: Record
// and Prune take the time as an argument.
package history
