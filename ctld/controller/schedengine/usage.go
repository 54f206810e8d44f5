package schedengine

import "github.com/loamhpc/loam/ctld/controller"

var _ controller.UsageReporter = (*Engine)(nil)

// Usage implements controller.UsageReporter: decayed usage as of the last
// cycle, tenant rows with an empty user.
func (e *Engine) Usage() []controller.UsageRow {
	src := e.cl.Usage()
	out := make([]controller.UsageRow, len(src))
	for i, u := range src {
		out[i] = controller.UsageRow{Tenant: u.Tenant, User: u.User, GPUSec: u.GPUSec, CPUSec: u.CPUSec}
	}
	return out
}
